// Duration parsing, SurrealDB-normalised printing and arithmetic; used by grammar literals, display, cast and ops.
import { Duration } from "./types.js";
export function parseDuration(text: string): Duration { void text; throw new Error("not implemented"); }
export function formatDuration(d: Duration): string { void d; throw new Error("not implemented"); }
export function durationFromSeconds(n: number): Duration { void n; throw new Error("not implemented"); }
export function durationFromMillis(n: number): Duration { void n; throw new Error("not implemented"); }
export function durationToSeconds(d: Duration): number { void d; throw new Error("not implemented"); }
export function durationToMillis(d: Duration): number { void d; throw new Error("not implemented"); }
export function addDurations(a: Duration, b: Duration): Duration { void a; void b; throw new Error("not implemented"); }
export function subDurations(a: Duration, b: Duration): Duration { void a; void b; throw new Error("not implemented"); }
