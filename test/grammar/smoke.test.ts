import { describe, expect, it } from "vitest";
import { parse } from "../../grammar/index.js";
import { ParseError } from "../../src/errors/index.js";

describe("grammar smoke", () => {
  it("parses a schema with every auth definition", () => {
    const stmts = parse(`
      DEFINE TABLE user SCHEMAFULL PERMISSIONS FOR select, update WHERE id = $auth.id;
      DEFINE FIELD email ON user TYPE string ASSERT string::is::email($value);
      DEFINE INDEX email ON user FIELDS email UNIQUE;
      DEFINE ACCESS account ON DATABASE TYPE RECORD SIGNIN (SELECT * FROM user WHERE email = $email) DURATION FOR TOKEN 15m, FOR SESSION 1d;
      DEFINE USER reader ON DATABASE PASSWORD 'p' ROLES VIEWER;
      DEFINE SCOPE s SESSION 1h SIGNIN (SELECT * FROM user);
      DEFINE TOKEN t ON NS TYPE HS256 VALUE 'k';
    `);
    expect(stmts.map((s) => s.kind)).toEqual(["DefineTable", "DefineField", "DefineIndex", "DefineAccess", "DefineUser", "DefineAccess", "DefineAccess"]);
  });

  it("reports a SurrealDB-style parse error", () => {
    try {
      parse("SELECT * FROM FROM user;");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      const pe = e as ParseError;
      expect(pe.message).toContain("Unexpected token `user`, expected Eof");
      expect([pe.line, pe.column]).toEqual([1, 20]);
    }
  });
});
