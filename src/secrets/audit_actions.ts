/**
 * What the audit trail records (docs/API.md, "Audit trail"): one list for the server's storage,
 * its wire schema and the client's reading of it. No dependencies.
 *
 * @module
 */
export const AUDIT_ACTIONS = [
  "set.write",
  "set.rollback",
  "key.delete",
  "set.delete",
  "image-pull-secret.write",
  "versions.purge",
  "api-key.create",
  "api-key.revoke",
  "master-key.rotate",
  "runtime.read",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
