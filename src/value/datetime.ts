// Datetime parsing and SurrealDB-style printing; used by grammar literals, display, JSON, cast and ops.
import { Datetime, Duration } from "./types.js";
export function parseDatetime(text: string): Datetime { void text; throw new Error("not implemented"); }
export function tryParseDatetime(text: string): Datetime | undefined { void text; throw new Error("not implemented"); }
export function formatDatetime(d: Datetime): string { void d; throw new Error("not implemented"); }
export function datetimeFromMillis(ms: number): Datetime { void ms; throw new Error("not implemented"); }
export function datetimeToMillis(d: Datetime): number { void d; throw new Error("not implemented"); }
export function datetimeFromSeconds(s: number): Datetime { void s; throw new Error("not implemented"); }
export function datetimeToSeconds(d: Datetime): number { void d; throw new Error("not implemented"); }
export function datetimeAddDuration(a: Datetime, b: Duration): Datetime { void a; void b; throw new Error("not implemented"); }
export function datetimeSubDuration(a: Datetime, b: Duration): Datetime { void a; void b; throw new Error("not implemented"); }
