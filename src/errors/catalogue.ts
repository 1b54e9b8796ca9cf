// The catalogue: every code an error of ours carries and, for the codes with fixed words, SurrealDB's text as a
// builder (the wire contract, written once; authError / queryError build the errors). Codes are SurrealDB's
// variant names; texts composed from clause detail at their one raising place carry a code from `EngineCode`.

/** Authentication and IAM (SurrealDB's `Error::…` variants of iam/ and signin / signup). */
export const AUTH_MESSAGES = {
  InvalidAuth: () => "There was a problem with authentication",
  ExpiredToken: () => "The token has expired",
  ExpiredSession: () => "The session has expired",
  NotAllowed: () => "IAM error: Not enough permissions to perform this action",
  NoRecordFound: () => "No record was returned",
  NoSigninTarget: () => "No signin target to either SC or DB or NS or KV",
  MissingUserOrPass: () => "Username or Password was not provided",
  InvalidSignup: () => "There was a problem with signing up",
  AccessMethodMismatch: () => "The access method cannot be used in the requested operation",
  TokenMakingFailed: () => "There was an error creating the token",
  UnexpectedAuth: () => "There was an unexpected error while performing authentication",
  MissingTokenHeader: () => "Auth token is missing the 'kid' header",
  AccessBearerMissingKey: () => "This bearer access method requires a key to be provided",
  NonComputed: () => "Found a non-computed value where they are not allowed",
  SigninQueryFailed: () => "The signin query failed",
  SignupQueryFailed: () => "The signup query failed",
  AccessRecordSigninQueryFailed: () => "The record access signin query failed",
  AccessRecordSignupQueryFailed: () => "The record access signup query failed",
  ScopeNoSignin: () => "This scope does not allow signin",
  ScopeNoSignup: () => "This scope does not allow signup",
  AccessRecordNoSignin: () => "This record access method does not allow signin",
  AccessRecordNoSignup: () => "This record access method does not allow signup",
  NoScopeFound: () => "The scope does not exist",
  AccessNotFound: () => "The access method does not exist",
  InvalidSessionDuration: () => "The session has an invalid duration",
  AccessInvalidDuration: () => "This access method has an invalid duration",
  InvalidSessionExpiration: () => "The session has an invalid expiration",
  AccessInvalidExpiration: () => "This access method results in an invalid expiration",
  InvalidRole: (role: string) => `IAM error: Invalid role '${role}'`,
  ScNotFound: (sc: string) => `The scope '${sc}' does not exist`,
  StNotFound: (tk: string) => `The scope token '${tk}' does not exist`,
  DtNotFound: (tk: string) => `The database token '${tk}' does not exist`,
  NtNotFound: (tk: string) => `The namespace token '${tk}' does not exist`,
  AccessDbNotFound: (ac: string, db: string) => `The access method '${ac}' does not exist in the database '${db}'`,
  AccessNsNotFound: (ac: string, ns: string) => `The access method '${ac}' does not exist in the namespace '${ns}'`,
  AccessRootNotFound: (ac: string) => `The root access method '${ac}' does not exist`,
  /** Ours (SurrealDB has no throttle): signin, signup, Basic or authenticate refused by iam/throttle.ts. */
  TooManyAttempts: (seconds: number) => `Too many attempts, retry after ${seconds} s`,
} as const;

