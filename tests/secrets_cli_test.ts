/**
 * `voicebot cloud auth` and `voicebot cloud secrets list|unset|delete`, end to end: the CLI spawned
 * against the real server on 127.0.0.1 port 0 with a temporary database and HOME. Stdout, stderr
 * and the exit code are checked apart. The last test reads every byte the CLI printed in this file
 * and finds none of the API keys or values used.
 */
import assert from "node:assert/strict";
import { ExitCode } from "../src/errors.ts";
import { keyFingerprint } from "../src/config/credentials.ts";
import { type Session, startSession, terminal, transcript, waitFor } from "./helpers_secrets.ts";
import { lossyProxy } from "./helpers_proxy.ts";

/** Every value and key this file sends: none may ever be printed. */
const SECRETS = new Set<string>();
const VALUES = {
  OPENAI_API_KEY: "sk-openai-value-4f1c9e",
  DEEPGRAM_API_KEY: "dg-value-77aa01",
  CARTESIA_API_KEY: "cartesia-value-5b3d",
};
for (const value of Object.values(VALUES)) SECRETS.add(value);

async function session(): Promise<Session> {
  const s = await startSession();
  SECRETS.add(s.key);
  return s;
}

async function loggedIn(): Promise<Session> {
  const s = await session();
  const login = await s.run(["cloud", "auth", "login", "--api-url", s.baseUrl], { stdin: s.key });
  assert.equal(login.code, 0, login.stderr);
  return s;
}

/** The rows under "Stored organizations (* current):" in `auth status`'s output. */
function storedRows(stdout: string): string[] {
  const heading = "Stored organizations (* current):\n";
  assert.ok(stdout.includes(heading), stdout);
  return stdout.slice(stdout.indexOf(heading) + heading.length).split("\n").filter(Boolean);
}

function secretsBody(secrets: Record<string, string> = VALUES) {
  return { type: "secret", secrets };
}

Deno.test("auth login reads the key from stdin, checks it, stores it at 0600 and makes ORG current", async () => {
  await using s = await session();
  const login = await s.run(["cloud", "auth", "login", "-o", "default", "--api-url", s.baseUrl], {
    stdin: `${s.key}\n`,
  });
  assert.equal(login.code, 0, login.stderr);
  assert.equal(login.stdout, "");
  assert.match(
    login.stderr,
    /Logged in to organization "default" \(whose key it is, by the API\) at http:\/\/127\.0\.0\.1:\d+\/v1/,
  );

  const info = await Deno.stat(s.configPath);
  assert.equal(info.mode! & 0o777, 0o600);
  const file = JSON.parse(await Deno.readTextFile(s.configPath));
  assert.equal(file.current, "default");
  assert.deepEqual(file.organizations.default, { apiUrl: s.baseUrl, apiKey: s.key });

  const status = await s.run(["cloud", "auth", "status"]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /Organization: +default/);
  assert.match(status.stdout, new RegExp(`API URL: +${s.baseUrl.replaceAll(".", "\\.")}`));
  assert.match(status.stdout, /API key: +sha256:[0-9a-f]{12}/);
  assert.match(status.stdout, /The API says: +organization "default", key [0-9a-f]{16}/);

  const json = await s.run(["cloud", "auth", "status", "--json"]);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.organization, "default");
  assert.equal(parsed.apiUrl, s.baseUrl);
  assert.match(parsed.keyFingerprint, /^sha256:[0-9a-f]{12}$/);
  assert.equal(parsed.api.organization, "default");
  assert.equal(json.stderr, "");

  const logout = await s.run(["cloud", "auth", "logout", "--json"]);
  assert.equal(logout.code, 0, logout.stderr);
  assert.deepEqual(JSON.parse(logout.stdout).removed, true);
  assert.equal(JSON.parse(await Deno.readTextFile(s.configPath)).current, undefined);

  const after = await s.run(["cloud", "auth", "status"]);
  assert.equal(after.code, ExitCode.Auth);
  assert.equal(after.stdout, "");
  assert.match(after.stderr, /not logged in/);
  assert.match(after.stderr, /voicebot cloud auth login/);

  // Logging out twice is not an error.
  const again = await s.run(["cloud", "auth", "logout"]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /Not logged in to any organization: nothing to forget/);
  const againJson = await s.run(["cloud", "auth", "logout", "--json"]);
  assert.equal(againJson.code, 0, againJson.stderr);
  assert.deepEqual(JSON.parse(againJson.stdout), {
    removed: false,
    stored: [],
    configPath: s.configPath,
  });
});

