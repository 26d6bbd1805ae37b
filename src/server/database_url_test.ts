import assert from "node:assert/strict";
import { databaseProblem, describeDatabase, hasPassword, isPostgresUrl } from "./database_url.ts";

Deno.test("a PostgreSQL URL is known by its scheme in any case; anything else is a file", () => {
  for (const url of ["postgres://h/db", "postgresql://h/db", "POSTGRES://h/db", "PostgreSQL://h"]) {
    assert.ok(isPostgresUrl(url), url);
  }
  for (const path of ["db.sqlite", "/var/lib/postgres/db", "./postgres.db", "my-postgres://x"]) {
    assert.ok(!isPostgresUrl(path), path);
  }
});

Deno.test("describeDatabase hides every password: user information and query, any case", () => {
  const cases: [string, string][] = [
    ["postgres://u:hunter2@h:5432/db", "postgres://u:***@h:5432/db"],
    ["postgres://u@h/db?password=hunter2", "postgres://u@h/db?password=***"],
    [
      "POSTGRES://u@h/db?PassWord=hunter2&sslmode=require",
      "postgres://u@h/db?PassWord=***&sslmode=require",
    ],
    [
      "postgresql://u@h/db?sslpassword=hunter2&password=hunter2",
      "postgresql://u@h/db?sslpassword=***&password=***",
    ],
    ["postgres://u@h/db?search_path=s", "postgres://u@h/db?search_path=s"],
    ["/tmp/voicebot.db", "/tmp/voicebot.db"],
    // Written as a URL of another scheme (refused, but never shown with its password either).
    ["mysql://u:hunter2@h/db?password=hunter2", "mysql://u:***@h/db?password=***"],
    ["postgress://u:hunter2@h/db", "postgress://u:***@h/db"],
  ];
  for (const [database, shown] of cases) {
    assert.equal(describeDatabase(database), shown);
    assert.ok(!describeDatabase(database).includes("hunter2"));
  }
  assert.equal(describeDatabase("postgres://u:hunter2@[bad"), "postgres://(unparsable URL)");
  assert.equal(describeDatabase("mysql://u:hunter2@[bad"), "mysql://(unparsable URL)");
});

Deno.test("hasPassword: in the user information or the query, and for a URL that does not parse", () => {
  for (
    const url of ["postgres://u:p@h/db", "POSTGRESQL://u@h/db?password=p", "postgres://u:p@[bad"]
  ) {
    assert.ok(hasPassword(url), url);
  }
  for (const url of ["postgres://u@h/db", "postgres://h/db?search_path=s", "/tmp/u:p@h.db"]) {
    assert.ok(!hasPassword(url), url);
  }
});

Deno.test("databaseProblem: a URL of another scheme is no database, a near miss named; paths and PostgreSQL pass", () => {
  assert.equal(
    databaseProblem("postgress://u:hunter2@h/db"),
    "postgress:// is not a database this server opens. Did you mean postgres://?",
  );
  assert.equal(
    databaseProblem("PostgreSLQ://h/db"),
    "PostgreSLQ:// is not a database this server opens. Did you mean postgresql://?",
  );
  for (const other of ["mysql://u@h/db", "sqlite:///tmp/a.db", "file:///tmp/a.db", "redis://h"]) {
    const problem = databaseProblem(other);
    assert.match(problem ?? "", /^[a-z]+:\/\/ is not a database this server opens\.$/, other);
  }
  for (
    const fine of [
      "postgres://h/db",
      "POSTGRESQL://u@h/db",
      "/tmp/a.db",
      "a.db",
      "./mysql:/x",
      "C:\\db",
    ]
  ) {
    assert.equal(databaseProblem(fine), undefined, fine);
  }
});
