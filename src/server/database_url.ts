/**
 * What a database argument names, and how it may be shown. One module for the CLI (whose command
 * parsing may not load the server) and the server, so that they always agree: a PostgreSQL URL
 * is recognized by its scheme in any case, as URL schemes are (RFC 3986 section 3.1); any other
 * value written as a URL is a mistake, never a SQLite file's name; and no password in anything
 * written as a URL, in the user information or in the query (`?password=`), ever shows.
 */
import { closest } from "../suggest.ts";

const POSTGRES_SCHEME = /^postgres(ql)?:/i;
/** A value written as a URL (`scheme://...`), RFC 3986's scheme first. */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const POSTGRES_SCHEMES = ["postgres", "postgresql"];

/**
 * Why `database` names no database this server opens (a sentence), or undefined. A value written as a URL
 * whose scheme is not PostgreSQL's (`postgress://`, `mysql://`) would otherwise be a SQLite file
 * path, made under the working directory with the URL (its password too) for a name. Names only
 * the scheme, never the rest.
 */
export function databaseProblem(database: string): string | undefined {
  const scheme = URL_SCHEME.exec(database)?.[1];
  if (scheme === undefined || POSTGRES_SCHEMES.includes(scheme.toLowerCase())) return undefined;
  const near = closest(scheme, POSTGRES_SCHEMES);
  return `${scheme}:// is not a database this server opens.${
    near ? ` Did you mean ${near}://?` : ""
  }`;
}

/** A `postgres:` or `postgresql:` URL, in any case; anything else is a SQLite file path. */
export const isPostgresUrl = (database: string): boolean => POSTGRES_SCHEME.test(database);

/** The URL when it has the form `postgres://...` (scheme in any case) and parses. */
export function parsePostgresUrl(database: string): URL | undefined {
  return /^postgres(ql)?:\/\//i.test(database) ? parseUrl(database) : undefined;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
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

/**
 * The database for logs and errors: a SQLite path as it is, anything written as a URL with every
 * password hidden.
 */
export function describeDatabase(database: string): string {
  const postgres = isPostgresUrl(database);
  const scheme = URL_SCHEME.exec(database)?.[1];
  if (!postgres && scheme === undefined) return database;
  const url = postgres ? parsePostgresUrl(database) : parseUrl(database);
  if (!url) return `${scheme ?? "postgres"}://(unparsable URL)`;
  if (url.password) url.password = "***";
  for (const name of new Set(url.searchParams.keys())) {
    if (isPasswordParameter(name)) url.searchParams.set(name, "***");
  }
  return url.toString();
}
