// The bound on a client's query text (attack pass 3, A4): a record / scope user's or guest's text past
// MAX_CLIENT_QUERY_TEXT bytes is refused before parsing; the worst shapes at the limit parse and answer; system users
// keep the transport's limit; parsing counts against the query's time limit.

import { describe, expect, it } from "vitest";
import { newSession, ANONYMOUS, type Compat, type Session } from "../../src/exec/session.js";
import { MAX_CLIENT_QUERY_TEXT } from "../../src/exec/query-text.js";
import { newDs, rootSession } from "./helpers.js";
import { RecordId } from "../../src/value/types.js";

const TOO_LARGE = `The query is too large: a record user's or guest's query text must not exceed ${MAX_CLIENT_QUERY_TEXT} bytes`;

function userSession(compat: Compat): Session {
  const actor = { level: compat === 1 ? "Scope" : "Record", ns: "test", db: "test", id: "user:1", roles: [] } as const;
  return newSession({ ns: "test", db: "test", actor, rd: new RecordId("user", 1n), ac: "account" });
}

/** `head` + as many `item`s joined by `sep` as fit in `bytes` with `tail`. */
function fill(head: string, item: string, sep: string, tail: string, bytes: number): { text: string; count: number } {
  const count = Math.max(0, Math.floor((bytes - head.length - tail.length + sep.length) / (item.length + sep.length)));
  return { text: head + Array(count).fill(item).join(sep) + tail, count };
}

/** The adversarial shapes of the finding, each filled to `bytes`. */
const shapes = (bytes: number) => ({
  "record ids": fill("RETURN array::len([", "t:1", ",", "])", bytes),
  "1+1+…": fill("RETURN ", "1", "+", "", bytes),
  "RETURN 1;×N": fill("", "RETURN 1", ";", "", bytes),
  "$a×N": fill("LET $a = 1; RETURN array::len([", "$a", ",", "])", bytes),
});

describe.each([1, 2] as const)("compat %i: a client's query text", (compat) => {
  const ds = newDs({ compat });

  it.each(Object.keys(shapes(0)))("%s at the limit parses and answers", async (shape) => {
    const { text, count } = shapes(MAX_CLIENT_QUERY_TEXT)[shape as keyof ReturnType<typeof shapes>];
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_CLIENT_QUERY_TEXT);
    const rs = await ds.execute(text, userSession(compat));
    expect(rs.every((r) => r.status === "OK")).toBe(true);
    if (shape === "record ids" || shape === "$a×N") expect(rs.at(-1)!.result).toBe(BigInt(count));
    if (shape === "1+1+…") expect(rs[0]!.result).toBe(BigInt(count));
    if (shape === "RETURN 1;×N") expect(rs.length).toBe(count);
  });

  it.each(Object.keys(shapes(0)))("%s one byte past the limit answers the size error", async (shape) => {
    const { text } = shapes(MAX_CLIENT_QUERY_TEXT)[shape as keyof ReturnType<typeof shapes>];
    const over = text + " ".repeat(MAX_CLIENT_QUERY_TEXT + 1 - Buffer.byteLength(text));
    await expect(ds.execute(over, userSession(compat))).rejects.toThrow(TOO_LARGE);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const text = `RETURN '${"é".repeat(MAX_CLIENT_QUERY_TEXT / 2)}'`;
    expect(text.length).toBeLessThan(MAX_CLIENT_QUERY_TEXT);
    await expect(ds.execute(text, userSession(compat))).rejects.toThrow(TOO_LARGE);
  });

  it("binds guests when authentication is on, not anonymous sessions when it is off, never system users", async () => {
    const big = fill("RETURN array::len([", "1", ",", "])", 2 * MAX_CLIENT_QUERY_TEXT);
    const guest = newSession({ ns: "test", db: "test", actor: ANONYMOUS });
    await expect(newDs({ compat, allowGuests: true }).execute(big.text, guest)).rejects.toThrow(TOO_LARGE);
    expect((await newDs({ compat, auth: false }).execute(big.text, guest))[0]!.result).toBe(BigInt(big.count));
    expect((await ds.execute(big.text, rootSession()))[0]!.result).toBe(BigInt(big.count));
  });

  it("counts the parse against the time limit: a parse past the deadline answers the timeout error", async () => {
    // 20,000 record ids take far longer than 1 ms to parse
    const { text } = fill("RETURN array::len([", "t:1", ",", "])", 80_000);
    await expect(newDs({ compat, queryTimeoutMs: 1 }).execute(text, rootSession())).rejects.toThrow("The query was not executed because it exceeded the timeout");
  });
});
