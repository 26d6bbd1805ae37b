/**
 * The platform's documented secrets API (tests/data/platform-secrets.openapi.json), served by
 * Prism (see helpers_prism.ts), not by us:
 *
 * - every `voicebot cloud secrets` command, spawned as a user runs it, against a mock that
 *   implements only the documentation (and refuses any request it does not describe);
 * - the documented requests against `voicebot cloud serve` on both backends, through Prism's
 *   validating proxy, which names every way an answer departs from the documentation.
 */
import assert from "node:assert/strict";
import { join } from "pathe";
import { runCli, transcript } from "./helpers_secrets.ts";
import { startPrism } from "./helpers_prism.ts";
import {
  api,
  backendTest,
  documented,
  spawnServer,
  tempDir,
  withDeadline,
} from "./helpers_server.ts";

const KEY = "vb_sk_0123456789abcdef_documentedOnlyServerKeyForTheMockAAAAAAAAAA";
const PRISM_TEST_TIMEOUT_MS = 300_000;

Deno.test({
  name:
    "every cloud secrets command works against a server that implements only the documented API",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withDeadline(
      (async () => {
        await using prism = await startPrism({ mock: true });
        await using dir = await tempDir();
        const home = join(dir.path, "home");
        await Deno.mkdir(home);
        const env = {
          NO_COLOR: "1",
          HOME: home,
          XDG_CONFIG_HOME: join(home, ".config"),
          VOICEBOT_API_URL: prism.baseUrl,
          VOICEBOT_API_KEY: KEY,
          VOICEBOT_ORG: "acme",
        };
        const cli = (...args: string[]) => runCli(["cloud", "secrets", ...args], env);
        const ok = async (...args: string[]) => {
          const result = await cli(...args);
          assert.equal(result.code, 0, `${args.join(" ")}:\n${result.stderr}${result.stdout}`);
          return result;
        };
        const requests = () =>
          [...prism.log().matchAll(/\[HTTP SERVER\] (\w+) (\S+) /g)].map(([, method, path]) =>
            `${method.toUpperCase()} ${path}`
          );
        const puts = () => requests().filter((request) => request.startsWith("PUT ")).length;

        // The mock answers every set as the documentation's example: named "string", pending.
        assert.match((await ok("list")).stdout, /│ string │ secret │ string │ pending │/);
        const shown = await ok("list", "my-set", "--json");
        assert.deepEqual(JSON.parse(shown.stdout).keys, ["string"]);
        assert.match((await ok("list", "my-set")).stdout, /Status: +pending/);
        // The documented filter (client_test sees the query); the mock's sets are in "string".
        assert.match((await ok("list", "--region", "us-west")).stderr, /No secret sets .* us-west/);

        // set: the documented body, and the documented answer read as it is.
        const created = await ok("set", "my-set", "NEW_KEY=1", "--yes");
        assert.match(
          created.stderr,
          /secret set "my-set" in string: created NEW_KEY\. Status: pending/,
        );
        // A stored key, with no fingerprints to tell whether it changes: reported as written.
        const written = await ok("set", "my-set", "string=2", "--yes", "--json");
        assert.deepEqual(JSON.parse(written.stdout), {
          set: { name: "my-set", type: "secret", region: "string", status: "pending" },
          created: [],
          written: ["string"],
          removed: [],
        });
        const plan = await ok("set", "my-set", "string=2", "--dry-run");
        assert.match(plan.stdout, /write {6}string/);
        assert.match(plan.stdout, /no value fingerprints/);

        // What the documentation cannot do safely is refused before anything is sent.
        const before = puts();
        const replace = await cli("set", "my-set", "A=1", "--replace", "--yes");
        assert.equal(replace.code, 2, replace.stderr);
        assert.match(replace.stderr, /documented API, which has no write that replaces/);
        const diff = await cli("diff", "my-set", "A=1");
        assert.equal(diff.code, 2, diff.stderr);
        assert.match(diff.stderr, /fingerprints/);
        // Versions and the audit trail are voicebot's own: said plainly, nothing written.
        const writes = () => requests().filter((request) => !request.startsWith("GET ")).length;
        const writesBefore = writes();
        for (
          const args of [
            ["history", "my-set"],
            ["history", "my-set", "--purge", "--yes"],
            ["rollback", "my-set", "1", "--yes"],
          ]
        ) {
          const refused = await cli(...args);
          assert.equal(refused.code, 2, `${args.join(" ")}: ${refused.stderr}`);
          assert.match(refused.stderr, /is not offered by the API at .*; nothing was changed/);
        }
        const audit = await runCli(["cloud", "audit"], env);
        assert.equal(audit.code, 2, audit.stderr);
        assert.match(audit.stderr, /the audit trail is not offered by the API/);
        assert.equal(writes(), writesBefore);
        assert.equal(puts(), before);

        // A name the SPEC allows and the documentation does not: the server's answer, and why.
        const upper = await cli("set", "MY", "A=1", "--yes");
        assert.equal(upper.code, 2, upper.stderr);
        assert.match(upper.stderr, /3 to 63 lower-case letters, digits, hyphens and dots/);

        // --wait polls the documented route; the mock never leaves pending.
        const waited = await cli("set", "my-set", "A=1", "--yes", "--wait", "--wait-timeout", "1");
        assert.equal(waited.code, 1, waited.stderr);
        assert.match(waited.stderr, /still pending after 1 s/);

        const unset = await ok("unset", "my-set", "NEW_KEY", "--yes");
        assert.match(unset.stderr, /Removed NEW_KEY from set "my-set" \(status pending\)/);
        assert.ok(requests().includes("DELETE /v1/secrets/my-set/NEW_KEY"), requests().join("\n"));
        await ok("delete", "my-set", "--yes");

        // Registry credentials: the documented body, the host as the URL the documentation takes.
        for (const host of ["ghcr.io", "https://index.docker.io/v1/"]) {
          const pull = await ok("image-pull-secret", "my-registry", host, "robot:pa55word");
          assert.match(pull.stderr, new RegExp(`image pull secret "my-registry" for ${host}`));
        }

        // Every request was one the contract describes: Prism refused none.
        assert.doesNotMatch(prism.log(), /UNPROCESSABLE_ENTITY|NO_PATH_MATCHED|NO_METHOD_MATCHED/);
        assert.ok(!transcript.join("").includes("pa55word"));

        // `secrets run` needs voicebot's runtime keys, which the documentation has not: said so,
        // exit 2, after one request without any key (Prism answers it 401), the runtime key never
        // sent and no value read.
        const runtimeKey = `vb_rk_${"1".repeat(16)}_${"A".repeat(43)}`;
        const seen = requests().length;
        const logged = prism.log().length;
        const run = await runCli(["cloud", "secrets", "run", "my-set", "--", "true"], {
          ...env,
          VOICEBOT_RUNTIME_KEY: runtimeKey,
        });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /does not offer runtime keys.*the runtime key was not sent/s);
        assert.deepEqual(requests().slice(seen), ["GET /v1/secrets"]);
        // Prism answers 401 only to a request without a bearer key: the probe carried none.
        const probe = prism.log().slice(logged);
        assert.match(probe, /Invalid security scheme used/);
        assert.match(probe, /Responding with "401"/);
      })(),
      PRISM_TEST_TIMEOUT_MS,
    ),
});