Deno.test("auth logout -o ORG keeps the current one; after logging out of the current one, the stored ones are named", async () => {
  await using s = await loggedIn();
  const acmeKey = await s.createKey("acme");
  const betaKey = await s.createKey("beta");
  SECRETS.add(acmeKey);
  SECRETS.add(betaKey);
  for (const [org, key] of [["beta", betaKey], ["acme", acmeKey]]) {
    const login = await s.run(["cloud", "auth", "login", "-o", org, "--api-url", s.baseUrl], {
      stdin: key,
    });
    assert.equal(login.code, 0, login.stderr);
  }
  const [fpDefault, fpAcme, fpBeta] = await Promise.all(
    [s.key, acmeKey, betaKey].map(keyFingerprint),
  );
  const row = (current: boolean, org: string, fp: string) =>
    `  ${current ? "*" : " "} ${org}  ${s.baseUrl}  ${fp}`;
  // auth status lists every stored organization, the current one (the last login) marked.
  const all = await s.run(["cloud", "auth", "status"]);
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(storedRows(all.stdout), [
    row(true, "acme", fpAcme),
    row(false, "beta", fpBeta),
    row(false, "default", fpDefault),
  ]);
  const allJson = await s.run(["cloud", "auth", "status", "--json"]);
  assert.deepEqual(JSON.parse(allJson.stdout).stored, [
    { organization: "acme", apiUrl: s.baseUrl, keyFingerprint: fpAcme, current: true },
    { organization: "beta", apiUrl: s.baseUrl, keyFingerprint: fpBeta, current: false },
    { organization: "default", apiUrl: s.baseUrl, keyFingerprint: fpDefault, current: false },
  ]);
  // -o: that organization only; acme stays current.
  const beta = await s.run(["cloud", "auth", "logout", "-o", "beta", "--json"]);
  assert.equal(beta.code, 0, beta.stderr);
  assert.deepEqual(JSON.parse(beta.stdout), {
    organization: "beta",
    removed: true,
    current: "acme",
    stored: ["acme", "default"],
    configPath: s.configPath,
  });
  const file = JSON.parse(await Deno.readTextFile(s.configPath));
  assert.equal(file.current, "acme");
  assert.deepEqual(Object.keys(file.organizations).sort(), ["acme", "default"]);
  const afterBeta = await s.run(["cloud", "auth", "status"]);
  assert.deepEqual(storedRows(afterBeta.stdout), [
    row(true, "acme", fpAcme),
    row(false, "default", fpDefault),
  ]);

  // The current one: default is still stored, and the output says how to use it.
  const acme = await s.run(["cloud", "auth", "logout"]);
  assert.equal(acme.code, 0, acme.stderr);
  assert.match(acme.stderr, /Logged out of organization "acme"/);
  assert.match(acme.stderr, /No organization is current now; keys are still stored for "default"/);
  assert.match(acme.stderr, /-o default/);
  const list = await s.run(["cloud", "secrets", "list"]);
  assert.equal(list.code, ExitCode.Auth, list.stderr);
  assert.match(list.stderr, /no current organization; keys are stored for "default"/);
  assert.match(list.stderr, /with -o NAME \(e\.g\. -o default\)/);
  assert.match(list.stderr, /voicebot cloud auth switch default/);
  // auth status still shows what is stored, and how to pick one.
  const status = await s.run(["cloud", "auth", "status"]);
  assert.equal(status.code, 0, status.stderr);
  assert.deepEqual(storedRows(status.stdout), [row(false, "default", fpDefault)]);
  const statusJson = await s.run(["cloud", "auth", "status", "--json"]);
  assert.equal(statusJson.code, 0, statusJson.stderr);
  assert.deepEqual(JSON.parse(statusJson.stdout).stored, [
    { organization: "default", apiUrl: s.baseUrl, keyFingerprint: fpDefault, current: false },
  ]);
  assert.match(status.stderr, /no current organization; .*voicebot cloud auth switch default/);
  const picked = await s.run(["cloud", "secrets", "list", "-o", "default", "--json"]);
  assert.equal(picked.code, 0, picked.stderr);

  // auth switch: current again, without the key typed again; an unknown one is named.
  const switched = await s.run(["cloud", "auth", "switch", "default"]);
  assert.equal(switched.code, 0, switched.stderr);
  assert.match(switched.stderr, /Organization "default" is current/);
  assert.equal((await s.run(["cloud", "secrets", "list", "--json"])).code, 0);
  const switchedStatus = await s.run(["cloud", "auth", "status"]);
  assert.deepEqual(storedRows(switchedStatus.stdout), [row(true, "default", fpDefault)]);
  const unknown = await s.run(["cloud", "auth", "switch", "beta"]);
  assert.equal(unknown.code, ExitCode.NotFound, unknown.stderr);
  assert.match(unknown.stderr, /no key is stored for organization "beta"/);
  assert.match(
    unknown.stderr,
    /stored: default\. To add "beta": log in with `voicebot cloud auth login -o beta`/,
  );
});

