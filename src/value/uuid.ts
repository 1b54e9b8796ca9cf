// UUID parsing and generation (v4, v7) for uuid literals, casts and rand::uuid.
import { Uuid } from "./types.js";
export function parseUuid(text: string): Uuid { void text; throw new Error("not implemented"); }
export function tryParseUuid(text: string): Uuid | undefined { void text; throw new Error("not implemented"); }
export function uuidV4(): Uuid { throw new Error("not implemented"); }
export function uuidV7(): Uuid { throw new Error("not implemented"); }
