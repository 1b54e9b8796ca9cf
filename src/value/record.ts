// Identifier escaping and record-id text forms, shared by display, JSON, printer and the engine.
import { RecordId } from "./types.js";
import type { Compat } from "./compat.js";
export function escapeIdent(name: string, opts?: { compat?: Compat }): string { void name; void opts; throw new Error("not implemented"); }
export function escapeKey(name: string, opts?: { compat?: Compat }): string { void name; void opts; throw new Error("not implemented"); }
export function escapeRecordKeyString(key: string, opts?: { compat?: Compat }): string { void key; void opts; throw new Error("not implemented"); }
export function formatRecordId(rid: RecordId, opts?: { compat?: Compat }): string { void rid; void opts; throw new Error("not implemented"); }
export function parseRecordIdText(text: string): RecordId | undefined { void text; throw new Error("not implemented"); }
export function randomRecordKey(): string { throw new Error("not implemented"); }
