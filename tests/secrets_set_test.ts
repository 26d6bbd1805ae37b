/**
 * `voicebot cloud secrets set`, `diff` and `image-pull-secret` end to end: the CLI spawned
 * against the real server on 127.0.0.1 port 0 with a temporary database and HOME.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import type { CliResult } from "./helpers.ts";
import { api, rawSql } from "./helpers_server.ts";
import { type Session, startSession, terminal, transcript, waitFor } from "./helpers_secrets.ts";
import { fingerprint, importFingerprintKey } from "../src/secrets/fingerprint.ts";
import { DOCUMENTED_LIMITS } from "../src/secrets/limits.ts";

/** A server of its own for `fn`: the session, its bootstrap key, and a scratch directory. */
async function withServer(
  fn: (server: Session, key: string, dir: string) => Promise<void>,
  args: string[] = [],
) {
  await using session = await startSession(args);
  const dir = join(session.home, "work");
  await Deno.mkdir(dir);
  await fn(session, session.key, dir);
}

/** The server's URL and key in the environment, as a script would run the CLI. */
const apiEnv = (server: Session, key: string) => ({
  VOICEBOT_API_URL: server.baseUrl,
  VOICEBOT_API_KEY: key,
});

function cli(
  server: Session,
  key: string,
  args: string[],
  options: { cwd?: string; input?: string } = {},
): Promise<CliResult> {
  return server.run(args, { stdin: options.input, cwd: options.cwd, env: apiEnv(server, key) });
}

/** The stored set's detail, straight from the API. */
async function detail(server: Session, key: string, name: string) {
  return (await server.get(name, key)).body;
}

/** The values this file stores: none of them may appear in any output. */
const VALUES = {
  plain: "plain-v4lue-1",
  spaced: "two w0rds here",
  literal: "lit $HOME \\n 'x'",
  multiline: "line-0ne\nline-tw0",
  escaped: 'q"uote\ttab',
  hashed: "pa#ss-w0rd",
  crlf: "crlf-v4lue",
  backtick: `it's "b4cktick"`,
  encodedCredentials: btoa("robot:regi5try-pa55"),
  registryPassword: "regi5try-pa55",
  padded: "c2VjcmV0LXRva2VuLXZhbHVl==",
  onePad: "c2VjcmV0LXRva2VuLXZhbHVlcw=",
  slashed: "Zm9vYmFyLXNlY3JldC12YWx1ZQ/x==",
};

const DOTENV = [
  "# a comment, then a blank line",
  "",
  `export PLAIN=${VALUES.plain}   # inline comment`,
  `SPACED="${VALUES.spaced}"`,
  `LITERAL='${VALUES.literal.replace("'x'", "x")}'`,
  `MULTI="${VALUES.multiline.replace("\n", "\n")}"`,
  `ESCAPED="q\\"uote\\ttab"`,
  `HASHED=${VALUES.hashed}`,
  `BACKTICK=\`${VALUES.backtick}\``,
  "REF=${PLAIN}/${SPACED}",
].join("\n") + "\n";

Deno.test("set: the dotenv syntax people write, stored value for value", async () => {
  await withServer(async (server, key, dir) => {
    const file = join(dir, "app.env");
    await Deno.writeTextFile(file, DOTENV + `CRLF=${VALUES.crlf}\r\n`);
    const result = await cli(server, key, ["cloud", "secrets", "set", "app", "--file", file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Created secret set "app" in us-west/);

    const set = await detail(server, key, "app");
    const expected: Record<string, string> = {
      PLAIN: VALUES.plain,
      SPACED: VALUES.spaced,
      LITERAL: "lit $HOME \\n x",
      MULTI: VALUES.multiline,
      ESCAPED: VALUES.escaped,
      HASHED: VALUES.hashed,
      // python-dotenv (what the bot reads the file with) keeps backticks, and fills references.
      BACKTICK: `\`${VALUES.backtick}\``,
      REF: `${VALUES.plain}/${VALUES.spaced}`,
      CRLF: VALUES.crlf,
    };
    assert.deepEqual(set.keys, Object.keys(expected).sort());
    // The fingerprints prove each stored value is exactly the parsed one.
    const hmac = await importFingerprintKey(set.fingerprintKey);
    for (const { key: name, fingerprint: stored } of set.keyDetails) {
      assert.equal(stored, await fingerprint(hmac, expected[name]), name);
    }

    // diff with the same file: all the same; with a changed pair: that key differs.
    const same = await cli(server, key, ["cloud", "secrets", "diff", "app", "-f", file, "--json"]);
    assert.equal(same.code, 0, same.stderr);
    const states = JSON.parse(same.stdout).keys.map((k: { state: string }) => k.state);
    assert.deepEqual(new Set(states), new Set(["same"]));
    const changed = await cli(server, key, [
      "cloud",
      "secrets",
      "diff",
      "app",
      `PLAIN=${VALUES.plain}x`,
      "NEW_ONE=1",
    ]);
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /^PLAIN\s+different$/m);
    assert.match(changed.stdout, /^NEW_ONE\s+only local$/m);
    assert.match(changed.stdout, /^SPACED\s+only remote$/m);
    // --exit-code: 1 when anything differs, for scripts; the comparison is printed all the same.
    const same2 = await cli(server, key, [
      "cloud",
      "secrets",
      "diff",
      "app",
      "-f",
      file,
      "--exit-code",
    ]);
    assert.equal(same2.code, 0, same2.stderr);
    const drift = await cli(server, key, [
      "cloud",
      "secrets",
      "diff",
      "app",
      `PLAIN=${VALUES.plain}x`,
      "--exit-code",
    ]);
    assert.equal(drift.code, 1, drift.stderr);
    assert.match(drift.stdout, /^PLAIN\s+different$/m);
    assert.doesNotMatch(drift.stderr, /error/);
    const driftJson = await cli(server, key, [
      "cloud",
      "secrets",
      "diff",
      "app",
      `PLAIN=${VALUES.plain}`,
      "--exit-code",
      "--json",
    ]);
    assert.equal(driftJson.code, 1, driftJson.stderr);
    assert.equal(
      JSON.parse(driftJson.stdout).keys.find((k: { key: string }) => k.key === "PLAIN").state,
      "same",
    );
    // list NAME shows each key's last write and fingerprint, never the fingerprint key.
    const listed = await cli(server, key, ["cloud", "secrets", "list", "app"]);
    assert.equal(listed.code, 0, listed.stderr);
    const plainRow = set.keyDetails.find((d: { key: string }) => d.key === "PLAIN");
    assert.match(listed.stdout, /Last written \(UTC\)/);
    assert.match(
      listed.stdout,
      new RegExp(
        `PLAIN\\s*│\\s*\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s*│\\s*${plainRow.fingerprint}`,
      ),
    );
    const listedJson = JSON.parse(
      (await cli(server, key, ["cloud", "secrets", "list", "app", "--json"])).stdout,
    );
    assert.deepEqual(listedJson.keyDetails, set.keyDetails);
    assert.equal(listedJson.fingerprintKey, undefined);
    assert.ok(!listed.stdout.includes(set.fingerprintKey));

    const missing = await cli(server, key, ["cloud", "secrets", "diff", "nope", "A=1"]);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /No set named "nope"/);
  });
});

