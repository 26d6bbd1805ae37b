import assert from "node:assert/strict";
import { AuthError, UsageError } from "../errors.ts";
import {
  configPath,
  DEFAULT_API_URL,
  type Env,
  keyFingerprint,
  readConfig,
  resolveApiUrl,
  resolveCredentials,
  writeConfig,
} from "./credentials.ts";

const envOf = (vars: Record<string, string>): Env => (name) => vars[name] || undefined;

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "voicebot-config-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the config file's place: VOICEBOT_CONFIG, then XDG_CONFIG_HOME, then HOME", () => {
  assert.equal(configPath(envOf({ VOICEBOT_CONFIG: "/a/c.json", HOME: "/h" })), "/a/c.json");
  assert.equal(configPath(envOf({ XDG_CONFIG_HOME: "/x", HOME: "/h" })), "/x/voicebot/config.json");
  assert.equal(configPath(envOf({ HOME: "/h" })), "/h/.config/voicebot/config.json");
  assert.throws(() => configPath(envOf({})), UsageError);
});

Deno.test("written atomically at 0600, no temporary file left; a wider mode is refused", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/deep/voicebot/config.json`;
    const config = {
      current: "acme",
      organizations: { acme: { apiUrl: "http://x/v1", apiKey: "k1" } },
    };
    await writeConfig(path, config);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.deepEqual([...Deno.readDirSync(`${dir}/deep/voicebot`)].map((e) => e.name), [
      "config.json",
    ]);
    assert.deepEqual(await readConfig(path), config);
    await Deno.chmod(path, 0o640);
    await assert.rejects(readConfig(path), AuthError);
    assert.deepEqual(await readConfig(`${dir}/missing.json`), { organizations: {} });
    await Deno.writeTextFile(`${dir}/bad.json`, "{", { mode: 0o600 });
    await assert.rejects(readConfig(`${dir}/bad.json`), UsageError);
  });
});

Deno.test("precedence: flags, then the environment, then the file; a missing key says how to log in", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/config.json`;
    await writeConfig(path, {
      current: "acme",
      organizations: {
        acme: { apiUrl: "http://acme/v1", apiKey: "acme-key" },
        beta: { apiUrl: "http://beta/v1", apiKey: "beta-key" },
      },
    });
    const base = { VOICEBOT_CONFIG: path };
    const file = await resolveCredentials({}, envOf(base));
    assert.deepEqual([file.organization, file.apiUrl, file.apiKey], [
      "acme",
      "http://acme/v1",
      "acme-key",
    ]);
    const env = await resolveCredentials({}, envOf({ ...base, VOICEBOT_ORG: "beta" }));
    assert.deepEqual([env.organization, env.apiKey], ["beta", "beta-key"]);
    const flag = await resolveCredentials(
      { organization: "acme", apiUrl: "http://flag/v1" },
      envOf({ ...base, VOICEBOT_ORG: "beta", VOICEBOT_API_URL: "http://env/v1" }),
    );
    assert.deepEqual([flag.organization, flag.apiUrl, flag.apiKey], [
      "acme",
      "http://flag/v1",
      "acme-key",
    ]);
    const envKey = await resolveCredentials({}, envOf({ ...base, VOICEBOT_API_KEY: "env-key" }));
    assert.equal(envKey.apiKey, "env-key");
    // The env key is not the current organization's: unnamed (the current one's URL still holds).
    assert.deepEqual([envKey.organization, envKey.sources, envKey.apiUrl], [
      undefined,
      { apiUrl: "config", apiKey: "env" },
      "http://acme/v1",
    ]);
    const envNamed = await resolveCredentials(
      {},
      envOf({ ...base, VOICEBOT_API_KEY: "env-key", VOICEBOT_ORG: "beta" }),
    );
    assert.deepEqual([envNamed.organization, envNamed.sources.organization], ["beta", "env"]);
    // -o naming another organization than VOICEBOT_ORG picks the stored key, not the env one.
    const picked = await resolveCredentials(
      { organization: "beta" },
      envOf({ ...base, VOICEBOT_API_KEY: "env-key" }),
    );
    assert.equal(picked.apiKey, "beta-key");
    const fresh = await resolveCredentials(
      {},
      envOf({ VOICEBOT_CONFIG: `${dir}/none.json`, VOICEBOT_API_KEY: "k" }),
    );
    assert.equal(fresh.apiUrl, DEFAULT_API_URL);
    const missing = await resolveCredentials({ organization: "gamma" }, envOf(base)).catch((e) =>
      e
    );
    assert.ok(missing instanceof AuthError);
    assert.match(String(missing.hint), /voicebot cloud auth login -o gamma/);
  });
});

Deno.test("no current organization: the stored ones are named, with how to pick one", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/config.json`;
    await writeConfig(path, {
      organizations: {
        beta: { apiUrl: "http://beta/v1", apiKey: "beta-key" },
        acme: { apiUrl: "http://acme/v1", apiKey: "acme-key" },
      },
    });
    const error = await resolveCredentials({}, envOf({ VOICEBOT_CONFIG: path })).catch((e) => e);
    assert.ok(error instanceof AuthError);
    assert.equal(error.message, 'no current organization; keys are stored for "acme", "beta".');
    assert.match(String(error.hint), /-o NAME \(e\.g\. -o acme\)/);
    assert.match(String(error.hint), /voicebot cloud auth switch NAME/);
    const none = await resolveCredentials({}, envOf({ VOICEBOT_CONFIG: `${dir}/none.json` }))
      .catch((e) => e);
    assert.match(none.message, /not logged in: no organization and no API key/);
  });
});

Deno.test("the key fingerprint is short, stable and not the key", async () => {
  const fingerprint = await keyFingerprint("vb_sk_abc");
  assert.match(fingerprint, /^sha256:[0-9a-f]{12}$/);
  assert.equal(fingerprint, await keyFingerprint("vb_sk_abc"));
  assert.notEqual(fingerprint, await keyFingerprint("vb_sk_abd"));
});

Deno.test("the URL alone (secrets run): flag, environment, the current organization's, default", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/config.json`;
    await writeConfig(path, {
      current: "acme",
      organizations: {
        acme: { apiUrl: "http://acme/v1", apiKey: "k1" },
        other: { apiUrl: "http://other/v1", apiKey: "k2" },
      },
    });
    const env = { VOICEBOT_CONFIG: path };
    assert.equal(await resolveApiUrl("http://flag/v1", envOf(env)), "http://flag/v1");
    const fromEnv = envOf({ ...env, VOICEBOT_API_URL: "http://env/v1" });
    assert.equal(await resolveApiUrl(undefined, fromEnv), "http://env/v1");
    assert.equal(await resolveApiUrl(undefined, envOf(env)), "http://acme/v1");
    const other = envOf({ ...env, VOICEBOT_ORG: "other" });
    assert.equal(await resolveApiUrl(undefined, other), "http://other/v1");
    assert.equal(
      await resolveApiUrl(undefined, envOf({ VOICEBOT_CONFIG: `${dir}/none.json` })),
      DEFAULT_API_URL,
    );
    assert.equal(await resolveApiUrl(undefined, envOf({})), DEFAULT_API_URL, "no HOME");
    // A URL given is taken without reading the config, even one others can read.
    await Deno.chmod(path, 0o644);
    assert.equal(await resolveApiUrl(undefined, fromEnv), "http://env/v1");
    await assert.rejects(resolveApiUrl(undefined, envOf(env)), AuthError);
  });
});
