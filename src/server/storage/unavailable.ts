/**
 * Whether a storage call failed because the database cannot be reached now, rather than for the
 * request or a fault of this server: answered 503 with Retry-After (clients retry, a load balancer
 * sends them elsewhere) instead of 500. No dependencies: the codes are the driver's and the
 * system's strings.
 */

/** The PostgreSQL driver's own codes for a connection that failed, closed or timed out. */
const DRIVER_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** The system's, for a socket refused, reset, cut or gone unreachable (or a name not found). */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL's SQLSTATEs of a server going away or not there yet: class 08 (connection
 * exception), 57P01-57P03 (shut down by an administrator or a crash, not accepting connections
 * yet), 53300 (too many connections) and 25006 (a read-only standby, as after a failover).
 */
const SQLSTATES = /^(08...|57P0[123]|53300|25006)$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATES.test(code);
}