Deno.test("auth login stores a key under the organization the API says it belongs to", async () => {
  await using s = await loggedIn();
  const otherKey = await s.createKey("other");
  SECRETS.add(otherKey);
  const config = async () => JSON.parse(await Deno.readTextFile(s.configPath));

  // -o that disagrees with the API: refused, nothing stored.
  const before = await config();
  const wrong = await s.run(["cloud", "auth", "login", "-o", "default"], { stdin: otherKey });
  assert.equal(wrong.code, ExitCode.Usage, wrong.stderr);
  assert.match(
    wrong.stderr,
    /this key belongs to organization "other", not "default"; nothing was stored/,
  );
  assert.deepEqual(await config(), before);

  // Without -o (default is current): stored under "other", which becomes current; default's key
  // is untouched.
  const login = await s.run(["cloud", "auth", "login", "--json"], { stdin: otherKey });
  assert.equal(login.code, 0, login.stderr);
  const outcome = JSON.parse(login.stdout);
  assert.deepEqual([outcome.organization, outcome.organizationFrom], ["other", "api"]);
  const after = await config();
  assert.equal(after.current, "other");
  assert.equal(after.organizations.default.apiKey, s.key);
  assert.equal(after.organizations.other.apiKey, otherKey);
  const status = JSON.parse((await s.run(["cloud", "auth", "status", "--json"])).stdout);
  assert.deepEqual([status.organization, status.api.organization], ["other", "other"]);
});

Deno.test("auth login without -o, against an API that cannot say whose key it is, never silently replaces a stored key", async () => {
  await using s = await loggedIn();
  // The platform's documented API has no GET /me: a proxy answers it as such a server would.
  await using proxy = lossyProxy(s.baseUrl, {
    methods: ["GET"],
    path: "/v1/me",
    count: Infinity,
    mode: "noRoute",
  });
  const login = (args: string[], key: string) =>
    s.run(["cloud", "auth", "login", "--api-url", proxy.baseUrl, ...args], { stdin: key });
  const otherKey = await s.createKey("other");
  SECRETS.add(otherKey);
  const [stored, other] = [await keyFingerprint(s.key), await keyFingerprint(otherKey)];
  const config = async () => JSON.parse(await Deno.readTextFile(s.configPath));
  assert.equal((await login(["-o", "default"], s.key)).code, 0);
  const before = await config();

  // Without a terminal: refused, both fingerprints shown, both ways on named; nothing stored.
  const refused = await login([], otherKey);
  assert.equal(refused.code, ExitCode.Usage, refused.stderr);
  assert.match(refused.stderr, /organization "default" has another key stored/);
  assert.ok(refused.stderr.includes(stored) && refused.stderr.includes(other), refused.stderr);
  assert.match(refused.stderr, /auth login -o NAME/);
  assert.match(refused.stderr, /add --yes/);
  assert.deepEqual(await config(), before);
  // The key already stored: nothing to confirm.
  assert.equal((await login([], s.key)).code, 0);

  // On a terminal: asked, and the default answer (no) keeps the stored key.
  {
    await using tty = await terminal(
      ["cloud", "auth", "login", "--api-url", proxy.baseUrl],
      s.env,
    );
    await tty.waitFor(/API key/);
    await tty.type(otherKey);
    await tty.keys("Enter");
    await tty.waitFor(/Replace the key stored for organization "default"/);
    assert.ok((await tty.screen()).includes(`(${stored}) with this one (${other})`));
    await tty.keys("Enter");
    assert.equal(await tty.exitCode(), ExitCode.Cancelled, await tty.screen());
    assert.match(await tty.screen(), /the key stored for "default" was kept/);
  }
  assert.deepEqual(await config(), before);

  // --yes replaces it and says which key it replaced; the name is the one given, not the API's.
  const replaced = await login(["--yes", "--json"], otherKey);
  assert.equal(replaced.code, 0, replaced.stderr);
  const outcome = JSON.parse(replaced.stdout);
  assert.deepEqual(
    [outcome.keyFingerprint, outcome.replacedKeyFingerprint, outcome.organizationFrom],
    [other, stored, "name"],
  );
  // -o naming the organization is a deliberate rotation: no question.
  const rotated = await login(["-o", "default"], s.key);
  assert.equal(rotated.code, 0, rotated.stderr);
  assert.match(rotated.stderr, new RegExp(`replacing ${other}`));
  assert.equal((await config()).organizations.default.apiKey, s.key);
  // auth status says the API cannot tell whose key it is.
  const status = await s.run(["cloud", "auth", "status", "--api-url", proxy.baseUrl]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /The API says: +\(this API cannot say whose key it is\)/);
});

Deno.test("auth login with a key the API rejects exits 3 and stores nothing", async () => {
  await using s = await session();
  const wrongKey = "vb_sk_0000000000000000_wrongwrongwrongwrongwrongwrongwrongwrong";
  SECRETS.add(wrongKey);
  const login = await s.run(["--verbose", "cloud", "auth", "login", "--api-url", s.baseUrl], {
    stdin: wrongKey,
  });
  assert.equal(login.code, ExitCode.Auth, login.stderr);
  assert.match(login.stderr, /rejected this key; nothing was stored/);
  assert.match(login.stderr, /HTTP 401 UNAUTHORIZED, request id \S+/);
  await assert.rejects(Deno.stat(s.configPath), Deno.errors.NotFound);

  const empty = await s.run(["cloud", "auth", "login", "--api-url", s.baseUrl], { stdin: "" });
  assert.equal(empty.code, ExitCode.Usage);
  assert.match(empty.stderr, /no API key on stdin/);
});