/** The engine's texts with fixed words (values passed in already printed). */
export const QUERY_MESSAGES = {
  InvalidParam: (name: string) => `'${name}' is a protected variable and cannot be set`,
  NsEmpty: () => "Specify a namespace to use",
  /** `@@` against a record: full-text search indexes are not supported, so no index ever supports it (2.6.0's words). */
  NoMatchesIndex: (expr: string, compat: 1 | 2) =>
    compat === 1 ? `There was no suitable index supporting the expression '${expr}'` : `There was no suitable index supporting the expression: ${expr}`,
  DbEmpty: () => "Specify a database to use",
  Thrown: (thrown: string) => `An error occurred: ${thrown}`,
  // the regex crate's message as Rust debug-prints a string (quoted, newlines as `\n`)
  InvalidRegex: (detail: string) => `Invalid regular expression: ${JSON.stringify(detail)}`,
  ComputationDepthExceeded: () => "Reached excessive computation depth due to functions, subqueries, or futures",
  /** A BREAK / CONTINUE that left every loop: at the top, or out of a function or a closure called outside a loop. */
  InvalidControlFlow: (statement: "Break" | "Continue") => `${statement} statement has been reached`,
  QueryNotExecuted: () => "The query was not executed due to a failed transaction",
  QueryCancelled: () => "The query was not executed due to a cancelled transaction",
  QueryTimedout: () => "The query was not executed because it exceeded the timeout",
  /** Ours (SurrealDB has no memory guard): exec/heap-guard.ts stopped the query while the heap was near its limit. */
  QueryMemory: () => "The query was not executed because the server is low on memory",
  SingleOnlyOutput: () => "Expected a single result output when using the ONLY keyword",
  RecordExists: (rid: string) => `Database record \`${rid}\` already exists`,
  TryPow: (a: string, b: string) => `Cannot raise the value '${a}' with '${b}'`,
  TryNeg: (a: string) => `Cannot negate the value '${a}'`,
  TryAdd: (a: string, b: string) => cannotPerform("addition", a, b),
  /** RPC `let`: a connection's variables together stay within one message of its session (attack pass 4, B6; ours). */
  ConnectionVarsTooLarge: (limit: number) => `The connection's variables are too large: together they must not exceed ${limit} bytes`,
  ClosureStored: (rid: string) => `Failed to store record ${rid}: contains illegal closures`,
  ValueTooLarge: (limit: number) => `The value is too large: a value must not exceed ${limit} bytes`,
  QueryTooLarge: (limit: number) => `The query is too large: a record user's or guest's query text must not exceed ${limit} bytes`,
  ResultTooLarge: (limit: number) => `The query results are too large: together they must not exceed ${limit} bytes`,
  /** Ours (SurrealDB's lazy DFA has no such bound): one regex match's work, value/regex.ts (attack pass 11, I6). */
  RegexTooCostly: (limit: number) => `The regex match is too costly: the text's length times the pattern's compiled size must not exceed ${limit}`,
  /** Ours: the longest string a value may hold, value/size.ts (attack pass 11, I5). */
  StringTooLarge: (limit: number) => `The string is too long: a string must not exceed ${limit} characters`,
  StringTooLong: (limit: number) => `Cannot perform addition: a string must not exceed ${limit} characters`,
  TrySub: (a: string, b: string) => cannotPerform("subtraction", a, b),
  TryMul: (a: string, b: string) => cannotPerform("multiplication", a, b),
  TryDiv: (a: string, b: string) => cannotPerform("division", a, b),
  TryRem: (a: string, b: string) => cannotPerform("remainder", a, b),
  ArithmeticOverflow: (expr: string) => `Failed to compute: "${expr}", as the operation results in an arithmetic overflow.`,
  ArithmeticNegativeOverflow: (expr: string) => `Failed to compute: "${expr}", as the operation results in a negative value.`,
  NsNotAllowed: (ns: string) => `You don't have permission to change to the ${ns} namespace`,
  DbNotAllowed: (db: string) => `You don't have permission to change to the ${db} database`,
  ParamPermissions: (name: string) => `You don't have permission to view the $${name} parameter`,
  FcNotFound: (name: string) => `The function 'fn::${name}' does not exist`,
  /** A function `--deny-funcs` names (SurrealDB's capability error). */
  FunctionNotAllowed: (name: string) => `Function '${name}' is not allowed to be executed`,
  FunctionPermissions: (name: string) => `You don't have permission to run the fn::${name} function`,
  InvalidArguments: (fn: string, detail: string) => `Incorrect arguments for function ${fn}(). ${detail}`,
  /** A call that could not run: a value that is not a closure (`$x(1)`), a method no type has (2.x). */
  FunctionRun: (fn: string, detail: string) => `There was a problem running the ${fn}() function. ${detail}`,
  /** A closure's `-> type` not met by its result (2.x). */
  ClosureReturn: (type: string, value: string) =>
    `There was a problem running the ANONYMOUS function. Expected this function to return a value of type ${type}, but found ${value}`,
  /** `<array> 'a'..'c'`, `FOR $x IN 'a'..'c'` (2.x). */
  RangeValueKind: (found: string) => `Expected a range value of 'int', but found '${found}'`,
  RangeTooBig: (max: number) => `The range cannot exceed a size of ${max} for this operation`,
  InvalidPlace: () => "Unsupported assignment target",
  InvalidMerge: (value: string) => `Can not merge data using value: ${value}`,
  InvalidContent: (value: string) => `Can not use ${value} in a CONTENT clause`,
  /** A write over a value that names no record (1.x quotes the value). */
  InvalidStatementTarget: (value: string, statement?: string, compat: 1 | 2 = 2) =>
    compat === 1 && statement !== undefined ? `Can not execute ${statement} statement using value '${value}'` : statementValue(statement, value),
  RelateStatement: (value: string) => statementValue("RELATE", value),
  /** A data clause's `id` that no record id can take (`SET id = ''`, `id: NULL`, a range); 1.x and 2.x alike. */
  IdInvalid: (value: string) => `Found ${value} for the Record ID but this is not a valid id`,
  /** A data clause's `id` naming another record than the one the statement targets (1.x prints the field bare). */
  IdMismatch: (value: string, compat: 1 | 2) => `Found ${value} for the ${compat === 1 ? "id" : "`id`"} field, but a specific record has been specified`,
  /** A write the table's TYPE refuses: a RELATE into a NORMAL table, a CREATE into a RELATION one (1.x prints two spaces). */
  TableCheck: (rid: string, relate: boolean, target: string, compat: 1 | 2) =>
    `Found record: \`${rid}\` which is ${relate ? "not " : ""}a relation, but expected a${compat === 1 ? "  " : " "}${target}`,
  /** An ENFORCED relation's end that does not exist. */
  IdNotFound: (rid: string) => `The record '${rid}' does not exist`,
  /** DEFINE FIELD in / out on a relation table with a type that is no record type. */
  RelationEndType: (end: "in" | "out") => `An error occurred: ${end} field on a relation must be a record`,
  InOverride: (value: string) => `Found ${value} for the \`in\` field, which does not match the existing field value`,
  OutOverride: (value: string) => `Found ${value} for the \`out\` field, which does not match the existing field value`,
  InsertStatement: (value: string | undefined) =>
    value === undefined ? "Can not execute INSERT statement without a target table" : statementValue("INSERT", value),
  /** INSERT RELATION of a row whose `in` / `out` is no record id. */
  InsertRelationEnd: (end: "in" | "out", value: string) => `Can not execute INSERT statement where property '${end}' is: ${value}`,
  InvalidPatch: (detail: string) => `The JSON Patch contains invalid operations. ${detail}`,
  PatchTest: (expected: string, got: string) =>
    `Given test operation failed for JSON Patch. Expected \`${expected}\`, but got \`${got}\` instead.`,
  /** The value (and the record) only when the client may select them; otherwise "a value" and no record (attack A9:
   * stricter than SurrealDB, which prints the stored hidden value). */
  FieldCheck: (value: string | undefined, field: string, rid: string | undefined, tail: string) =>
    `Found ${value ?? "a value"} for field \`${field}\`${rid === undefined ? "" : `, with record \`${rid}\``}, but ${tail}`,
  /** An error in a body run with the schema owner's rights (event, PERMISSIONS clause, param value) whose text may carry
   * data, reaching a client whose PERMISSIONS apply (A9; SurrealDB passes the body's text through). */
  OwnerBodyFailed: (what: string) => `An error occurred in ${what}`,
  /** 2.x DEFINE FIELD under a defined field whose type cannot hold it. */
  MismatchedFieldTypes: (field: string, kind: string, parent: string, parentKind: string) =>
    `Cannot set field \`${field}\` with type \`${kind}\` as it mismatched with field \`${parent}\` with type \`${parentKind}\``,
  /** 2.x DEFINE INDEX on a SCHEMAFULL table over a field it does not define. */
  FdNotFound: (field: string) => `The field '${field}' does not exist`,
  FieldReadonly: (field: string, rid: string) => `Found changed value for field \`${field}\`, with record \`${rid}\`, but field is readonly`,
  /** An unexpected failure inside the engine: the detail goes to the log, never to the client. */
  Internal: () => "An internal error occurred",
  /** The value and record only when the actor may select that record and each indexed field of it (attack F2: stricter
   * than SurrealDB, which always names both); otherwise SurrealDB's words without them. */
  IndexExists: (index: string, clash?: { readonly value: string; readonly rid: string }) =>
    `Database index \`${index}\` already contains ${clash === undefined ? "a value" : `${clash.value}, with record \`${clash.rid}\``}`,
  // raised as plain SurrealErrors (not QueryErrors): a field TYPE check reports them as its own error
  InvalidUuid: (text: string) => `Invalid uuid '${text}'`,
  InvalidDatetime: (text: string) => `Invalid datetime '${text}'`,
  InvalidDuration: (text: string) => `Invalid duration '${text}'`,
  // the key-value transaction (store/kv/)
  TxRetryable: () => "Failed to commit transaction due to a read or write conflict. This transaction can be retried",
  TxFinished: () => "Couldn't update a finished transaction",
  TxReadonly: () => "Couldn't write to a read only transaction",
} as const;

/** Texts of the storage layer's own failures (a bad PATH for `start`, a store already in use): LocalError "Storage". */
export const STORAGE_MESSAGES = {
  UnsupportedStore: (given: string, instead: string) =>
    `The storage engine '${given}' is not available in surql-auth: use ${instead} instead`,
  UnknownStore: (spec: string) =>
    `Unknown storage path '${spec}': use memory, file:PATH (or a bare PATH) or postgres://USER@HOST:PORT/DB`,
  StoreLocked: (path: string, pid: number) =>
    `The store at '${path}' is already in use by another surql-auth process (pid ${pid}); stop it or choose another path`,
} as const;

