/** `voicebot migrate`: parse the flags, call the migration core, report what it did or would do. */
import { define } from "gunshi";
import type { MigrateResult } from "../migrate/project.ts";
import type { ManualItem } from "../migrate/engine.ts";
import { UpdateAvailable } from "../errors.ts";
import { relative } from "../paths.ts";
import { count, shellQuote } from "../words.ts";
import {
  NO_COLOR,
  printInterrupted,
  printJson,
  printNote,
  printSuccess,
  printWarning,
} from "./output.ts";
import { differ } from "./diff.ts";

/** Pipecat's own account of each release, for the places migrate leaves to the user. */
export const PIPECAT_CHANGELOG = "https://github.com/pipecat-ai/pipecat/blob/main/CHANGELOG.md";

export default define({
  name: "migrate",
  description:
    "Carry a Pipecat project's Python across Pipecat's API changes, any Pipecat project.\n" +
    "Every .py file under DIR (not in .venv, venv, node_modules, .git) is rewritten where it uses a name, module, keyword or service setting that Pipecat changed after --from, up to --to; only those change, every other byte stays. What cannot be rewritten safely is listed with its file and line, and what to do. The pyproject.toml's pipecat-ai requirement is moved to --to. The write is all or nothing; a second run changes nothing.",
  exitCodes: [["7", "--check: a migration would change the project"]],
  helpExamples: [
    ["What a migration would change, as a diff; nothing written", "voicebot migrate --dry-run"],
    [
      "Migrate the project in ./my-bot, its code written for 1.2.0",
      "voicebot migrate my-bot --from 1.2.0",
    ],
    ["In CI: exit 7 while code still uses renamed names", "voicebot migrate --check"],
  ],
  environment: [NO_COLOR],
  args: {
    dir: {
      type: "positional",
      required: false,
      description: "The project's directory (default: the current one)",
    },
    from: {
      type: "string",
      description:
        "The Pipecat release the code is written for (default: the pipecat-ai floor in the nearest pyproject.toml, or what its uv.lock pins)",
    },
    to: {
      type: "string",
      description: "The release to migrate to (default: the one this voicebot's projects use)",
    },
    "dry-run": {
      type: "boolean",
      description: "Print what would change as a unified diff; write nothing",
    },
    check: {
      type: "boolean",
      description: "Write nothing; exit 7 when a migration would change something, 0 when not",
    },
    json: {
      type: "boolean",
      description:
        "Print the outcome as JSON: each change, each place left to you (with --dry-run, each file's diff)",
    },
  },
  run: async (ctx) => {
    const values = ctx.values;
    const dryRun = values["dry-run"] ?? false;
    const check = values.check ?? false;
    const { migrateProject } = await import("../migrate/project.ts");
    const result = await migrateProject({
      cwd: Deno.cwd(),
      dir: values.dir,
      from: values.from,
      to: values.to,
      write: !dryRun && !check,
    });
    const patch = dryRun ? await differ() : undefined;
    const diffs = result.files.map((file) => patch?.(file.path, file.before, file.after));
    if (values.json) printJson(asJson(result, diffs));
    else {
      printInterrupted(result.interrupted, placeOf(result));
      if (patch) console.log(diffs.join("").trimEnd());
      report(result, dryRun ? "dry-run" : check ? "check" : "write");
    }
    if (check && result.files.length > 0) {
      throw new UpdateAvailable(`a migration would change ${count(result.files.length, "file")}.`);
    }
  },
});

function placeOf(result: MigrateResult): string {
  const where = relative(Deno.cwd(), result.root) || ".";
  return where === "." ? "this directory" : where;
}

function report(result: MigrateResult, mode: "dry-run" | "check" | "write") {
  const place = placeOf(result);
  const source = result.fromSource === "--from" ? "" : ` (from ${result.fromSource})`;
  printNote(
    `Pipecat ${result.from}${source} to ${result.to} in ${place}: ${
      count(result.scanned, "Python file")
    }.`,
  );
  for (const file of result.files) {
    printNote(
      `  changed  ${file.path}${
        file.applied.length > 0 ? ` (${count(file.applied.length, "change")})` : ""
      }`,
    );
  }
  if (result.unparsable.length > 0) {
    printWarning(
      `not valid Python, left as ${result.unparsable.length === 1 ? "it is" : "they are"}: ${
        result.unparsable.join(", ")
      }.`,
    );
  }
  reportManual(result.manual);
  if (result.files.length === 0) printSuccess(`Nothing to migrate in ${place}.`);
  else if (mode === "dry-run") printNote("Nothing written (--dry-run).");
  else if (mode === "check") {
    const where = relative(Deno.cwd(), result.root) || ".";
    printNote(
      `Nothing written (--check); \`voicebot migrate ${
        where === "." ? "" : `${shellQuote(where)} `
      }--from ${result.from}\` does it.`,
    );
  } else {printSuccess(
      `Migrated ${place} to Pipecat ${result.to}: ${count(result.files.length, "file")} changed.`,
    );}
}

/** The places a migration leaves to the user: where, what changed, what to do. */
export function reportManual(manual: readonly (ManualItem & { path: string })[]) {
  if (manual.length === 0) return;
  printWarning(
    `${count(manual.length, "place")} for you to change by hand ` +
      `(Pipecat's notes on each release: ${PIPECAT_CHANGELOG}):`,
  );
  for (const item of manual) {
    printNote(`  ${item.path}:${item.line}:${item.column}: ${item.summary} (${item.id})`);
    if (item.action) printNote(`      ${item.action}`);
  }
}

function asJson(result: MigrateResult, diffs: (string | undefined)[]) {
  return {
    root: result.root,
    from: result.from,
    from_source: result.fromSource,
    to: result.to,
    scanned: result.scanned,
    files: result.files.map((file, i) => ({
      path: file.path,
      changes: file.applied,
      ...(diffs[i] === undefined ? {} : { diff: diffs[i] }),
    })),
    manual: result.manual,
    unparsable: result.unparsable,
    interrupted: result.interrupted,
    written: result.written,
  };
}
