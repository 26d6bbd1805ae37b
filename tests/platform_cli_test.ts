/**
 * The platform's own CLI, `pcc` (daily-co/pipecat-cloud 0.6.0: `src/pipecatcloud/api.py`,
 * `cli/commands/secrets.py`, `_utils/auth_utils.py`), against `voicebot cloud serve` on both
 * backends:
 *
 * - its `secrets` commands' requests exactly as its source builds them (paths, bodies, headers),
 *   each answer read as its source reads it;
 * - an organization in its paths that is not the key's: one answer, whether or not it exists, and
 *   nothing written;
 * - the real `pcc`, where VOICEBOT_TEST_PCC names one (tests/skips.ts's "pcc" group), in a journey
 *   beside `voicebot cloud secrets`.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { runCli } from "./helpers_secrets.ts";
import {
  api,
  BACKENDS,
  backendTest,
  type JsonBody,
  REQUEST_TIMEOUT_MS,
  serveAction,
  spawnServer,
  tempDir,
  withDeadline,
} from "./helpers_server.ts";
import { skipped } from "./skips.ts";

/** What pcc 0.6.0 sends on every request (`_API._configure_headers`; aiohttp adds the rest). */
const PCC_HEADERS = { "user-agent": "PipecatCloudCLI/0.6.0", accept: "*/*" };