Deno.test("set: every problem at once, each with its source; nothing sent", async () => {
  await withServer(async (server, key, dir) => {
    const file = join(dir, "bad.env");
    await Deno.writeTextFile(file, `GOOD=1\nno equals\nDUP=${VALUES.plain}\nEMPTY=\n`);
    const result = await cli(server, key, [
      "cloud",
      "secrets",
      "set",
      "bad_name",
      `DUP=${VALUES.spaced}`,
      "1KEY=x",
      VALUES.hashed,
      // Secret-looking text where pairs go: reported by position, never shown nor made a key.
      VALUES.padded,
      VALUES.onePad,
      VALUES.slashed,
      "-f",
      file,
    ]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    for (
      const expected of [
        /argument 1 is not a set name/,
        /argument 3: what comes before "=" is not a key name/,
        /argument 4: expected KEY=value/,
        /argument 5: this reads as a value ending in "=" padding/,
        /argument 6: this reads as a value ending in "=" padding/,
        /argument 7: what comes before "=" is not a key name/,
        /bad\.env:2: expected KEY=value/,
        /bad\.env:3: DUP is also given at argument 2/,
        /bad\.env:4: EMPTY is empty: fill it in, or delete the line/,
      ]
    ) assert.match(result.stderr, expected);
    assert.deepEqual((await api(server.baseUrl, key, "GET", "/secrets")).body, { sets: [] });

    // A reference python-dotenv would fill from this machine's environment is refused, though the
    // variable is set here; a file that is not text is one problem, not one per line.
    const referring = join(dir, "ref.env");
    await Deno.writeTextFile(referring, "A=1\nB=${A}\nC=${FROM_MY_SHELL}\n");
    const binary = join(dir, "binary");
    await Deno.writeFile(
      binary,
      new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 10, 0x41, 0x3d, 10]),
    );
    for (
      const [path, problem] of [[referring, /ref\.env:3: the value refers to FROM_MY_SHELL/], [
        binary,
        /binary: not a text file/,
      ]] as const
    ) {
      const refused = await server.run(["cloud", "secrets", "set", "app", "-f", path], {
        env: { ...apiEnv(server, key), FROM_MY_SHELL: VALUES.spaced },
      });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /^error: 1 problem; nothing was sent\.$/m);
      assert.match(refused.stderr, problem);
    }
    assert.deepEqual((await api(server.baseUrl, key, "GET", "/secrets")).body, { sets: [] });

    // --allow-empty lets the empty one through.
    const allowed = await cli(server, key, [
      "cloud",
      "secrets",
      "set",
      "ok",
      "E=",
      "--allow-empty",
    ]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.deepEqual((await detail(server, key, "ok")).keys, ["E"]);
    // Even with --allow-empty, a token with "=" padding is not made a key; nothing is sent.
    for (const token of [VALUES.padded, VALUES.onePad]) {
      const refused = await cli(server, key, [
        "cloud",
        "secrets",
        "set",
        "ok",
        token,
        "--allow-empty",
        "--dry-run",
      ]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /argument 2: this reads as a value ending in "=" padding/);
    }
    assert.deepEqual((await detail(server, key, "ok")).keys, ["E"]);
  });
});

