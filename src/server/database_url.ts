/**
 * What a database argument names, and how it may be shown. One module for the CLI (whose command
 * parsing may not load the server) and the server, so that they always agree: a PostgreSQL URL
 * is recognized by its scheme in any case, as URL schemes are (RFC 3986 section 3.1), and its
 * passwords, in the user information or in the query (`?password=`), never show.
 */

const POSTGRES_SCHEME = /^postgres(ql)?:/i;

/** A `postgres:` or `postgresql:` URL, in any case; anything else is a SQLite file path. */
export const isPostgresUrl = (database: string): boolean => POSTGRES_SCHEME.test(database);

/** The URL when it has the form `postgres://...` (scheme in any case) and parses. */
export function parsePostgresUrl(database: string): URL | undefined {
  if (!/^postgres(ql)?:\/\//i.test(database)) return undefined;
  try {
    return new URL(database);
  } catch {
    return undefined;
  }
}

/** Query parameters that carry a password: `password`, libpq's `sslpassword`, in any case. */
const isPasswordParameter = (name: string) => /password/i.test(name);

/** True when a PostgreSQL URL carries a password, or might (one that does not parse). */
export function hasPassword(database: string): boolean {
  if (!isPostgresUrl(database)) return false;
  const url = parsePostgresUrl(database);
  if (!url) return /:[^/]*@|password/i.test(database);
  return url.password !== "" || [...url.searchParams.keys()].some(isPasswordParameter);
}

/** The database for logs and errors: a SQLite path as it is, a URL with every password hidden. */
export function describeDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  const url = parsePostgresUrl(database);
  if (!url) return "postgres://(unparsable URL)";
  if (url.password) url.password = "***";
  for (const name of new Set(url.searchParams.keys())) {
    if (isPasswordParameter(name)) url.searchParams.set(name, "***");
  }
  return url.toString();
}
