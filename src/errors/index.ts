// The one error hierarchy: every error has a stable `code` and SurrealDB's message text word for word.

/** Base of every error surql-auth raises on purpose. `message` is what a SurrealDB client would see. */
export class SurrealError extends Error {
  /** Stable, machine-readable identifier (e.g. "InvalidAuth", "FieldCheck"). */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = "SurrealError";
  }
}

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
export const INVALID_AUTH = "There was a problem with authentication";

export class InvalidAuth extends SurrealError {
  /** Why it failed, for the server log only. */
  readonly reason: string;
  constructor(reason = "") {
    super("InvalidAuth", INVALID_AUTH);
    this.reason = reason;
  }
}

/** IAM denial of a statement or action. */
export class NotAllowed extends SurrealError {
  constructor(message = "IAM error: Not enough permissions to perform this action") {
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

/** `THROW` inside a query: SurrealDB reports it as "An error occurred: <msg>". */
export class ThrownError extends SurrealError {
  constructor(readonly thrown: string) {
    super("Thrown", `An error occurred: ${thrown}`);
  }
}

export const SESSION_EXPIRED = "The session has expired";

export class ExpiredSession extends SurrealError {
  constructor() {
    super("ExpiredSession", SESSION_EXPIRED);
  }
}

/** SurrealDB's InvalidParam: a client tried to set a variable only the engine may set. */
export function protectedVariable(name: string): QueryError {
  return new QueryError("InvalidParam", `'${name}' is a protected variable and cannot be set`);
}