Deno.test("a config file others can read is refused with the chmod to run", async () => {
  await using s = await loggedIn();
  await Deno.chmod(s.configPath, 0o644);
  const list = await s.run(["cloud", "secrets", "list"]);
  assert.equal(list.code, ExitCode.Auth);
  assert.match(list.stderr, /mode 0644/);
  assert.match(list.stderr, /chmod 600/);
});

Deno.test("credentials: flags win over the environment, which wins over the config file", async () => {
  await using s = await loggedIn();
  const otherKey = await s.createKey("other");
  SECRETS.add(otherKey);
  const login = await s.run(["cloud", "auth", "login", "-o", "other", "--api-url", s.baseUrl], {
    stdin: otherKey,
  });
  assert.equal(login.code, 0, login.stderr);
  const status = async (args: string[], env: Record<string, string> = {}) => {
    const result = await s.run(["cloud", "auth", "status", "--json", ...args], { env });
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };
  // The file: the last login made `other` current.
  assert.equal((await status([])).organization, "other");
  assert.deepEqual((await status([])).sources, {
    organization: "config",
    apiUrl: "config",
    apiKey: "config",
  });
  // The environment over the file.
  const env = await status([], {
    VOICEBOT_ORG: "default",
    VOICEBOT_API_URL: "http://env.invalid/v1",
  });
  assert.equal(env.organization, "default");
  assert.equal(env.apiUrl, "http://env.invalid/v1");
  assert.deepEqual(env.sources, { organization: "env", apiUrl: "env", apiKey: "config" });
  // Flags over the environment.
  const flags = await status(["-o", "other", "--api-url", "http://flag.invalid/v1"], {
    VOICEBOT_ORG: "default",
    VOICEBOT_API_URL: "http://env.invalid/v1",
  });
  assert.equal(flags.organization, "other");
  assert.equal(flags.apiUrl, "http://flag.invalid/v1");
  // VOICEBOT_API_KEY over the stored key, but not for an organization -o names apart. (A server
  // that is not there: status would otherwise report that the API rejects this key.)
  const nowhere = ["--api-url", "http://127.0.0.1:1/v1"];
  const envKey = await status(nowhere, { VOICEBOT_API_KEY: "vb_sk_env_key_for_test" });
  SECRETS.add("vb_sk_env_key_for_test");
  assert.equal(envKey.sources.apiKey, "env");
  const picked = await status(["-o", "default", ...nowhere], {
    VOICEBOT_API_KEY: "vb_sk_env_key_for_test",
  });
  assert.equal(picked.sources.apiKey, "config");

  // An organization with no stored key says how to log in to it.
  const missing = await s.run(["cloud", "secrets", "list", "-o", "nobody"]);
  assert.equal(missing.code, ExitCode.Auth);
  assert.match(missing.stderr, /no API key stored for organization "nobody"/);
  assert.match(missing.stderr, /voicebot cloud auth login -o nobody/);
});

