// Reading INFO FOR … answers: names per section, access methods by kind, users with their roles (1.x and 2.x shapes).

export type Info = Record<string, unknown>;

/** The names in one section of an INFO answer (`namespaces`, `databases`, `tables`, `users` …). */
export function names(info: Info, section: string): string[] {
  const s = info[section];
  return s && typeof s === "object" ? Object.keys(s).sort() : [];
}

/** name → DEFINE text of one section. */
export function definitions(info: Info, section: string): [string, string][] {
  const s = info[section];
  if (!s || typeof s !== "object" || Array.isArray(s)) return [];
  return Object.entries(s as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
}

export interface AccessInfo {
  readonly name: string;
  /** record: signin / signup and record ids (2.x ACCESS TYPE RECORD, 1.x SCOPE); jwt: third-party tokens with roles. */
  readonly kind: "record" | "jwt" | "other";
  readonly algorithm: string | undefined;
  readonly definition: string;
}

/** Access methods of an INFO FOR DB answer: 2.x `accesses`, 1.x `scopes` and `tokens`. */
export function accesses(info: Info): AccessInfo[] {
  return ["accesses", "scopes", "tokens"].flatMap((section) =>
    definitions(info, section).map(([name, definition]) => ({
      name,
      kind: /^DEFINE SCOPE|TYPE RECORD/.test(definition) ? ("record" as const) : /^DEFINE TOKEN|TYPE JWT/.test(definition) ? ("jwt" as const) : ("other" as const),
      algorithm: /(?:ALGORITHM|TYPE) (HS\d+|RS\d+|ES\d+|PS\d+|EDDSA|JWKS)\b/i.exec(definition)?.[1],
      definition,
    })),
  );
}

/** Password hashes are not for display. */
export function maskSecrets(definition: string): string {
  return definition.replace(/(PASSHASH|PASSWORD) '[^']*'/g, "$1 '…'");
}

export interface UserInfo {
  readonly name: string;
  readonly level: string;
  readonly roles: string;
  readonly definition: string;
}

/** The ROLES of a DEFINE USER text: "VIEWER" or "OWNER, EDITOR". */
export function userRoles(definition: string): string {
  return /ROLES ([\w, ]+?)(?: DURATION| COMMENT|$)/.exec(definition)?.[1] ?? "";
}

export function users(info: Info, level: string): UserInfo[] {
  return definitions(info, "users").map(([name, definition]) => ({ name, level, roles: userRoles(definition), definition: maskSecrets(definition) }));
}

/** A name as a SurrealQL identifier: bare when plain, else in backticks. */
export function ident(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : "`" + name.replace(/[\\`]/g, "\\$&") + "`";
}