Deno.test("--file not found: a file of that name one directory off is named, by the path to give", async () => {
  await withServer(async (server, key, dir) => {
    // dir/project/server/.env, with project/other/ beside server/ and project/server/sub/ inside it.
    const project = join(dir, "project");
    await Deno.mkdir(join(project, "server", "sub"), { recursive: true });
    await Deno.mkdir(join(project, "other"));
    await Deno.writeTextFile(join(project, "server", ".env"), `A=${VALUES.plain}\n`);
    const cases: [string, string, string, RegExp][] = [
      // from the parent of server/ (child), below it (parent), beside it (sibling)
      ["set", project, ".env", /there is one at server\/\.env:/],
      ["set", join(project, "server", "sub"), "server/.env", /there is one at \.\.\/\.env:/],
      ["set", join(project, "other"), "server/.env", /there is one at \.\.\/server\/\.env:/],
      ["diff", join(project, "other"), "server/.env", /there is one at \.\.\/server\/\.env:/],
      // none nearby
      ["set", dir, ".env", /hint: copy \.env\.example to \.env and fill it in\./],
    ];
    for (const [command, cwd, file, hint] of cases) {
      const result = await cli(server, key, ["cloud", "secrets", command, "app", "--file", file], {
        cwd,
      });
      const what = `${command} --file ${file} from ${cwd}`;
      assert.equal(result.code, 2, `${what}: ${result.stderr}`);
      assert.ok(result.stderr.includes(`--file ${file}: no such file.`), what);
      assert.match(result.stderr, hint, what);
    }
    assert.equal((await server.get("app", key)).status, 404, "nothing was sent");
  });
});