Deno.test("a key from VOICEBOT_API_KEY is not named after the config's current organization; status warns when the API names another", async () => {
  await using s = await loggedIn(); // "default" is current in the config file
  const otherKey = await s.createKey("other");
  SECRETS.add(otherKey);
  const envKey = { VOICEBOT_API_KEY: otherKey };
  const inEnvKeyOrg = "the organization of the key in VOICEBOT_API_KEY";

  // Neither -o nor VOICEBOT_ORG: the organization is the key's, which only the API names.
  const status = await s.run(["cloud", "auth", "status"], { env: envKey });
  assert.equal(status.code, 0, status.stderr);
  assert.match(
    status.stdout,
    /Organization: +\(not named: that of the key in VOICEBOT_API_KEY\)\n/,
  );
  assert.match(status.stdout, /The API says: +organization "other"/);
  assert.equal(status.stderr, "", "nothing named disagrees with the API");
  const json = JSON.parse(
    (await s.run(["cloud", "auth", "status", "--json"], { env: envKey })).stdout,
  );
  assert.deepEqual(
    [json.organization, json.sources.organization, json.api.organization, json.warning],
    [undefined, undefined, "other", undefined],
  );
  const empty = await s.run(["cloud", "secrets", "list"], { env: envKey });
  assert.equal(empty.code, 0, empty.stderr);
  assert.ok(empty.stderr.includes(`No secret sets in ${inEnvKeyOrg}.`), empty.stderr);
  const missing = await s.run(["cloud", "secrets", "list", "nope"], { env: envKey });
  assert.equal(missing.code, ExitCode.NotFound, missing.stderr);
  assert.ok(missing.stderr.includes(`no set named "nope" in ${inEnvKeyOrg}.`), missing.stderr);
  for (const result of [status, empty, missing]) {
    assert.doesNotMatch(result.stdout + result.stderr, /"default"|\(from VOICEBOT_API_KEY\)/);
  }

  // VOICEBOT_ORG names an organization the key is not of: shown as named, and warned about.
  const named = await s.run(["cloud", "auth", "status"], {
    env: { ...envKey, VOICEBOT_ORG: "default" },
  });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, /Organization: +default {2}\(from env\)/);
  assert.match(named.stdout, /The API says: +organization "other"/);
  assert.match(
    named.stderr,
    /warning: the API says the key in use belongs to organization "other", not "default": commands act in "other"\. VOICEBOT_API_KEY holds a key of "other"/,
  );
  const namedJson = await s.run(["cloud", "auth", "status", "--json"], {
    env: { ...envKey, VOICEBOT_ORG: "default" },
  });
  assert.match(JSON.parse(namedJson.stdout).warning.message, /belongs to organization "other"/);

  // A stored key of another organization (stored where the API could not say): warned about too.
  const config = JSON.parse(await Deno.readTextFile(s.configPath));
  config.organizations.default.apiKey = otherKey;
  await Deno.writeTextFile(s.configPath, JSON.stringify(config));
  const stored = await s.run(["cloud", "auth", "status"]);
  assert.equal(stored.code, 0, stored.stderr);
  assert.match(stored.stdout, /Organization: +default {2}\(from config\)/);
  assert.match(
    stored.stderr,
    /warning: the API says the key in use belongs to organization "other"/,
  );
  assert.match(stored.stderr, /voicebot cloud auth login -o default/);

  // No config file at all: the same words, never a made-up name.
  await Deno.remove(s.configPath);
  const bare = await s.run(["cloud", "secrets", "list", "nope", "--api-url", s.baseUrl], {
    env: envKey,
  });
  assert.equal(bare.code, ExitCode.NotFound, bare.stderr);
  assert.ok(bare.stderr.includes(`no set named "nope" in ${inEnvKeyOrg}.`), bare.stderr);
});

Deno.test("two organizations, each picked with -o, see only their own sets", async () => {
  await using s = await loggedIn();
  const otherKey = await s.createKey("other");
  SECRETS.add(otherKey);
  await s.put("default-set", secretsBody());
  await s.put("other-set", secretsBody({ CARTESIA_API_KEY: VALUES.CARTESIA_API_KEY }), otherKey);
  const login = await s.run(["cloud", "auth", "login", "-o", "other", "--api-url", s.baseUrl], {
    stdin: otherKey,
  });
  assert.equal(login.code, 0, login.stderr);

  const names = async (args: string[]) => {
    const result = await s.run(["cloud", "secrets", "list", "--json", ...args]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout).sets.map((set: { name: string }) => set.name);
  };
  assert.deepEqual(await names([]), ["other-set"]);
  assert.deepEqual(await names(["-o", "default"]), ["default-set"]);
  assert.deepEqual(await names(["--organization", "other"]), ["other-set"]);
});

Deno.test("list: a table for people, JSON for scripts, filtered by type and region", async () => {
  await using s = await loggedIn();
  await s.put("bot-secrets", secretsBody());
  await s.put("eu-secrets", { ...secretsBody(), region: "eu-central" });
  // Credentials that are not user:password once decoded: the provisioner fails the set.
  await s.put("registry", {
    type: "imagePullSecret",
    host: "registry.example.com",
    credentials: btoa("no-colon-here"),
  });
  await waitFor("the image pull secret to fail", async () => {
    const { body } = await s.get("registry");
    return body.status === "failed" ? true : undefined;
  });

  const table = await s.run(["cloud", "secrets", "list"]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /│ Name +│ Type +│ Region +│ Status +│/);
  assert.match(table.stdout, /│ bot-secrets +│ secret +│ us-west +│ (pending|ready) +│/);
  assert.match(table.stdout, /│ eu-secrets +│ secret +│ eu-central +│/);
  assert.doesNotMatch(table.stdout, /registry/, "--sets is on by default");
  assert.ok(!table.stdout.includes("\x1b["), "no colour with NO_COLOR and a pipe");

  const all = await s.run(["cloud", "secrets", "list", "--no-sets"]);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /│ registry +│ imagePullSecret +│ us-west +│ failed +│ .+│/);
  assert.match(all.stdout, /│ Message +│/);

  const json = await s.run(["cloud", "secrets", "list", "--no-sets", "--json"]);
  assert.equal(json.code, 0, json.stderr);
  const sets = JSON.parse(json.stdout).sets;
  assert.deepEqual(sets.map((set: { name: string }) => set.name).sort(), [
    "bot-secrets",
    "eu-secrets",
    "registry",
  ]);
  const failed = sets.find((set: { name: string }) => set.name === "registry");
  assert.equal(failed.status, "failed");
  assert.equal(typeof failed.errorMessage, "string");

  const eu = await s.run(["cloud", "secrets", "list", "-r", "eu-central", "--json"]);
  assert.deepEqual(JSON.parse(eu.stdout).sets.map((set: { name: string }) => set.name), [
    "eu-secrets",
  ]);

  const one = await s.run(["cloud", "secrets", "list", "bot-secrets"]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /Name: +bot-secrets/);
  assert.match(one.stdout, /Region: +us-west/);
  assert.match(one.stdout, /Status: +(pending|ready)/);
  for (const key of Object.keys(VALUES)) assert.match(one.stdout, new RegExp(`│ ${key} +│`));

  const oneJson = await s.run(["cloud", "secrets", "list", "bot-secrets", "--json"]);
  const detail = JSON.parse(oneJson.stdout);
  assert.deepEqual(detail.keys, Object.keys(VALUES).sort());
  assert.equal(detail.type, "secret");
});