/** Its requests to one server with one token, as `_API._base_request` makes them. */
function pccClient(baseUrl: string, token: string) {
  const host = baseUrl.replace(/\/v1$/, "");
  return async (
    method: string,
    path: string,
    options: { json?: unknown; params?: Record<string, string> } = {},
  ): Promise<{ status: number; body: JsonBody }> => {
    const query = options.params ? `?${new URLSearchParams(options.params)}` : "";
    const response = await fetch(`${host}${path}${query}`, {
      method,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: {
        ...PCC_HEADERS,
        authorization: `Bearer ${token}`,
        ...(options.json === undefined ? {} : { "content-type": "application/json" }),
      },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** `_secrets_list`'s reading of an answer (`not_found_is_empty`: a 404 is nothing). */
function secretsOf(answer: { status: number; body: JsonBody }): JsonBody[] | null {
  if (answer.status === 404) return null;
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.sets ?? answer.body.secrets ?? null;
}

/** The single-key body `pcc secrets set` sends, one request a key. */
const oneKey = (name: string, secretKey: string, secretValue: string, region?: string) => ({
  name,
  isImagePullSecret: false,
  secretKey,
  secretValue,
  ...(region === undefined ? {} : { region }),
});

backendTest("pcc's secrets commands, sent as its source sends them, get what it reads", async (
  backend,
) => {
  await using database = await backend.database();
  await using server = await spawnServer(database.spec);
  const pcc = pccClient(server.baseUrl, server.bootstrapKey!);
  const org = "/v1/organizations/default";

  // `pcc secrets set my-set A=1 B=2`: without --skip it shows the organization's default region
  // (`props['defaultRegion']`), then looks for the set, then sends one PUT a key.
  const properties = await pcc("GET", `${org}/properties`);
  assert.equal(properties.status, 200);
  assert.equal(properties.body.properties.defaultRegion, "us-west");
  assert.equal(secretsOf(await pcc("GET", `${org}/secrets/my-set`)), null);
  const versions: number[] = [];
  for (const [key, value] of [["A", "1"], ["B", "2"]]) {
    const put = await pcc("PUT", `${org}/secrets/my-set`, { json: oneKey("my-set", key, value) });
    assert.ok(put.status >= 200 && put.status < 300, JSON.stringify(put.body));
    assert.equal(put.body.region, "us-west", "the region pcc reports");
    assert.deepEqual(put.body.created, [key]);
    versions.push(put.body.version);
  }
  assert.deepEqual(versions, [1, 2], "each key a write, with a version as any write");

  // `pcc secrets set my-set C=3 A=changed --region us-west`: the region is checked against the
  // organization's regions (`r["code"]`), the set's keys read for the overwrite warning.
  const regions = await pcc("GET", `${org}/regions`);
  assert.ok(regions.body.regions.some((region: { code: string }) => region.code === "us-west"));
  const existing = secretsOf(await pcc("GET", `${org}/secrets/my-set`))!;
  assert.deepEqual(existing.map((secret) => secret.fieldName), ["A", "B"]);
  for (const [key, value] of [["C", "3"], ["A", "changed"]]) {
    const put = await pcc("PUT", `${org}/secrets/my-set`, {
      json: oneKey("my-set", key, value, "us-west"),
    });
    assert.equal(put.body.region, "us-west");
  }
  const east = await pcc("PUT", `${org}/secrets/east-set`, {
    json: oneKey("east-set", "X", "1", "us-east"),
  });
  assert.equal(east.body.region, "us-east");

  // `pcc secrets image-pull-secret my-registry https://index.docker.io/v1/ robot:pass`: the list
  // first (is it there already?), then one PUT with the credentials base64-encoded.
  assert.equal(
    secretsOf(await pcc("GET", `${org}/secrets`))!.some((set) => set.name === "my-registry"),
    false,
  );
  const registry = await pcc("PUT", `${org}/secrets/my-registry`, {
    json: {
      isImagePullSecret: true,
      secretValue: btoa("robot:pass"),
      host: "https://index.docker.io/v1/",
    },
  });
  assert.equal(registry.body.region, "us-west", JSON.stringify(registry.body));

  // `pcc secrets list`: each set's name, region and type; `--region` filters on the server.
  const listed = secretsOf(await pcc("GET", `${org}/secrets`))!;
  assert.deepEqual(listed.map(({ name, region, type }) => [name, region, type]), [
    ["east-set", "us-east", "secret"],
    ["my-registry", "us-west", "imagePullSecret"],
    ["my-set", "us-west", "secret"],
  ]);
  const inEast = secretsOf(await pcc("GET", `${org}/secrets`, { params: { region: "us-east" } }))!;
  assert.deepEqual(inEast.map((set) => set.name), ["east-set"]);

  // `pcc secrets list my-set`: the key names (`s["fieldName"]`), never a value.
  const keys = await pcc("GET", `${org}/secrets/my-set`, { params: { region: "us-west" } });
  assert.deepEqual(secretsOf(keys)!.map((secret) => secret.fieldName), ["A", "B", "C"]);
  for (const value of ["1", "2", "3", "changed"]) {
    assert.ok(!JSON.stringify(keys.body).includes(`"${value}"`), "no value in a set's detail");
  }

  // `pcc secrets unset my-set A`: any JSON body is success; a 404 is "Key not found".
  const unset = await pcc("DELETE", `${org}/secrets/my-set/A`);
  assert.equal(unset.status, 200);
  assert.ok(unset.body && Object.keys(unset.body).length > 0, "a body pcc takes for success");
  assert.equal((await pcc("DELETE", `${org}/secrets/my-set/A`)).status, 404);

  // `pcc secrets delete my-set`: likewise; a 404 is "No set found".
  const deleted = await pcc("DELETE", `${org}/secrets/my-set`);
  assert.equal(deleted.status, 200);
  assert.ok(deleted.body && Object.keys(deleted.body).length > 0, "a body pcc takes for success");
  assert.equal((await pcc("DELETE", `${org}/secrets/my-set`)).status, 404);
  assert.equal(secretsOf(await pcc("GET", `${org}/secrets/my-set`)), null);

  // With PIPECAT_TOKEN and no PIPECAT_ORG, pcc takes the first organization the key may act in.
  const organizations = await pcc("GET", "/v1/organizations");
  assert.equal(organizations.body.organizations[0].name, "default");

  // Every write pcc made is in the audit trail, as any write: the four keys, the registry, the
  // key removed and the set deleted.
  const audit = await api(server.baseUrl, server.bootstrapKey!, "GET", "/audit?limit=200");
  const actions = audit.body.events.map((event: { action: string; set?: string }) =>
    `${event.action} ${event.set}`
  ).reverse();
  assert.deepEqual(actions.filter((action: string) => !action.startsWith("api-key")), [
    "set.write my-set",
    "set.write my-set",
    "set.write my-set",
    "set.write my-set",
    "set.write east-set",
    "image-pull-secret.write my-registry",
    "key.delete my-set",
    "set.delete my-set",
  ]);
});

backendTest(
  "pcc's single-key body is held to every rule of a write: names, region, limits, the path's set",
  async (backend) => {
    await using database = await backend.database();
    await using server = await spawnServer(database.spec);
    const pcc = pccClient(server.baseUrl, server.bootstrapKey!);
    const path = "/v1/organizations/default/secrets/my-set";
    // Every problem at once, as for any body; nothing written.
    const refused = await pcc("PUT", path, {
      json: { ...oneKey("other-set", "BAD-KEY", "1", "mars-1"), extra: true },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(
      refused.body.details.map((detail: { field: string }) => detail.field).sort(),
      ["extra", "name", "region", "secretKey"],
    );
    // The flag false and no key: what is missing is named, not "isImagePullSecret".
    const flagOnly = await pcc("PUT", path, { json: { isImagePullSecret: false } });
    assert.deepEqual(
      flagOnly.body.details.map((detail: { field: string }) => detail.field).sort(),
      ["secretKey", "secretValue"],
    );
    const tooLarge = await pcc("PUT", path, { json: oneKey("my-set", "A", "x".repeat(65_537)) });
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.body.code, "PAYLOAD_TOO_LARGE");
    assert.equal(secretsOf(await pcc("GET", path)), null, "nothing was written");
    // A name of the other type: the documented refusal.
    await pcc("PUT", "/v1/organizations/default/secrets/reg", {
      json: { isImagePullSecret: true, secretValue: btoa("u:p"), host: "ghcr.io" },
    });
    const otherType = await pcc("PUT", "/v1/organizations/default/secrets/reg", {
      json: oneKey("reg", "A", "1"),
    });
    assert.equal(otherType.status, 400);
    assert.equal(otherType.body.code, "GENERIC_BAD_REQUEST");
  },
);

backendTest(
  "an organization in pcc's paths that is not the key's: one answer whether it exists or not, " +
    "and nothing written",
  async (backend) => {
    await using database = await backend.database();
    await using server = await spawnServer(database.spec);
    const created = await serveAction(database.spec, ["create-key", "--organization", "acme"]);
    assert.equal(created.code, 0, created.stderr);
    const acme = pccClient(server.baseUrl, created.stdout.trim());
    const mine = pccClient(server.baseUrl, server.bootstrapKey!);
    const acmeSet = await acme("PUT", "/v1/organizations/acme/secrets/shared", {
      json: oneKey("shared", "A", "acme-value"),
    });
    assert.equal(acmeSet.body.region, "us-west");
    const auditCount = async () =>
      (await api(server.baseUrl, created.stdout.trim(), "GET", "/audit?limit=200")).body.events
        .length;
    const acmeEvents = await auditCount();

    // Every request pcc's secrets commands make, in acme (which exists) and in nowhere (which
    // does not), with default's key.
    const requests: [string, string, unknown?][] = [
      ["GET", "/secrets"],
      ["GET", "/secrets/shared"],
      ["PUT", "/secrets/shared", oneKey("shared", "A", "overwritten")],
      ["PUT", "/secrets/shared", { isImagePullSecret: true, secretValue: "x", host: "r.io" }],
      ["DELETE", "/secrets/shared/A"],
      ["DELETE", "/secrets/shared"],
      ["GET", "/regions"],
      ["GET", "/properties"],
    ];
    for (const [method, path, json] of requests) {
      const answers = [];
      for (const organization of ["acme", "nowhere"]) {
        answers.push(await mine(method, `/v1/organizations/${organization}${path}`, { json }));
      }
      assert.equal(answers[0].status, 404, `${method} ${path}`);
      assert.equal(answers[0].body.code, "NOT_FOUND");
      assert.deepEqual(answers[0], answers[1], `${method} ${path}: the same answer`);
    }

    // acme's set is as it was, and acme's trail holds no event more.
    const detail = await api(server.baseUrl, created.stdout.trim(), "GET", "/secrets/shared");
    assert.deepEqual(detail.body.keys, ["A"]);
    assert.equal(detail.body.type, "secret");
    assert.equal(await auditCount(), acmeEvents);
    assert.deepEqual(secretsOf(await mine("GET", "/v1/organizations/default/secrets")), []);
  },
);

// The real pcc ----------------------------------------------------------------------------------

const PCC = Deno.env.get("VOICEBOT_TEST_PCC");
const PCC_TIMEOUT_MS = 60_000;

/** pcc's output with its panels' borders taken away and its lines joined, as a person reads it. */
const readable = (text: string) => text.replace(/[│╭╮╰╯─┌┐└┘├┤┬┴┼]/g, " ").replace(/\s+/g, " ");

Deno.test({
  name: "the real pcc's secrets commands against voicebot cloud serve, beside voicebot's own CLI",
  ignore: skipped("pcc"),
  fn: () =>
    withDeadline(
      (async () => {
        const sqlite = BACKENDS.find((backend) => backend.name === "sqlite")!;
        await using database = await sqlite.database();
        await using server = await spawnServer(database.spec);
        await using dir = await tempDir();
        const key = server.bootstrapKey!;
        const pccEnv = (organization: string | null) => ({
          PATH: Deno.env.get("PATH") ?? "",
          HOME: dir.path,
          PIPECAT_CONFIG_PATH: join(dir.path, "pipecatcloud.toml"),
          PIPECAT_API_HOST: server.baseUrl.replace(/\/v1$/, ""),
          PIPECAT_TOKEN: key,
          ...(organization === null ? {} : { PIPECAT_ORG: organization }),
          NO_COLOR: "1",
          COLUMNS: "200",
        });
        /** `pcc secrets ARGS` as PIPECAT_ORG=organization (null: unset). */
        const pcc = async (args: string[], organization: string | null = "default") => {
          const output = await new Deno.Command(PCC!, {
            args: ["secrets", ...args],
            clearEnv: true,
            env: pccEnv(organization),
            stdin: "null",
            signal: AbortSignal.timeout(PCC_TIMEOUT_MS),
          }).output();
          const decoder = new TextDecoder();
          const stdout = decoder.decode(output.stdout);
          const stderr = decoder.decode(output.stderr);
          assert.equal(output.code, 0, `pcc ${args.join(" ")}:\n${stdout}\n${stderr}`);
          return readable(stdout + stderr);
        };
        const voicebotEnv = {
          NO_COLOR: "1",
          HOME: dir.path,
          VOICEBOT_API_URL: server.baseUrl,
          VOICEBOT_API_KEY: key,
        };

        assert.match(
          await pcc(["set", "my-set", "A=1", "B=2", "--skip"]),
          /Secret set 'my-set' created successfully in us-west/,
        );
        assert.match(
          await pcc(["set", "my-set", "C=3", "--skip", "--region", "us-west"]),
          /Secret set 'my-set' modified successfully in us-west/,
        );
        // What pcc wrote, voicebot reads; what voicebot writes, pcc lists.
        const shown = await runCli(["cloud", "secrets", "list", "my-set", "--json"], voicebotEnv);
        assert.equal(shown.code, 0, shown.stderr);
        assert.deepEqual(JSON.parse(shown.stdout).keys, ["A", "B", "C"]);
        const written = await runCli(
          ["cloud", "secrets", "set", "my-set", "-f", "-", "--yes"],
          voicebotEnv,
          "D=4\n",
        );
        assert.equal(written.code, 0, written.stderr);
        assert.match(await pcc(["list", "my-set"]), / A B C D /);

        assert.match(
          await pcc([
            "image-pull-secret",
            "my-registry",
            "https://index.docker.io/v1/",
            "u:p",
            "-s",
          ]),
          /Image pull secret 'my-registry' for https:\/\/index\.docker\.io\/v1\/ created successfully in us-west/,
        );
        assert.match(
          await pcc(["list"]),
          /Secret sets for default .* my-registry us-west Image Pull Secret my-set us-west Secret Set/,
        );
        assert.match(
          await pcc(["unset", "my-set", "A", "--skip"]),
          /Secret 'A' deleted successfully from secret set 'my-set'/,
        );
        assert.match(
          await pcc(["unset", "my-set", "A", "--skip"]),
          /Key not found in set 'my-set'/,
        );
        // Without PIPECAT_ORG, pcc asks which organization the key is for.
        assert.match(await pcc(["list", "my-set"], null), / B C D /);
        // Another organization's path finds nothing.
        assert.match(
          await pcc(["list"], "acme"),
          /No secrets sets for namespace \/ organization 'acme'/,
        );
        assert.match(
          await pcc(["delete", "my-set", "--skip"]),
          /Secret set 'my-set' deleted successfully/,
        );
        assert.match(await pcc(["list", "my-set"]), /No secrets sets with name 'my-set' found/);
      })(),
      300_000,
    ),
});