Deno.test("set: the API's documented limits are checked before anything is sent", async () => {
  await withServer(async (server, key, dir) => {
    const set = (...args: string[]) =>
      cli(server, key, ["cloud", "secrets", "set", "app", "--yes", ...args]);
    const refused = async (result: CliResult, message: RegExp) => {
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.ok(!result.stderr.includes("v".repeat(100)), "a value was shown");
      assert.deepEqual((await api(server.baseUrl, key, "GET", "/secrets/app")).status, 404);
    };
    const { maxValueBytes, maxKeysPerSet, maxBodyBytes } = DOCUMENTED_LIMITS;
    await refused(
      await set("SMALL=1", `BIG=${"v".repeat(maxValueBytes + 1)}`),
      /argument 3: BIG is 65,537 bytes, over the API's limit of 65,536 bytes for one value/,
    );
    const many = join(dir, "many.env");
    const lines = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}=v\n`).join("");
    await Deno.writeTextFile(many, lines(maxKeysPerSet + 1, "K"));
    await refused(await set("-f", many), /201 keys given; a set holds at most 200/);
    const large = Array.from(
      { length: Math.ceil(maxBodyBytes / (maxValueBytes - 100)) },
      (_, i) => `L${i}=${"v".repeat(maxValueBytes - 100)}`,
    );
    await refused(
      await set(...large),
      /the write would be [\d,]+ bytes, over the API's limit of 1,048,576 bytes for one request/,
    );

    // Keys per set count what the set already holds.
    await Deno.writeTextFile(many, lines(150, "OLD"));
    assert.equal((await set("-f", many)).code, 0);
    await Deno.writeTextFile(many, lines(60, "NEW"));
    const merged = await set("-f", many);
    assert.equal(merged.code, 2, merged.stderr);
    assert.match(merged.stderr, /"app" would hold 210 keys; a set holds at most 200/);
    assert.equal((await detail(server, key, "app")).keys.length, 150);
  });
});

Deno.test("set: overwrite and --replace need --yes without a terminal; --dry-run sends nothing", async () => {
  await withServer(async (server, key) => {
    const set = (...args: string[]) =>
      cli(server, key, ["cloud", "secrets", "set", "app", ...args]);
    assert.equal((await set("A=1", "B=2", "C=3")).code, 0);

    // Only new keys, or keys given the value they hold already: no confirmation needed.
    assert.equal((await set("D=4")).code, 0);
    const same = await set("A=1", "B=2", "--dry-run");
    assert.match(same.stdout, /unchanged {2}A, B/);
    assert.equal((await set("A=1", "B=2")).code, 0);
    const refused = await set("A=9", "--replace");
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--yes/);
    assert.match(refused.stderr, /overwrite: A|overwrite\s+A/);
    assert.match(refused.stderr, /remove\s+B, C, D/);
    const before = await detail(server, key, "app");
    assert.deepEqual(before.keys, ["A", "B", "C", "D"]);

    const dryRun = await set("A=9", "E=5", "--replace", "--dry-run", "--json");
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.deepEqual(JSON.parse(dryRun.stdout), {
      dryRun: true,
      name: "app",
      region: "us-west",
      isNew: false,
      created: ["E"],
      updated: ["A"],
      unchanged: [],
      removed: ["B", "C", "D"],
      replace: true,
      compared: true,
    });
    const plain = await set("A=9", "--dry-run");
    assert.match(plain.stdout, /Secret set "app" in us-west would:\n {2}overwrite {2}A\n$/);
    assert.deepEqual((await detail(server, key, "app")).keyDetails, before.keyDetails);

    const replaced = await set("A=9", "E=5", "--replace", "--yes", "--json");
    assert.equal(replaced.code, 0, replaced.stderr);
    const outcome = JSON.parse(replaced.stdout);
    assert.deepEqual([outcome.created, outcome.updated, outcome.removed], [
      ["E"],
      ["A"],
      ["B", "C", "D"],
    ]);
    assert.deepEqual(Object.keys(outcome.set).sort(), ["name", "region", "status", "type"]);
    assert.deepEqual((await detail(server, key, "app")).keys, ["A", "E"]);
    assert.equal((await set("A=10", "-s")).code, 0, "-s skips the confirmation too");
  });
});

Deno.test("set: --dry-run and the write report the same keys; a write that changes nothing says so", async () => {
  await withServer(async (server, key) => {
    const set = (...args: string[]) =>
      cli(server, key, ["cloud", "secrets", "set", "app", ...args]);
    const lists = (result: CliResult) => {
      assert.equal(result.code, 0, result.stderr);
      const json = JSON.parse(result.stdout);
      return [json.created, json.updated, json.unchanged, json.removed];
    };
    assert.equal((await set("A=1", "B=2", "--wait")).code, 0);
    const before = await detail(server, key, "app");

    const args = ["A=1", "B=3", "C=4", "--yes", "--json", "--wait"];
    const planned = lists(await set(...args, "--dry-run"));
    assert.deepEqual(planned, [["C"], ["B"], ["A"], []]);
    assert.deepEqual(lists(await set(...args)), planned);
    // The unchanged key was left as it was: not written again.
    const after = await detail(server, key, "app");
    const writtenAt = (set: typeof before, name: string) =>
      set.keyDetails.find((k: { key: string }) => k.key === name).writtenAt;
    assert.equal(writtenAt(after, "A"), writtenAt(before, "A"));
    assert.notEqual(writtenAt(after, "B"), writtenAt(before, "B"));

    // Nothing to change: said in so many words, and the ready set is not provisioned again.
    const dry = await set("A=1", "B=3", "--dry-run");
    assert.match(dry.stdout, /would:\n {2}unchanged {2}A, B\n$/);
    const same = await set("A=1", "B=3");
    assert.equal(same.code, 0, same.stderr);
    assert.match(
      same.stderr,
      /Nothing to change in secret set "app" in us-west: A, B already hold these values\. Status: ready\./,
    );
    assert.deepEqual((await detail(server, key, "app")).keyDetails, after.keyDetails);
  });
});

Deno.test("set: -f - reads stdin; --wait ends when the set is ready", async () => {
  await withServer(async (server, key) => {
    const result = await cli(
      server,
      key,
      ["cloud", "secrets", "set", "piped", "-f", "-", "--wait", "--json"],
      { input: `FROM_STDIN=${VALUES.plain}\n` },
    );
    assert.equal(result.code, 0, result.stderr);
    const outcome = JSON.parse(result.stdout);
    assert.equal(outcome.set.status, "ready");
    assert.deepEqual(outcome.created, ["FROM_STDIN"]);
  });
});

Deno.test("region: the organization's default for a new set; a mismatch is refused before sending", async () => {
  await withServer(async (server, key) => {
    const set = (...args: string[]) => cli(server, key, ["cloud", "secrets", "set", ...args]);
    const created = await set("app", "A=1");
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /in eu-central/);
    assert.equal((await detail(server, key, "app")).region, "eu-central");

    const mismatch = await set("app", "A=2", "-r", "us-east", "--yes", "--verbose");
    assert.equal(mismatch.code, 5);
    assert.match(mismatch.stderr, /is in region eu-central, not us-east/);
    const unknown = await set("other", "A=1", "-r", "mars-1");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /use one of: us-east, eu-central/);
    const there = await set("east", "A=1", "-r", "us-east", "--json");
    assert.equal(JSON.parse(there.stdout).set.region, "us-east");
    assert.deepEqual(
      (await api(server.baseUrl, key, "GET", "/secrets")).body.sets.map((s: { name: string }) =>
        s.name
      ),
      ["app", "east"],
    );
  }, ["--regions", "us-east,eu-central", "--default-region", "eu-central"]);
});

Deno.test("image-pull-secret: argument, --password-stdin, stdin; updated in place; a bad host refused before sending", async () => {
  await withServer(async (server, key) => {
    const ips = (args: string[], input?: string) =>
      cli(server, key, ["cloud", "secrets", "image-pull-secret", ...args], { input });
    const created = await ips(["reg", "registry.example.com", `robot:${VALUES.registryPassword}`]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /Created image pull secret "reg"/);

    const updated = await ips(
      ["reg", "registry.example.com", "--username", "robot", "--password-stdin", "--wait"],
      `${VALUES.registryPassword}\n`,
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stderr, /Updated image pull secret "reg".*Status: ready/);

    const fromStdin = await ips(
      ["reg2", "r.example.com", "--json"],
      `robot:${VALUES.registryPassword}`,
    );
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.deepEqual(JSON.parse(fromStdin.stdout).updated, false);

    const encoded = btoa(`robot:${VALUES.registryPassword}`);
    assert.equal((await ips(["reg3", "r.example.com", encoded, "--no-encode"])).code, 0);

    // Not user:password: refused before sending, without echoing it.
    for (
      const [args, input] of [[["bad", "r.io", VALUES.hashed]], [
        ["bad", "r.io"],
        "tokenonly",
      ]] as const
    ) {
      const refused = await ips([...args, "--verbose"], input);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /not username:password/);
    }
    assert.equal((await api(server.baseUrl, key, "GET", "/secrets/bad")).status, 404);

    // A registry host the provisioner would refuse is refused before sending, by the same rule,
    // without quoting what may be credentials typed in its place.
    for (
      const [host, problem] of [
        // A registry URL is taken (https://ghcr.io/v2/), but not another scheme, a query or a
        // fragment.
        [
          "ftp://ghcr.io/v2/",
          /a URL must be http:\/\/ or https:\/\/.*\(or give the host alone: ghcr\.io\)/,
        ],
        ["oci://ghcr.io", /a URL must be http:\/\/ or https:\/\//],
        ["https://ghcr.io/v2/?tag=x", /a URL must have no query/],
        ["https://ghcr.io/v2/#x", /a URL must have no fragment/],
        ["ghcr.io/v2/", /drop the path after the host/],
        [`robot:${VALUES.registryPassword}@ghcr.io`, /it holds user information/],
        [`robot:${VALUES.registryPassword}`, /what follows ":" is not a port/],
        ["not a host", /use DNS labels or an IPv4 address/],
      ] as const
    ) {
      const refused = await ips(["broken", host, `robot:${VALUES.registryPassword}`, "--wait"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /argument 2 is not a registry host/);
      assert.match(refused.stderr, problem);
    }
    assert.equal((await api(server.baseUrl, key, "GET", "/secrets/broken")).status, 404);
    assert.equal((await ips(["broken", "r.io", "a:b"])).code, 0);

    const diff = await cli(server, key, ["cloud", "secrets", "diff", "reg", "A=1"]);
    assert.equal(diff.code, 2);
    assert.match(diff.stderr, /is an image pull secret; diff compares secret sets/);
    // The name of a secret set is not an image pull secret's, and the other way round.
    assert.equal((await cli(server, key, ["cloud", "secrets", "set", "reg", "A=1"])).code, 5);
    assert.equal((await ips(["broken2", "r.io", "a:b", "-r", "eu-central"])).code, 0);
    assert.equal((await ips(["broken2", "r.io", "a:b", "-r", "us-west"])).code, 5);
  });
});

Deno.test("--wait on a set that fails to provision exits 6 with its errorMessage", async () => {
  // The client refuses what it knows the provisioner refuses; what is left is a failure only the
  // server sees: here, stored credentials that no longer decrypt (the row is broken behind the
  // server's back, as an operator could, while the write waits out the provisioning delay).
  await withServer(async (server, key) => {
    for (const json of [false, true]) {
      const running = cli(server, key, [
        "cloud",
        "secrets",
        "image-pull-secret",
        "broken",
        "r.example.com",
        `robot:${VALUES.registryPassword}`,
        "--wait",
        ...(json ? ["--json"] : []),
      ]);
      await waitFor("the write", async () => {
        const { body } = await server.get("broken", key);
        return body?.status === "pending" ? true : undefined;
      }, 60_000);
      await rawSql(server.database, [
        "UPDATE secret_sets SET credentials = X'00' WHERE name = 'broken'",
      ]);
      const failed = await running;
      assert.equal(failed.code, 6, failed.stderr);
      assert.match(
        failed.stderr,
        /"broken" failed to provision: The stored credentials could not be read; set them again\./,
      );
      if (json) {
        const outcome = JSON.parse(failed.stdout);
        assert.equal(outcome.set.status, "failed");
        assert.equal(outcome.updated, true);
      } else assert.equal(failed.stdout, "");
    }
  }, ["--provision-delay", "10000"]);
});

Deno.test("--wait-timeout bounds the wait; a bad one is refused before anything is sent", async () => {
  await withServer(async (server, key) => {
    const bad = await cli(server, key, [
      "cloud",
      "secrets",
      "set",
      "slow",
      "A=1",
      "--wait",
      "--wait-timeout",
      "0",
    ]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--wait-timeout must be more than 0 seconds/);
    assert.equal((await server.get("slow", key)).status, 404, "nothing was written");

    // The provisioner takes a minute; the wait gives up after 1 s, the write made.
    const timedOut = await cli(server, key, [
      "cloud",
      "secrets",
      "image-pull-secret",
      "slow",
      "r.example.com",
      `robot:${VALUES.registryPassword}`,
      "--wait",
      "--wait-timeout",
      "1",
    ]);
    assert.equal(timedOut.code, 1, timedOut.stderr);
    assert.match(timedOut.stderr, /"slow" is still pending after 1 s/);
    assert.match(timedOut.stderr, /check later with `voicebot cloud secrets list slow`/);
    assert.equal((await detail(server, key, "slow")).status, "pending");
  }, ["--provision-delay", "60000"]);
});

Deno.test("429 from the real server: retried after its Retry-After, or reported when that is too long", async () => {
  // One request a second, none saved up: the command's requests, one after the other, meet 429s.
  await withServer(async (server, key) => {
    const result = await cli(server, key, [
      "cloud",
      "secrets",
      "set",
      "rl",
      "A=1",
      "B=2",
      "--wait",
      "--json",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).set.status, "ready");
    // The server's access log: requests answered 429 and then, sent again with the same request
    // id (the client's own), answered. The server writes its access log every 10 ms, so the last
    // answer's line may come after the command exits: read it until it is there, for at most 5 s.
    const unanswered = () => {
      const log = server.server.stderr().split("\n").filter((line) =>
        line.includes('"msg":"request"')
      ).map((line) => JSON.parse(line) as { status: number; requestId: string });
      const limited = log.filter((entry) => entry.status === 429);
      assert.ok(limited.length >= 2, `429s: ${limited.length}`);
      return limited.filter(({ requestId }) =>
        !log.some((e) => e.requestId === requestId && e.status < 300)
      ).map(({ requestId }) => requestId);
    };
    for (const deadline = Date.now() + 5_000; unanswered().length && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(unanswered(), [], "requests answered 429 and never again");
  }, ["--rate-limit", "1", "--rate-burst", "1"]);
  // One request in 20 s: a Retry-After over the client's 10 s bound is not waited for.
  await withServer(async (server, key) => {
    const result = await cli(server, key, ["cloud", "secrets", "set", "rl", "A=1"]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /Too many requests for this API key/);
    assert.match(result.stderr, /HTTP 429 RATE_LIMITED, request id \S+/);
    assert.match(result.stderr, /try again in 20 s/);
  }, ["--rate-limit", "0.05", "--rate-burst", "1"]);
});

Deno.test("set, diff, image-pull-secret, unset and delete act in the organization picked with -o", async () => {
  await withServer(async (server, key) => {
    const otherKey = await server.createKey("other");
    // No key in the environment: the organizations come from the config file, by -o.
    const run = (args: string[], input?: string) => server.run(args, { stdin: input });
    for (const [org, orgKey] of [["default", key], ["other", otherKey]]) {
      const login = await run(
        ["cloud", "auth", "login", "-o", org, "--api-url", server.baseUrl],
        orgKey,
      );
      assert.equal(login.code, 0, login.stderr);
    }
    assert.equal(
      (await run(["cloud", "secrets", "set", "shared", "A=1", "Z=9", "-o", "default"])).code,
      0,
    );
    assert.equal((await run(["cloud", "secrets", "set", "shared", "B=2", "-o", "other"])).code, 0);
    assert.deepEqual((await detail(server, key, "shared")).keys, ["A", "Z"]);
    assert.deepEqual((await detail(server, otherKey, "shared")).keys, ["B"]);
    const diff = await run(["cloud", "secrets", "diff", "shared", "B=2", "-o", "other", "--json"]);
    assert.deepEqual(JSON.parse(diff.stdout).keys, [{ key: "B", state: "same" }]);
    // image-pull-secret, unset and delete too, in the organization -o names ("other" is current).
    const ips = await run([
      "cloud",
      "secrets",
      "image-pull-secret",
      "reg",
      "r.example.com",
      `robot:${VALUES.registryPassword}`,
      "-o",
      "default",
    ]);
    assert.equal(ips.code, 0, ips.stderr);
    assert.equal((await detail(server, key, "reg")).host, "r.example.com");
    assert.equal((await server.get("reg", otherKey)).status, 404);
    const unsetOther = await run(["cloud", "secrets", "unset", "shared", "A", "-o", "other", "-s"]);
    assert.equal(unsetOther.code, 4, "other's set has no A");
    assert.match(unsetOther.stderr, /set "shared" in organization "other" has no key A/);
    assert.equal(
      (await run(["cloud", "secrets", "unset", "shared", "A", "-o", "default", "-s"])).code,
      0,
    );
    assert.deepEqual((await detail(server, key, "shared")).keys, ["Z"]);
    assert.deepEqual((await detail(server, otherKey, "shared")).keys, ["B"]);
    const deleted = await run([
      "cloud",
      "secrets",
      "delete",
      "shared",
      "-o",
      "default",
      "--yes",
      "--json",
    ]);
    assert.deepEqual(JSON.parse(deleted.stdout), {
      deleted: "shared",
      organization: "default",
      alreadyGone: false,
    });
    assert.equal((await server.get("shared", key)).status, 404);
    assert.equal((await server.get("shared", otherKey)).status, 200);

    const missing = await run(["cloud", "secrets", "set", "shared", "C=3", "-o", "nobody"]);
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /auth login/);
  });
});

Deno.test("the secrets command of a freshly scaffolded quickstart's README runs as written", async () => {
  await withServer(async (server, key, dir) => {
    const init = await server.run(["init", "quickstart"], { cwd: dir });
    assert.equal(init.code, 0, init.stderr);
    const project = join(dir, "voicebot-quickstart");
    const readme = await Deno.readTextFile(join(project, "README.md"));
    const command = readme.split("\n").find((line) =>
      line.startsWith("voicebot cloud secrets set ")
    );
    assert.ok(command, "the README shows the set command");
    // A user of the SmallWebRTC transport ("no account is needed"), as the README says: copy
    // .env.example to .env, fill in the keys, and delete the lines of the keys that only another
    // transport needs, which the README lists.
    assert.match(readme, /over SmallWebRTC[\s\S]*No account\s+is needed/);
    const onlyOthers = readme.split("These keys are needed by one transport only")[1]
      ?.split("\n\n")[1];
    assert.ok(onlyOthers, "the README lists the keys only one transport needs");
    const drop = [...onlyOthers.matchAll(/^- `([A-Z0-9_]+)`: (.+)$/gm)];
    assert.deepEqual(drop.map(([, name, transports]) => [name, transports]), [
      ["DAILY_API_KEY", "Daily (WebRTC)"],
    ]);
    const example = await Deno.readTextFile(join(project, "server/.env.example"));
    const fill = (text: string) =>
      text.replace(/^([A-Z_]+)=$/gm, (_, name) => `${name}=${VALUES.plain}-${name}`);
    const args = command.split(" ").slice(1);

    // Filled in, but the Daily line left empty: refused, and told to fill it in or delete it.
    const left = example.replace(
      /^([A-Z_]+)=$/gm,
      (line, name) =>
        drop.some(([, other]) => other === name) ? line : `${name}=${VALUES.plain}-${name}`,
    );
    await Deno.writeTextFile(join(project, "server/.env"), left);
    const refused = await cli(server, key, args, { cwd: project });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /server\/\.env:\d+: DAILY_API_KEY is empty: fill it in, or delete the line/,
    );

    const followed = example.split("\n").filter((line) =>
      !drop.some(([, name]) => line === `${name}=`)
    ).join("\n");
    await Deno.writeTextFile(join(project, "server/.env"), fill(followed));
    // Run from inside server/, where the README's previous step leaves the user: the file is
    // named where it is, and nothing is sent.
    const inside = await cli(server, key, args, { cwd: join(project, "server") });
    assert.equal(inside.code, 2, inside.stderr);
    assert.match(inside.stderr, /--file server\/\.env: no such file\.\n.*there is one at \.env:/);
    const result = await cli(server, key, args, { cwd: project });
    assert.equal(result.code, 0, result.stderr);
    const set = await detail(server, key, "voicebot-quickstart-secrets");
    assert.deepEqual(set.keys, ["CARTESIA_API_KEY", "DEEPGRAM_API_KEY", "OPENAI_API_KEY"]);

    // Every other `voicebot cloud secrets` command the project prints runs as written too.
    const printed = new Set<string>();
    for (
      const file of ["README.md", "AGENTS.md", "server/.env.example", "server/cloud-deploy.toml"]
    ) {
      const text = await Deno.readTextFile(join(project, file));
      for (const match of text.matchAll(/voicebot cloud secrets [^`\n]+/g)) {
        // `secrets run` takes a runtime key: tests/secrets_run_test.ts runs the README's.
        if (!match[0].startsWith("voicebot cloud secrets run ")) printed.add(match[0].trim());
      }
    }
    assert.ok(printed.size >= 3, [...printed].join("\n"));
    for (const line of printed) {
      const run = await cli(server, key, line.split(" ").slice(1), {
        cwd: project,
        input: `robot:${VALUES.registryPassword}`,
      });
      assert.equal(run.code, 0, `${line}\n${run.stderr}`);
    }
  });
});