Deno.test("list: an empty organization says so and how to create a set; --json is an empty list", async () => {
  await using s = await loggedIn();
  const empty = await s.run(["cloud", "secrets", "list"]);
  assert.equal(empty.code, 0, empty.stderr);
  assert.equal(empty.stdout, "");
  assert.match(empty.stderr, /No secret sets in organization "default"/);
  assert.match(empty.stderr, /`voicebot cloud secrets set NAME --file \.env`/);
  assert.doesNotMatch(empty.stderr, /=/, "no KEY=value to type");
  const json = await s.run(["cloud", "secrets", "list", "--json"]);
  assert.deepEqual(JSON.parse(json.stdout), { sets: [] });
});

Deno.test("unset and delete with --skip change the server; a missing set or key exits 4", async () => {
  await using s = await loggedIn();
  await s.put("bot-secrets", secretsBody());

  const unset = await s.run([
    "cloud",
    "secrets",
    "unset",
    "bot-secrets",
    "DEEPGRAM_API_KEY",
    "--skip",
  ]);
  assert.equal(unset.code, 0, unset.stderr);
  assert.match(unset.stderr, /Removed DEEPGRAM_API_KEY from set "bot-secrets"/);
  assert.deepEqual((await s.get("bot-secrets")).body.keys, ["CARTESIA_API_KEY", "OPENAI_API_KEY"]);

  const again = await s.run(["cloud", "secrets", "unset", "bot-secrets", "DEEPGRAM_API_KEY", "-s"]);
  assert.equal(again.code, ExitCode.NotFound);
  assert.match(again.stderr, /has no key DEEPGRAM_API_KEY/);
  assert.match(again.stderr, /request id/);

  const json = await s.run([
    "cloud",
    "secrets",
    "unset",
    "bot-secrets",
    "OPENAI_API_KEY",
    "-y",
    "--json",
  ]);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).removed, "OPENAI_API_KEY");

  const remove = await s.run(["cloud", "secrets", "delete", "bot-secrets", "--yes", "--json"]);
  assert.equal(remove.code, 0, remove.stderr);
  assert.deepEqual(JSON.parse(remove.stdout), {
    deleted: "bot-secrets",
    organization: "default",
    alreadyGone: false,
  });
  assert.equal((await s.get("bot-secrets")).status, 404);

  const gone = await s.run(["cloud", "secrets", "delete", "bot-secrets", "-s"]);
  assert.equal(gone.code, ExitCode.NotFound);
  assert.match(gone.stderr, /no set named "bot-secrets" in organization "default"/);
  const list = await s.run(["cloud", "secrets", "list", "bot-secrets"]);
  assert.equal(list.code, ExitCode.NotFound);
  const badName = await s.run(["cloud", "secrets", "delete", "bad_name!", "-s"]);
  assert.equal(badName.code, ExitCode.Usage);
});

Deno.test("unset tells a missing set from a missing key by the API's routes, whatever the names", async () => {
  await using s = await loggedIn();
  await s.put("bot-keys", secretsBody());
  // The server's message for a missing set, `No set named "monkey-set".`, holds "key".
  const noSet = await s.run(["cloud", "secrets", "unset", "monkey-set", "OPENAI_API_KEY", "--yes"]);
  assert.equal(noSet.code, ExitCode.NotFound);
  assert.match(noSet.stderr, /no set named "monkey-set" in organization "default"/);
  assert.doesNotMatch(noSet.stderr, /has no key/);
  const noKey = await s.run(["cloud", "secrets", "unset", "bot-keys", "NO_SUCH_KEY", "--yes"]);
  assert.equal(noKey.code, ExitCode.NotFound);
  assert.match(noKey.stderr, /set "bot-keys" in organization "default" has no key NO_SUCH_KEY/);
  assert.match(noKey.stderr, /HTTP 404 NOT_FOUND, request id/);
});

