/**
 * Rotating the master key while servers run: every value and credential an older key of the
 * ring sealed is sealed again by the newest, in batches of bounded size, each its own
 * transaction. A value is replaced only if it did not change since its batch read it, so a write
 * made meanwhile is never undone. Whatever stops the pass (a signal, a crash, `kill -9`), every
 * value stays sealed by one key of the ring and opens; running it again finishes the job.
 *
 * The two sealed meta rows come last, the key check very last: while a legacy-format value is
 * left, the legacy key check is what tells which key sealed those (master_key.ts `unlock`).
 */
import {
  credentialsContext,
  FINGERPRINT_ROOT_CONTEXT,
  KEY_CHECK_CONTEXT,
  sameHash,
  sealedHead,
  valueContext,
  type Vault,
} from "./crypto.ts";
import { FINGERPRINT_ROOT, KEY_CHECK, type KeyCount, sealedByKey } from "./master_key.ts";
import { OPERATOR, type ResealCursor, type Storage } from "./storage/types.ts";

/** Items a batch re-seals at most: one short transaction each, whatever the database's size. */
export const ROTATION_BATCH = 500;

export interface RotationReport {
  /** The key everything is now sealed by (the ring's newest). */
  keyId: string;
  /** Items re-sealed by this run. */
  resealed: number;
  /** What still needs a key other than the newest, by key; empty when the rotation is done. */
  remaining: KeyCount[];
  /** True when a signal stopped the pass before its end. */
  interrupted: boolean;
}

export interface RotationOptions {
  batchSize?: number;
  /** Stops the pass after the batch in progress. */
  signal?: AbortSignal;
  /** After each batch: items re-sealed so far, and how many needed it when the pass began. */
  onProgress?: (resealed: number, total: number) => void;
}

export async function rotateMasterKey(
  storage: Storage,
  vault: Vault,
  options: RotationOptions = {},
): Promise<RotationReport> {
  const keyId = vault.keyIds[0];
  const batchSize = options.batchSize ?? ROTATION_BATCH;
  const total = (await sealedByKey(storage, vault))
    .filter((count) => count.keyId !== keyId).reduce((sum, { count }) => sum + count, 0);
  let resealed = 0;
  let cursor: ResealCursor | undefined;
  do {
    if (options.signal?.aborted) return await report(true);
    const batch = await storage.resealBatch(
      cursor,
      batchSize,
      vault.currentHead,
      (place, sealed) => {
        const context = place.key === undefined
          ? credentialsContext(place.orgId, place.setName)
          : valueContext(place.orgId, place.setName, place.key);
        try {
          return vault.reseal(sealed, context);
        } catch {
          return undefined; // its key is not in the ring: counted in the report
        }
      },
    );
    resealed += batch.resealed;
    cursor = batch.next;
    options.onProgress?.(resealed, total);
  } while (cursor);
  if ((await sealedByKey(storage, vault)).every((count) => count.keyId === keyId)) {
    // The key check last: while it is a legacy one, it tells which key sealed legacy values.
    resealed += await resealMeta(storage, vault, FINGERPRINT_ROOT, FINGERPRINT_ROOT_CONTEXT)
      ? 1
      : 0;
    resealed += await resealMeta(storage, vault, KEY_CHECK, KEY_CHECK_CONTEXT) ? 1 : 0;
  }
  return await report(false);

  /** What is left, recorded in the audit trail (of every organization: it is the server's). */
  async function report(interrupted: boolean): Promise<RotationReport> {
    const meta = await Promise.all(
      [FINGERPRINT_ROOT, KEY_CHECK].map((key) => storage.getMeta(key)),
    );
    const remaining =
      (await sealedByKey(storage, vault, meta.filter((value) => value !== undefined)))
        .filter((count) => count.keyId !== keyId);
    await storage.recordAudit({
      at: Date.now(),
      author: OPERATOR,
      action: "master-key.rotate",
      detail: { keyId, resealed, complete: remaining.length === 0 && !interrupted },
    });
    return { keyId, resealed, remaining, interrupted };
  }
}

/** Re-seals a meta row unless the newest key sealed it already; true when it did. */
async function resealMeta(
  storage: Storage,
  vault: Vault,
  key: string,
  context: string,
): Promise<boolean> {
  const stored = await storage.getMeta(key);
  if (!stored || sameHash(sealedHead(stored), vault.currentHead)) return false;
  return await storage.replaceMeta(key, stored, vault.reseal(stored, context));
}