/** The CLI in a real terminal (tmux), driven with keystrokes; every wait is bounded. */
async function inTerminal(
  server: Session,
  key: string,
  args: string[],
  fn: (term: Terminal) => Promise<void>,
) {
  await using term = await terminal(args, { ...server.env, ...apiEnv(server, key) });
  await fn(term);
}

type Terminal = Awaited<ReturnType<typeof terminal>>;

Deno.test("image-pull-secret: hidden prompts in a terminal echo nothing", async () => {
  await withServer(async (server, key) => {
    await inTerminal(server, key, [
      "cloud",
      "secrets",
      "image-pull-secret",
      "tty-reg",
      "r.example.com",
    ], async (term) => {
      await term.waitFor(/Registry username/);
      await term.type("robot-user");
      await term.keys("Enter");
      await term.waitFor(/Registry password/);
      await term.type(VALUES.registryPassword);
      // Typed but not yet sent: the screen shows none of it.
      const typed = await term.screen();
      assert.ok(!typed.includes("robot-user") && !typed.includes(VALUES.registryPassword), typed);
      assert.ok(!/[▪*•]/.test(typed), `no mask either, not even the length:\n${typed}`);
      await term.keys("Enter");
      await term.waitFor(/EXIT=0/);
      const screen = await term.screen();
      assert.match(screen, /Created image pull secret "tty-reg"/);
      assert.ok(
        !screen.includes("robot-user") && !screen.includes(VALUES.registryPassword),
        screen,
      );
    });
    assert.equal((await detail(server, key, "tty-reg")).host, "r.example.com");
    // --no-encode: one hidden prompt for the base64 of username:password.
    await inTerminal(server, key, [
      "cloud",
      "secrets",
      "image-pull-secret",
      "tty-reg2",
      "r.example.com",
      "--no-encode",
      "--wait",
    ], async (term) => {
      await term.waitFor(/Credentials \(base64 of username:password\)/);
      await term.type(VALUES.encodedCredentials);
      const typed = await term.screen();
      assert.ok(!typed.includes(VALUES.encodedCredentials.slice(0, 8)), typed);
      assert.ok(!/[▪*•]/.test(typed), `no mask either:\n${typed}`);
      await term.keys("Enter");
      assert.equal(await term.exitCode(), 0, await term.screen());
      // Ready: the provisioner decoded it to username:password.
      assert.match(await term.screen(), /Created image pull secret "tty-reg2".*Status: ready/);
    });
  });
});

