// The one error hierarchy: every error has a stable `code` from the catalogue (catalogue.ts) and, when a client
// may see it, SurrealDB's message text word for word.

import { AUTH_MESSAGES, QUERY_MESSAGES, type AuthCode, type ErrorCode, type LocalCode, type SurrealCode } from "./catalogue.js";

/** Root of every error surql-auth raises on purpose: a stable code. */
export class CodedError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** An error with SurrealDB's text: `message` is what a SurrealDB client would see. */
export class SurrealError extends CodedError<SurrealCode> {
  constructor(code: SurrealCode, message: string) {
    super(code, message);
    this.name = "SurrealError";
  }
}

/** Our own failure (codec, JWKS, claims, CLI usage …): the text is for the log or a local caller, not a client. */
export class LocalError extends CodedError<LocalCode> {}

/** A failure to parse SurrealQL text. Carries position information; see grammar/errors.ts. */
export class ParseError extends SurrealError {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly expected: readonly string[];
  readonly snippet: string;
  constructor(
    message: string,
    position: { line: number; column: number; offset: number },
    expected: readonly string[] = [],
    snippet = "",
  ) {
    super("ParseError", message);
    this.name = "ParseError";
    this.line = position.line;
    this.column = position.column;
    this.offset = position.offset;
    this.expected = expected;
    this.snippet = snippet;
  }
}

/** SurrealDB's generic credential failure; the detail goes to the server log, never to the client. */
export const INVALID_AUTH = AUTH_MESSAGES.InvalidAuth();

export class InvalidAuth extends SurrealError {
  /** Why it failed, for the server log only. */
  readonly reason: string;
  constructor(reason = "") {
    super("InvalidAuth", INVALID_AUTH);
    this.reason = reason;
  }
}

/** An authentication failure that is not the generic InvalidAuth (its text is safe to show to the client). */
export class AuthError extends SurrealError {}

/** The catalogued authentication error `code`, its text built from `args`. */
export function authError<C extends Exclude<AuthCode, "InvalidAuth" | "NotAllowed" | "ExpiredSession">>(
  code: C,
  ...args: Parameters<(typeof AUTH_MESSAGES)[C]>
): AuthError {
  return new AuthError(code, (AUTH_MESSAGES[code] as (...a: typeof args) => string)(...args));
}

/** IAM denial of a statement or action. */
export class NotAllowed extends SurrealError {
  constructor(message = AUTH_MESSAGES.NotAllowed()) {
    super("NotAllowed", message);
  }
}

/** A value could not be converted to the requested type. */
export class CastError extends SurrealError {
  constructor(message: string) {
    super("Cast", message);
  }
}

/** Anything the query engine raises with SurrealDB's text; `code` names the upstream variant. */
export class QueryError extends SurrealError {}

/** The catalogued engine error `code`, its text built from `args`. */
export function queryError<C extends keyof typeof QUERY_MESSAGES>(code: C, ...args: Parameters<(typeof QUERY_MESSAGES)[C]>): QueryError {
  return new QueryError(code, (QUERY_MESSAGES[code] as (...a: typeof args) => string)(...args));
}

/** `THROW` inside a query: SurrealDB reports it as "An error occurred: <msg>". */
export class ThrownError extends SurrealError {
  constructor(readonly thrown: string) {
    super("Thrown", QUERY_MESSAGES.Thrown(thrown));
  }
}

export const SESSION_EXPIRED = AUTH_MESSAGES.ExpiredSession();

export class ExpiredSession extends SurrealError {
  constructor() {
    super("ExpiredSession", SESSION_EXPIRED);
  }
}

/** SurrealDB's InvalidParam: a client tried to set a variable only the engine may set. */
export function protectedVariable(name: string): QueryError {
  return queryError("InvalidParam", name);
}
