#!/usr/bin/env node
// The `surql-auth` command (package.json's bin, `npm start`). CommonJS, so that nothing has used libuv's thread pool
// yet (an ES module's loading reads its files there): the pool (argon2 hashes) is as wide as the cores unless
// UV_THREADPOOL_SIZE is given; then launch.ts runs the CLI, or the server as a child with its memory settings.

import { availableParallelism } from "node:os";

process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, availableParallelism()));
void import("./launch.js").then((m) => m.launch(__filename, process.argv.slice(2)));