Deno.test("set: the confirmation in a terminal, answered with real keystrokes", async () => {
  await withServer(async (server, key) => {
    assert.equal(
      (await cli(server, key, ["cloud", "secrets", "set", "app", "A=1", "B=2"])).code,
      0,
    );
    const before = await detail(server, key, "app");
    // No, Ctrl-C or Escape (there is no question to go back to): a cancellation (exit 130),
    // nothing written.
    for (const answer of ["no", "C-c", "Escape"]) {
      await inTerminal(
        server,
        key,
        ["cloud", "secrets", "set", "app", "A=9", "C=3", "--replace"],
        async (term) => {
          await term.waitFor(/Write 2 key\(s\) to "app" in us-west\?/);
          const screen = await term.screen();
          assert.match(screen, /create {5}C/);
          assert.match(screen, /overwrite {2}A/);
          assert.match(screen, /remove {5}B/);
          if (answer === "no") {
            await term.type("n");
            await term.keys("Enter");
          } else {
            await term.keys(answer);
          }
          await term.waitFor(/EXIT=130/);
          assert.match(await term.screen(), /Cancelled; nothing was changed/, answer);
        },
      );
    }
    assert.deepEqual((await detail(server, key, "app")).keyDetails, before.keyDetails);
    // Yes: written, then --wait shows its spinner until the set is ready.
    await inTerminal(
      server,
      key,
      ["cloud", "secrets", "set", "app", "A=9", "C=3", "--replace", "--wait"],
      async (term) => {
        await term.waitFor(/Write 2 key\(s\)/);
        await term.type("y");
        await term.keys("Enter");
        await term.waitFor(/EXIT=0/);
        assert.match(
          await term.screen(),
          /Updated secret set "app" in us-west: created C; updated A; removed B/,
        );
        assert.match(await term.screen(), /"app" is ready/);
      },
    );
    assert.deepEqual((await detail(server, key, "app")).keys, ["A", "C"]);
  });
});