Deno.test("unset never shows a key that may be a value typed in its place", async () => {
  await using s = await loggedIn();
  await s.put("bot-secrets", secretsBody());
  const invalid = "sk-live-4f9c2a0b";
  const token = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
  SECRETS.add(invalid);
  SECRETS.add(token);
  const bad = await s.run(["cloud", "secrets", "unset", "bot-secrets", invalid, "-s"]);
  assert.equal(bad.code, ExitCode.Usage);
  assert.match(bad.stderr, /argument 2 is not a key name/);
  // A valid name that reads like a token: not shown, neither in the refusal without a terminal
  // nor when the set has no such key.
  const refused = await s.run(["cloud", "secrets", "unset", "bot-secrets", token]);
  assert.equal(refused.code, ExitCode.Usage);
  assert.match(refused.stderr, /removing a key \(not shown: it reads like a value\)/);
  const missing = await s.run(["cloud", "secrets", "unset", "bot-secrets", token, "-s"]);
  assert.equal(missing.code, ExitCode.NotFound);
  assert.match(missing.stderr, /has no such key \(the one given is not shown/);
  for (const result of [bad, refused, missing]) assert.ok(!result.stderr.includes("4eC39"));
});

Deno.test("without a terminal and without --skip, unset and delete refuse (exit 2) and change nothing", async () => {
  await using s = await loggedIn();
  await s.put("bot-secrets", secretsBody());
  const before = await waitFor("the set to be ready", async () => {
    const set = await s.get("bot-secrets");
    return set.body.status === "ready" ? set : undefined;
  });
  for (
    const args of [
      ["cloud", "secrets", "unset", "bot-secrets", "OPENAI_API_KEY"],
      ["cloud", "secrets", "delete", "bot-secrets"],
      ["cloud", "secrets", "delete", "bot-secrets", "--json"],
    ]
  ) {
    const result = await s.run(args);
    assert.equal(result.code, ExitCode.Usage, args.join(" "));
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /needs a confirmation/);
    assert.match(result.stderr, /add --skip \(or --yes\)/);
  }
  assert.deepEqual(await s.get("bot-secrets"), before);
});

Deno.test("the key never goes over http:// to another host, unless --insecure says so", async () => {
  await using s = await loggedIn();
  const port = new URL(s.baseUrl).port;
  for (const url of ["http://10.255.255.1:8787/v1", "http://api.example.com/v1"]) {
    for (
      const args of [["cloud", "secrets", "list"], ["cloud", "secrets", "delete", "x", "--yes"]]
    ) {
      const refused = await s.run([...args, "--api-url", url]);
      assert.equal(refused.code, ExitCode.Usage, refused.stderr);
      assert.match(
        refused.stderr,
        /is http:\/\/ to another host: the API key, and every value sent, would cross the network unencrypted; nothing was sent\./,
      );
      assert.match(refused.stderr, /hint: use https:\/\/, or add --insecure/);
    }
  }
  const login = await s.run([
    "cloud",
    "auth",
    "login",
    "-o",
    "far",
    "--api-url",
    "http://10.255.255.1/v1",
  ], {
    stdin: s.key,
  });
  assert.equal(login.code, ExitCode.Usage, login.stderr);
  // Loopback by any of its names is fine; --insecure lets another host through, and says so.
  for (const host of ["127.0.0.1", "localhost"]) {
    const local = await s.run([
      "cloud",
      "secrets",
      "list",
      "--api-url",
      `http://${host}:${port}/v1`,
    ]);
    assert.equal(local.code, 0, local.stderr);
    assert.doesNotMatch(local.stderr, /insecure/);
  }
  // 0.0.0.0 is not loopback by name; on a port nothing listens on, the request is refused.
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const url = `http://0.0.0.0:${closedPort}/v1`;
  const insecure = await s.run(["cloud", "secrets", "list", "--insecure", "--api-url", url]);
  assert.equal(insecure.code, ExitCode.Failure, insecure.stderr);
  assert.ok(
    insecure.stderr.includes(
      `warning: --insecure: the API key and values go to 0.0.0.0:${closedPort} unencrypted.`,
    ),
    insecure.stderr,
  );
  assert.ok(insecure.stderr.includes(`cannot reach the voicebot API at ${url}`), insecure.stderr);
});

