/**
 * The hot path's cache: an organization's list of sets, serialized, reused while its list version
 * stands, so that a repeated GET /secrets reads one number from the database instead of every
 * set, and for LIST_FRESHNESS_MS after that check not even that. A write through this app drops
 * its organization's entry at once; one through another process shows within LIST_FRESHNESS_MS.
 */
import type { SecretSetSummary } from "../../secrets/schemas.ts";
import type { NowOrLater } from "../now_or_later.ts";
import type { Storage } from "../storage/types.ts";

/** Bounds the memory of cached lists: up to ~75 KB each for an organization with 1,000 sets. */
const LIST_CACHE_ORGANIZATIONS = 256;
/**
 * How long a cached list is served without asking the database whether it changed: the bound
 * on how late a write made through another server process (or the provisioner) shows in a list.
 */
export const LIST_FRESHNESS_MS = 250;

export interface CachedList {
  version: number;
  sets: SecretSetSummary[];
  /** `{ "sets": [...] }`, serialized when it was cached. */
  body: string;
  checkedAt: number;
}

export class ListCache {
  readonly #lists = new Map<string, CachedList>();
  /** The look at the database under way for an organization, which requests meanwhile share. */
  readonly #refreshing = new Map<string, Promise<CachedList>>();
  /** Counts this app's writes, so that a list read while one commits is not cached. */
  #writes = 0;

  constructor(private readonly storage: Storage) {}

  /**
   * The organization's list: at once when it is fresh, else after a look at the database, which
   * requests that find it stale together share.
   */
  read(orgId: string, now: number): NowOrLater<CachedList> {
    const cached = this.#lists.get(orgId);
    if (cached && now - cached.checkedAt < LIST_FRESHNESS_MS) return cached;
    let refreshing = this.#refreshing.get(orgId);
    if (!refreshing) {
      refreshing = this.#refresh(orgId, now, cached).finally(() => {
        if (this.#refreshing.get(orgId) === refreshing) this.#refreshing.delete(orgId);
      });
      this.#refreshing.set(orgId, refreshing);
    }
    return refreshing;
  }

  async #refresh(orgId: string, now: number, cached: CachedList | undefined): Promise<CachedList> {
    const writesBefore = this.#writes;
    // The version is read before the list, so a cached body is never older than its version.
    const version = await this.storage.setsVersion(orgId);
    let list: CachedList;
    if (cached?.version !== version) {
      const sets = await this.storage.listSets(orgId);
      list = { version, sets, body: JSON.stringify({ sets }), checkedAt: now };
    } else {
      list = { ...cached, checkedAt: now };
    }
    if (writesBefore === this.#writes) {
      if (this.#lists.size >= LIST_CACHE_ORGANIZATIONS) this.#lists.clear();
      this.#lists.set(orgId, list);
    }
    return list;
  }

  /**
   * A write through this app changed the organization's sets: a list read from now on is read
   * after it, never one already under way (its caller may have seen the write acknowledged).
   */
  drop(orgId: string): void {
    this.#writes++;
    this.#lists.delete(orgId);
    this.#refreshing.delete(orgId);
  }
}
