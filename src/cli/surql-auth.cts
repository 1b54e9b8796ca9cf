#!/usr/bin/env node
// The `surql-auth` command (package.json's bin, `npm start`): launch.ts runs the CLI, or the server as a child with
// its memory settings. CommonJS, so that settings of libuv's thread pool made here would come before its first use
// (an ES module's loading already reads its files there).

void import("./launch.js").then((m) => m.launch(__filename, process.argv.slice(2)));