Deno.test("--wait: Ctrl-C or Escape at the spinner exits 130 and says what was written", async () => {
  await withServer(async (server, key) => {
    // The provisioner takes a minute: the spinner is still up when the key is pressed.
    await inTerminal(
      server,
      key,
      ["cloud", "secrets", "set", "slow", "A=1", "--wait"],
      async (term) => {
        await term.waitFor(/Write 1 key\(s\) to "slow"/);
        await term.type("y");
        await term.keys("Enter");
        await term.waitFor(/Waiting for "slow" to be ready/);
        await term.keys("C-c");
        assert.equal(await term.exitCode(), 130, await term.screen());
        const screen = await term.screen();
        assert.match(
          screen,
          /Cancelled the wait, not the write: created secret set "slow" in us-west \(created A\)/,
        );
        assert.match(screen, /see its status with `voicebot cloud secrets list slow`/);
      },
    );
    assert.deepEqual((await detail(server, key, "slow")).keys, ["A"]);
    await inTerminal(server, key, [
      "cloud",
      "secrets",
      "image-pull-secret",
      "slow-reg",
      "r.example.com",
      `robot:${VALUES.registryPassword}`,
      "--wait",
    ], async (term) => {
      await term.waitFor(/Waiting for "slow-reg" to be ready/);
      await term.keys("Escape");
      assert.equal(await term.exitCode(), 130, await term.screen());
      assert.match(
        await term.screen(),
        /Cancelled the wait, not the write: created image pull secret "slow-reg" for r\.example\.com/,
      );
    });
    assert.equal((await detail(server, key, "slow-reg")).status, "pending");
  }, ["--provision-delay", "60000"]);
});