backendTest(
  "the documented requests get documented answers from voicebot cloud serve",
  async (backend) => {
    await withDeadline(
      (async () => {
        await using database = await backend.database();
        await using server = await spawnServer(database.spec, { args: ["--provision-delay", "0"] });
        await using prism = await startPrism({ proxyTo: server.baseUrl });
        const key = server.bootstrapKey!;
        const checked: string[] = [];
        const call = async (method: string, path: string, status: number, body?: unknown) => {
          const response = await api(prism.baseUrl, key, method, path, body);
          const what = `${method} ${path}`;
          assert.equal(response.status, status, `${what}: ${JSON.stringify(response.body)}`);
          // Prism names here every way the answer departs from the documented one.
          assert.equal(response.headers.get("sl-violations"), null, what);
          checked.push(what);
          return response.body;
        };

        assert.deepEqual(await call("GET", "/secrets", 200), { sets: [] });
        await call("PUT", "/secrets/my-set", 202, {
          ...documented({ OPENAI_API_KEY: "sk-1", DEEPGRAM_API_KEY: "dg-1" }),
          region: "us-east",
        });
        const merged = await call("PUT", "/secrets/my-set", 202, documented({ A: "1" }));
        assert.deepEqual([merged.status, merged.region], ["OK", "us-east"]);
        const set = await call("GET", "/secrets/my-set", 200);
        assert.deepEqual(set.secrets, [
          { fieldName: "A" },
          { fieldName: "DEEPGRAM_API_KEY" },
          { fieldName: "OPENAI_API_KEY" },
        ]);
        await call("PUT", "/secrets/my-registry", 202, {
          isImagePullSecret: true,
          host: "https://index.docker.io/v1/",
          secretValue: btoa("robot:pass"),
        });
        // The documentation's 400 examples, as requests: regionMismatch, cannotChangeSecretType,
        // invalidImagePullSecretUpdate and invalidRegion (Prism answers validationError's malformed
        // body itself, without forwarding it; tests/server_routes_test.ts sends it to the server).
        const registryBody = {
          isImagePullSecret: true,
          host: "https://r.io/",
          secretValue: "cjpw",
        };
        const refusals: [string, unknown, string][] = [
          ["my-set", documented({ A: "2" }, { region: "us-west" }), "GENERIC_BAD_REQUEST"],
          ["my-set", registryBody, "GENERIC_BAD_REQUEST"],
          ["my-registry", documented({ A: "2" }), "GENERIC_BAD_REQUEST"],
          ["new-set", documented({ A: "2" }, { region: "mars-1" }), "VALIDATION_ERROR"],
        ];
        for (const [name, body, code] of refusals) {
          const refused = await call("PUT", `/secrets/${name}`, 400, body);
          assert.equal(refused.code, code, `${name}: ${JSON.stringify(body)}`);
        }
        assert.deepEqual(
          (await call("GET", "/secrets?region=us-east", 200)).sets.map((s: { name: string }) =>
            s.name
          ),
          ["my-set"],
        );
        const regions = await call("GET", "/regions", 200);
        assert.ok(regions.regions.every((r: { display_name?: string }) => r.display_name));
        assert.deepEqual(
          await call("DELETE", "/secrets/my-set/A", 200).then((b) => b.status),
          "OK",
        );
        await call("DELETE", "/secrets/my-set/A", 404);
        assert.deepEqual(await call("DELETE", "/secrets/my-set", 200), { status: "OK" });
        await call("DELETE", "/secrets/my-set", 404);
        await call("GET", "/secrets/my-set", 404);
        const unauthorized = await api(prism.baseUrl, "vb_sk_nope", "GET", "/secrets");
        assert.equal(unauthorized.status, 401);
        assert.equal(unauthorized.headers.get("sl-violations"), null);
        assert.equal(checked.length, 16);
      })(),
      PRISM_TEST_TIMEOUT_MS,
    );
  },
);
