/**
 * The server's tunables and their defaults, documented in docs/API.md. The CLI's flags carry
 * their own defaults (the command file may not import the server); tests hold both to the docs.
 */

import { DOCUMENTED_LIMITS } from "../secrets/limits.ts";

export interface Limits {
  /** Request body, in bytes, checked before the body is read whole. */
  maxBodyBytes: number;
  /** One secret value or one registry credential, in UTF-8 bytes. */
  maxValueBytes: number;
  maxKeysPerSet: number;
  /** Secret sets and image pull secrets together. */
  maxSetsPerOrganization: number;
}

/** The documented limits, which the CLI checks before sending. */
export const DEFAULT_LIMITS: Limits = { ...DOCUMENTED_LIMITS };

/** Token bucket per API key: `perSecond` tokens refill, up to `burst`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export interface RegionInfo {
  code: string;
  /** The documented field. */
  display_name: string;
  /** The same, under voicebot's first name for it. */
  name: string;
}

const REGION_NAMES: Record<string, string> = {
  "us-west": "US West",
  "us-east": "US East",
  "eu-central": "EU Central",
};

export const DEFAULT_REGIONS = Object.keys(REGION_NAMES);
export const DEFAULT_REGION = "us-west";

/** A code we know gets its display name; any other is shown as itself. */
export function regionInfo(code: string): RegionInfo {
  const name = REGION_NAMES[code] ?? code;
  return { code, display_name: name, name };
}

/**
 * How often the provisioner looks for pending sets when no write through its own process has
 * woken it: the bound, after `--provision-delay`, on picking up a write made through another one.
 */
export const PROVISION_POLL_MS = 1_000;

/** How the provisioner paces itself. */
export interface ProvisionerOptions {
  /** A write stays pending at least this long (milliseconds); tests make it long or zero. */
  delayMs: number;
  /** How often it looks for pending sets when no write has woken it. */
  pollMs: number;
}