function cannotPerform(verb: string, a: string, b: string): string {
  return `Cannot perform ${verb} with '${a}' and '${b}'`;
}

function statementValue(statement: string | undefined, value: string): string {
  return `Can not execute ${statement === undefined ? "" : `${statement} `}statement using value: ${value}`;
}

/** The engine's codes whose text is composed at its one raising place (it embeds values or clause detail). */
export type EngineCode =
  | "AlreadyExists"
  | "Cast"
  | "Import"
  | "InvalidFunction"
  | "NotFound"
  | "ParseError"
  | "Unreachable"
  | "Unsupported"
  | "UserNotFound";

export type AuthCode = keyof typeof AUTH_MESSAGES;
export type QueryCode = keyof typeof QUERY_MESSAGES | EngineCode;
/** What a SurrealError carries: a client may see its text. */
export type SurrealCode = AuthCode | QueryCode;

/** The tail of a FieldCheck for a field clause whose own error text may carry what the client may not select (A9). */
export function fieldClauseFailed(clause: "VALUE" | "DEFAULT" | "ASSERT"): string {
  return `its ${clause} clause failed`;
}

/**
 * Codes whose text carries no value read from the data: fixed words, names from the schema or the session, a THROW's
 * words (the schema author's), FieldReadonly (names only) and OwnerBodyFailed. An error from a body that read more than
 * its client may select reaches the client as it stands only with one of these (attack A9). FieldCheck and IndexExists
 * are not among them: they print the value written, which an owner-rights body may have read from where its client may
 * not (attack pass 4, B1: an event copying a PERMISSIONS NONE value into a typed field of a visible table).
 */