Deno.test("a 401, a 404 and a stopped server each give their own exit code and message", async () => {
  await using s = await loggedIn();
  // 401: a stored key the server does not know.
  const wrong = await s.run(["cloud", "secrets", "list"], {
    env: { VOICEBOT_API_KEY: "vb_sk_1111111111111111_notavalidkeynotavalidkeynotavalidkey" },
  });
  SECRETS.add("vb_sk_1111111111111111_notavalidkeynotavalidkeynotavalidkey");
  assert.equal(wrong.code, ExitCode.Auth);
  assert.match(wrong.stderr, /HTTP 401 UNAUTHORIZED, request id/);
  assert.match(wrong.stderr, /VOICEBOT_API_KEY/);

  // 404, with --verbose too (the transcript keeps it for the leak check).
  const missing = await s.run(["--verbose", "cloud", "secrets", "list", "nope"]);
  assert.equal(missing.code, ExitCode.NotFound);
  assert.match(missing.stderr, /no set named "nope"/);
  assert.match(missing.stderr, /HTTP 404 NOT_FOUND, request id \S+/);

  // A URL without /v1 (here /api): the route is unknown, which is not "no such set" (exit 4).
  const origin = new URL(s.baseUrl).origin;
  const wrongPath = await s.run(["cloud", "secrets", "list", "--api-url", `${origin}/api`]);
  assert.equal(wrongPath.code, ExitCode.Failure, wrongPath.stderr);
  assert.match(wrongPath.stderr, /No route GET \/api\/secrets\./);
  assert.match(wrongPath.stderr, /HTTP 404 ROUTE_NOT_FOUND/);
  assert.match(
    wrongPath.stderr,
    /hint: is http:\/\/127\.0\.0\.1:\d+\/api the API's base URL\? It ends in \/v1/,
  );

  // A stopped server: the message names the URL tried.
  await s.server.stop();
  const down = await s.run(["--verbose", "cloud", "secrets", "list"]);
  assert.equal(down.code, ExitCode.Failure);
  assert.match(
    down.stderr,
    new RegExp(`cannot reach the voicebot API at ${s.baseUrl.replaceAll(".", "\\.")}/secrets`),
  );
  assert.match(down.stderr, /connection refused/);
});

Deno.test("auth login on a terminal: the key is typed at a hidden prompt that echoes nothing", async () => {
  await using s = await session();
  await using tty = await terminal(["cloud", "auth", "login", "--api-url", s.baseUrl], s.env);
  await tty.waitFor(/API key/);
  await tty.type(s.key);
  await tty.keys("Enter");
  assert.equal(await tty.exitCode(), 0, await tty.screen());
  const screen = await tty.screen();
  assert.match(screen, /Logged in to organization "default"/);
  assert.ok(!screen.includes(s.key), "the key is not on the screen");
  assert.ok(!screen.includes(s.key.slice(-12)), "no part of the key is on the screen");
  const file = JSON.parse(await Deno.readTextFile(s.configPath));
  assert.equal(file.organizations.default.apiKey, s.key);
});

Deno.test("Ctrl-C at the hidden prompt of auth login exits 130 and stores nothing", async () => {
  await using s = await session();
  await using tty = await terminal(["cloud", "auth", "login", "--api-url", s.baseUrl], s.env);
  await tty.waitFor(/API key/);
  await tty.type("half-typed");
  await tty.keys("C-c");
  assert.equal(await tty.exitCode(), ExitCode.Cancelled, await tty.screen());
  assert.ok(!(await tty.screen()).includes("half-typed"));
  await assert.rejects(Deno.stat(s.configPath), Deno.errors.NotFound);
});

Deno.test("list on a terminal colours the status", async () => {
  await using s = await loggedIn();
  await s.put("bot-secrets", secretsBody());
  const env = { ...s.env, NO_COLOR: "" };
  await using tty = await terminal(["cloud", "secrets", "list"], env);
  assert.equal(await tty.exitCode(), 0, await tty.screen());
  const escape = String.fromCharCode(27);
  assert.match(await tty.screen(true), new RegExp(`${escape}\\[3[23]m(pending|ready)`));
});

Deno.test("delete on a terminal asks; a no keeps the set, a yes (real keystrokes) deletes it", async () => {
  await using s = await loggedIn();
  await s.put("bot-secrets", secretsBody());
  {
    await using tty = await terminal(["cloud", "secrets", "delete", "bot-secrets"], s.env);
    await tty.waitFor(/Delete set "bot-secrets" \(3 keys, region us-west/);
    await tty.keys("Enter"); // the default answer is No
    assert.equal(await tty.exitCode(), ExitCode.Cancelled, await tty.screen());
    assert.equal((await s.get("bot-secrets")).status, 200);
  }
  {
    await using tty = await terminal(["cloud", "secrets", "delete", "bot-secrets"], s.env);
    await tty.waitFor(/Delete set "bot-secrets"/);
    await tty.keys("Left");
    await tty.keys("Enter");
    assert.equal(await tty.exitCode(), 0, await tty.screen());
    assert.match(await tty.screen(), /Deleted set "bot-secrets"/);
    assert.equal((await s.get("bot-secrets")).status, 404);
  }
});

Deno.test("no value, credential or API key used in this file appears in anything the CLI printed", () => {
  const output = transcript.join("\n");
  assert.ok(output.length > 1000, "the transcript holds this file's runs");
  for (const secret of SECRETS) {
    assert.ok(!output.includes(secret), `a secret leaked: ${secret.slice(0, 6)}...`);
  }
});
