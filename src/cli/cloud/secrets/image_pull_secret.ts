/**
 * `voicebot cloud secrets image-pull-secret <name> <host> [credentials]`: registry credentials,
 * from the argument, `--username U --password-stdin`, hidden prompts on a terminal, or
 * `user:password` on stdin. Updated in place when the set exists.
 */
import { define } from "gunshi";
import { ProvisioningFailedError, UsageError } from "../../../errors.ts";
import { printJson, printNote, printSuccess } from "../../output.ts";
import { isInteractive, password } from "../../prompt.ts";
import { connectionArgs, connectionEnv } from "../connect.ts";
import { connectApi } from "./api.ts";
import { checkWaitArgs, readStdin, waitArgs, waitWithSpinner } from "./io.ts";
import { summaryOf } from "./set.ts";

export default define({
  name: "image-pull-secret",
  description: "Create or update the credentials used to pull images from a private registry.\n" +
    "Without credentials: hidden prompts on a terminal, else username:password piped on stdin.",
  exitCodes: [["6", "With --wait: the set failed to provision (its error is printed)"]],
  helpExamples: [
    [
      "Credentials for ghcr.io, asked at hidden prompts",
      "voicebot cloud secrets image-pull-secret ghcr-pull ghcr.io",
    ],
    [
      "The token on stdin, never on the command line",
      "voicebot cloud secrets image-pull-secret ghcr-pull ghcr.io --username octocat --password-stdin < token.txt",
    ],
    [
      "Wait until it is ready (exit 6 if it fails)",
      "voicebot cloud secrets image-pull-secret ghcr-pull ghcr.io --wait",
    ],
  ],
  environment: connectionEnv,
  args: {
    name: { type: "positional", description: "The image pull secret (created if new)" },
    host: {
      type: "positional",
      description:
        "The registry: host[:port], as in an image name (ghcr.io); no scheme, path or user@",
    },
    credentials: {
      type: "positional",
      required: false,
      metavar: "username:password",
      description: "The credentials (or --username with --password-stdin, or stdin)",
    },
    encode: {
      type: "boolean",
      negatable: true,
      default: true,
      description: "Base64-encode username:password (--no-encode: it is base64 already)",
    },
    username: { type: "string", description: "Registry username; with --password-stdin" },
    "password-stdin": {
      type: "boolean",
      description: "Read the password from stdin (needs --username)",
    },
    region: {
      type: "string",
      short: "r",
      description: "Region of a new one (default: the organization's default region)",
    },
    ...waitArgs,
    ...connectionArgs,
  },
  run: async (ctx) => {
    const values = ctx.values;
    const [name, host, credentialsArg, ...extra] = ctx.positionals.slice(ctx.commandPath.length);
    if (name === undefined || host === undefined) {
      throw new UsageError("missing the name or the registry host.", {
        hint: "`voicebot cloud secrets image-pull-secret NAME HOST [username:password]`.",
      });
    }
    if (extra.length) throw new UsageError("too many arguments: NAME HOST [credentials].");
    checkWaitArgs(values, ctx.explicit);
    const { checkImagePullSecretInput, encodeCredentials, writeImagePullSecret } = await import(
      "../../../secrets/image_pull_secret.ts"
    );
    checkImagePullSecretInput(name, host);
    const credentials = await readCredentials(
      credentialsArg,
      values.username,
      values["password-stdin"] ?? false,
      values.encode,
    );
    const encoded = encodeCredentials(credentials, values.encode);
    const api = await connectApi(values);
    const written = await writeImagePullSecret(api, {
      name,
      host,
      credentials: encoded,
      region: values.region,
    });
    const { updated } = written;
    let set = written.set;
    if (values.wait) {
      const written =
        `${updated ? "updated" : "created"} image pull secret "${name}" for ${host} ` +
        `in ${set.region}`;
      set = summaryOf(
        await waitWithSpinner(api, name, values["wait-timeout"], !values.json, written),
      );
    }
    if (values.json) printJson({ set, updated });
    else if (set.status !== "failed") {
      printSuccess(
        `${
          updated ? "Updated" : "Created"
        } image pull secret "${name}" for ${host} in ${set.region}. Status: ${set.status}.`,
      );
    }
    if (set.status === "failed") {
      throw new ProvisioningFailedError(`"${name}" failed to provision: ${set.errorMessage}`);
    }
    if (!values.json && set.status !== "ready") {
      printNote(`Next: check it is ready with \`voicebot cloud secrets list ${name} --no-sets\`.`);
    }
  },
});

/**
 * Where the credentials come from, one source only: the argument; `--username` with the
 * password on stdin; hidden prompts on a terminal; else `user:password` on stdin.
 */
async function readCredentials(
  argument: string | undefined,
  username: string | undefined,
  passwordStdin: boolean,
  encode: boolean,
): Promise<string> {
  if (passwordStdin || username !== undefined) {
    if (argument !== undefined) {
      throw new UsageError("give the credentials as an argument or with --username, not both.");
    }
    if (!passwordStdin || username === undefined) {
      throw new UsageError("--username and --password-stdin go together.", {
        hint: '`echo "$PASSWORD" | voicebot cloud secrets image-pull-secret NAME HOST ' +
          "--username USER --password-stdin`.",
      });
    }
    if (!encode) throw new UsageError("--no-encode takes the encoded credentials as an argument.");
    // One trailing newline, as `echo` adds, is not part of the password.
    const secret = (await readStdin("the password", {
      hint: 'pipe it in: `echo "$PASSWORD" | voicebot cloud secrets image-pull-secret NAME HOST ' +
        "--username USER --password-stdin`; or, on a terminal, leave out --username and " +
        "--password-stdin to type both at hidden prompts.",
    })).replace(/\r?\n$/, "");
    return `${username}:${secret}`;
  }
  if (argument !== undefined) return argument;
  if (isInteractive()) {
    if (!encode) return await password("Credentials (base64 of username:password)");
    const user = await password("Registry username");
    const secret = await password("Registry password");
    return `${user}:${secret}`;
  }
  // Stdout is not a terminal (`--json | jq`, `| tee log`): nothing prompts, and stdin is read.
  const credentials = await readStdin("the credentials", {
    hint: "stdout is not a terminal, so nothing prompts. Pipe `username:password` in, or the " +
      "password alone with `--username USER --password-stdin`; or run it with stdout on the " +
      "terminal to type them at hidden prompts.",
  });
  return credentials.replace(/\r?\n$/, "");
}