export const DATA_FREE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "NotAllowed",
  "InvalidParam",
  "NsEmpty",
  "DbEmpty",
  "Thrown",
  "ComputationDepthExceeded",
  "InvalidControlFlow",
  "QueryNotExecuted",
  "QueryCancelled",
  "QueryTimedout",
  "QueryMemory",
  "SingleOnlyOutput",
  "ValueTooLarge",
  "ClosureStored",
  "ResultTooLarge",
  "StringTooLong",
  "RegexTooCostly",
  "StringTooLarge",
  "NsNotAllowed",
  "DbNotAllowed",
  "ParamPermissions",
  "FcNotFound",
  "FunctionPermissions",
  "Internal",
  "TxRetryable",
  "TxFinished",
  "TxReadonly",
  "FieldReadonly",
  "OwnerBodyFailed",
]);

/** JSON-RPC error codes (protocol.md §7.2) and their texts. */
export const RPC_MESSAGES = {
  [-32700]: "Parse error",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
} as const;
export const RPC_DATABASE_ERROR = -32000;
export type RpcCode = keyof typeof RPC_MESSAGES | typeof RPC_DATABASE_ERROR;

/** Our own refusals on the wire (SurrealDB has no such limits): HTTP bodies and WebSocket close reasons. */
export const WIRE_MESSAGES = {
  TooManyConnections: "Too many connections from this address",
  /** Close reason (1008) of a socket whose unread answers stayed over the limit or passed the hard cap. */
  AnswersNotRead: "Too many answers not read by the client",
  /** Close reason (1013) of the socket holding the most unread answers when the server's total passes its cap. */
  ServerBusy: "Too many unread answers on the server",
  /** POST /signin or /signup without an Accept we answer in (SurrealDB answers 200 with an empty body). */
  AcceptRequired: "Set the Accept header to application/json, application/cbor or text/plain to receive the token",
  /** POST /explain and RPC explain: identities needing a secret or a sign-in are not accepted there. */
  ExplainIdentity: "explain on a server runs as anonymous, ROLE@LEVEL or record ACCESS as ID only: no user password, signup, signin or token",
  ExplainAboveCaller: "explain cannot run as a role or a level above the caller's own",
  ExplainNoRecord: "explain as record ACCESS as ID needs a record that exists",
  ExplainTransaction: "explain runs the query in one transaction that it cancels: leave out BEGIN, COMMIT and CANCEL",
  ExplainBody: "Send { as: IDENTITY, query: TEXT, vars?: OBJECT }",
} as const;

/** Our own failures: their text is for the log or a local caller, never sent to a client as it stands. */
export type LocalCode =
  /** An HTTP request the auth middleware refused (401, its text as the body). */
  | "AuthFailure"
  /** A JWT payload that does not deserialise as SurrealDB's claims. */
  | "Claims"
  /** An undecodable RPC frame or HTTP body (JSON or CBOR). */
  | "Decode"
  /** A malformed `\u` escape in a string literal (the parser reports it as a ParseError at the token). */
  | "InvalidEscape"
  /** A JWKS fetch, parse or key problem. */
  | "Jwks"
  /** A request body over its route's limit. */
  | "PayloadTooLarge"
  /** A mistake on the command line. */
  | "Usage"
  /** A storage path that cannot be opened (STORAGE_MESSAGES). */
  | "Storage";

export type ErrorCode = SurrealCode | RpcCode | LocalCode;

/** SurrealDB's HTTP and RPC wrapping of an engine error: `There was a problem with the database: <message>`. */
export function databaseProblem(message: string): string {
  return `There was a problem with the database: ${message}`;
}