Deno.test("stdin a terminal is never read (it would echo): each command names the alternatives", async () => {
  await withServer(async (server, key, dir) => {
    const env = { ...server.env, ...apiEnv(server, key) };
    // `--json > file`: stdout is not a terminal, so nothing prompts; stdin is the terminal.
    const out = join(dir, "out.json");
    {
      await using term = await terminal(
        ["cloud", "secrets", "image-pull-secret", "reg2", "r.example.com", "--json"],
        env,
        { stdoutTo: out },
      );
      assert.equal(await term.exitCode(), 2, await term.screen());
      const screen = await term.screen();
      assert.match(screen, /cannot read the credentials from stdin: it is a terminal/);
      assert.match(screen, /--username USER --password-stdin/);
      assert.match(screen, /Pipe `username:password` in/);
    }
    assert.equal(await Deno.readTextFile(out), "");
    for (
      const [args, what] of [
        [
          ["image-pull-secret", "reg3", "r.example.com", "--username", "u", "--password-stdin"],
          "the password",
        ],
        [["set", "app", "-f", "-"], "the secrets"],
        [["diff", "app", "--file", "-"], "the secrets"],
      ] as const
    ) {
      await using term = await terminal(["cloud", "secrets", ...args], env);
      assert.equal(await term.exitCode(), 2, await term.screen());
      assert.match(await term.screen(), new RegExp(`cannot read ${what} from stdin`));
    }
    assert.deepEqual((await api(server.baseUrl, key, "GET", "/secrets")).body, { sets: [] });
  });
});

Deno.test("no value, credential or API key appears in any output of this file", () => {
  const all = transcript.join("\n");
  for (const [name, value] of Object.entries(VALUES)) {
    // Each part too: a value may be printed without its "=" padding or across lines.
    for (const part of [value, ...value.split(/[\n=]+/).filter((p) => p.length >= 6)]) {
      assert.ok(!all.includes(part), `${name} leaked`);
    }
  }
  assert.ok(!all.includes("vb_sk_"), "an API key leaked");
  assert.ok(!all.includes("fingerprintKey"), "the fingerprint key was printed");
});
