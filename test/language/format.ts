// test/language: the behaviour-file format — steps run as an identity, each with the expected result per statement.
//
//   -- compat: 1 2                 which versions the file applies to (default: 2)
//   === as root                    a step: identity, then SurrealQL until `---`
//   CREATE t:1;
//   ---
//   ok [{"id":"t:1"}]              one line per statement: `ok <json>`, `ok ~` (any value), `err <message>`
//
// Identities: root, ns:OWNER|EDITOR|VIEWER, db:OWNER|EDITOR|VIEWER, record <table>:<key>, guest (anonymous).
// Per-compat expectations: `--- compat 1` / `--- compat 2` blocks after the statements.

export type Identity =
  | { readonly kind: "root" }
  | { readonly kind: "system"; readonly level: "ns" | "db"; readonly role: "OWNER" | "EDITOR" | "VIEWER" }
  | { readonly kind: "record"; readonly table: string; readonly key: string }
  | { readonly kind: "guest" };

export type Expectation = { readonly ok: unknown } | { readonly okAny: true } | { readonly err: string };

export interface Step {
  readonly as: Identity;
  readonly identityText: string;
  readonly query: string;
  /** Expectations per compat ("*" = every compat). */
  readonly expect: Map<string, Expectation[]>;
}

export interface LanguageFile {
  readonly compat: readonly (1 | 2)[];
  readonly steps: Step[];
}

/** argon2id of "p": system identities are real users, defined identically here and in the oracle recording. */
export const SYSTEM_USER_HASH = "$argon2id$v=19$m=19456,t=2,p=1$o8K9r9XbITlv8J64AekxaQ$ykN9pxKuInrMUsPWp+vC5A/l8MzrfF/SV8hfbCnwYrA";

/** The DEFINE USER a system identity stands for (run as root before its first step). */
export function systemUserDefinition(level: "ns" | "db", role: string): { name: string; text: string } {
  const name = `${level}_${role.toLowerCase()}`;
  return { name, text: `DEFINE USER ${name} ON ${level === "ns" ? "NAMESPACE" : "DATABASE"} PASSHASH '${SYSTEM_USER_HASH}' ROLES ${role}` };
}

export function parseIdentity(text: string): Identity {
  const t = text.trim();
  if (t === "root") return { kind: "root" };
  if (t === "guest") return { kind: "guest" };
  const sys = /^(ns|db):(OWNER|EDITOR|VIEWER)$/i.exec(t);
  if (sys) return { kind: "system", level: sys[1]!.toLowerCase() as "ns" | "db", role: sys[2]!.toUpperCase() as "OWNER" };
  const rec = /^record\s+([A-Za-z_][A-Za-z0-9_]*):(.+)$/.exec(t);
  if (rec) return { kind: "record", table: rec[1]!, key: rec[2]! };
  throw new Error(`unknown identity: ${t}`);
}

export function parseExpectation(line: string): Expectation {
  if (line.startsWith("ok ~")) return { okAny: true };
  if (line.startsWith("ok ")) return { ok: JSON.parse(line.slice(3)) };
  if (line.startsWith("err ")) return { err: line.slice(4) };
  throw new Error(`bad expectation line: ${line}`);
}

export function parseLanguageFile(text: string): LanguageFile {
  const lines = text.split("\n");
  let compat: (1 | 2)[] = [2];
  const steps: Step[] = [];
  let cur: { as: Identity; identityText: string; query: string[]; expect: Map<string, Expectation[]>; section: string | undefined } | undefined;
  const flush = () => {
    if (cur) steps.push({ as: cur.as, identityText: cur.identityText, query: cur.query.join("\n").trim(), expect: cur.expect });
  };
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, "");
    const c = /^-- compat:\s*(.+)$/.exec(line);
    if (c && !cur) {
      compat = c[1]!.split(/\s+/).map((x) => Number(x) as 1 | 2);
      continue;
    }
    const as = /^=== as (.+)$/.exec(line);
    if (as) {
      flush();
      cur = { as: parseIdentity(as[1]!), identityText: as[1]!.trim(), query: [], expect: new Map(), section: undefined };
      continue;
    }
    if (!cur) continue;
    const sep = /^---(?:\s+compat\s+(\d))?$/.exec(line);
    if (sep) {
      cur.section = sep[1] ?? "*";
      cur.expect.set(cur.section, []);
      continue;
    }
    if (cur.section === undefined) cur.query.push(raw);
    else if (line !== "" && !line.startsWith("#")) cur.expect.get(cur.section)!.push(parseExpectation(line));
  }
  flush();
  return { compat, steps };
}

/** The expectations of a step for one compat. */
export function expectationsFor(step: Step, compat: 1 | 2): Expectation[] | undefined {
  return step.expect.get(String(compat)) ?? step.expect.get("*");
}
