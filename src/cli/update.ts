/** `voicebot update`: parse the flags, call the update core, report what it did or would do. */
import { define } from "gunshi";
import type { FileChange, UpdateResult } from "../init/update.ts";
import type * as AnswerWords from "../init/answer_words.ts";
import { MergeConflicts, UpdateAvailable } from "../errors.ts";
import { VERSION } from "../version.ts";
import { isInteractive } from "./prompt.ts";
import { relative } from "../paths.ts";
import { shellQuote } from "../words.ts";
import {
  NO_COLOR,
  printInterrupted,
  printJson,
  printNote,
  printSuccess,
  printWarning,
} from "./output.ts";
import { givenAnswers, UPDATE_SCAFFOLD_ARGS } from "./scaffold_options.ts";
import { differ } from "./diff.ts";
import { PIPECAT_CHANGELOG, reportManual } from "./migrate.ts";

export default define({
  name: "update",
  description:
    "Bring a scaffolded project to this version of voicebot, or change its answers, and keep every edit you made.\n" +
    "Each file is merged three ways: as voicebot made it (kept in .voicebot/base.json), as it is now, and as this version makes it. Where you and voicebot changed the same lines, the file gets both versions between conflict markers; it exits 8 and lists them.\n" +
    "Each file keeps its mode, line endings and bytes; a symbolic link stays a link. The write is all or nothing: an update that is killed part-way is undone by the next update or init there.\n" +
    "The scaffold options change answers; an answer not given keeps what voicebot.json records. With no option, on a terminal, it shows the answers, asks whether to change one, and asks before it writes.",
  exitCodes: [
    ["7", "--check: an update would change the project"],
    ["8", "Written with conflicts in the files it lists (--dry-run: it would be)"],
  ],
  helpExamples: [
    ["Update the project in this directory to this version", "voicebot update"],
    ["What it would change, as a diff; nothing written", "voicebot update my-bot --dry-run"],
    ["Change one answer: another text-to-speech service", "voicebot update --tts kokoro_tts"],
    ["In CI: exit 7 when the project is behind this version", "voicebot update --check"],
  ],
  environment: [NO_COLOR],
  args: {
    dir: {
      type: "positional",
      required: false,
      description:
        "The project's directory, or one inside it (default: the current one); the project is where voicebot.json is",
    },
    ...UPDATE_SCAFFOLD_ARGS,
    "overwrite-guide": {
      type: "boolean",
      description:
        "Rewrite AGENTS.md and ASSISTANT.md for the new answers (else those there are kept, as init keeps them)",
    },
    "dry-run": {
      type: "boolean",
      description: "Print what would change as a unified diff; write nothing",
    },
    check: {
      type: "boolean",
      description: "Write nothing; exit 7 when an update would change something, 0 when not",
    },
    json: {
      type: "boolean",
      description: "Print the outcome as JSON (with --dry-run, each file's diff too)",
    },
  },
  run: async (ctx) => {
    const values = ctx.values;
    const { flags, problems } = givenAnswers("update", ctx);
    const dryRun = values["dry-run"] ?? false;
    const check = values.check ?? false;
    const overwriteGuide = values["overwrite-guide"] ?? false;
    // With nothing to go on, on a terminal: the answers are shown, and changed by the questions.
    if (
      !dryRun && !check && !values.json && Object.keys(flags).length === 0 &&
      problems.length === 0 && isInteractive()
    ) {
      await runInteractive(values.dir, overwriteGuide);
      return;
    }
    const [{ updateProject, changesSomething }, words] = await Promise.all([
      import("../init/update.ts"),
      import("../init/answer_words.ts"),
    ]);
    const result = await updateProject({
      cwd: Deno.cwd(),
      dir: values.dir,
      flags,
      write: !dryRun && !check,
      overwriteGuide,
      problems,
    });
    const changed = changesSomething(result);
    const diff = dryRun ? await diffOf(result) : undefined;
    if (!values.json) printInterrupted(result.interrupted, placeOf(result));
    if (values.json) printJson(asJson(result, diff));
    else {
      if (diff !== undefined && diff.length > 0) {
        console.log(diff.map((file) => file.diff).join("").trimEnd());
      }
      report(result, dryRun ? "dry-run" : check ? "check" : "write", changed, words);
    }
    if (check && changed) throw new UpdateAvailable("an update is available.");
    // A dry run ends as the real run would: with conflicts, 8.
    if (!check) exitWithConflicts(result);
  },
});

/** Conflicts written (or, in a dry run, to be): the exit status says so (8), the report named them. */
function exitWithConflicts(result: UpdateResult) {
  const conflicted = result.changes.filter((change) => change.outcome === "conflict");
  if (conflicted.length > 0) throw new MergeConflicts(`${conflicted.length} files hold conflicts.`);
}

/**
 * On a terminal: the recorded answers, "update to this version" or "change an answer", then what
 * the update would do, and a confirmation before anything is written.
 */
async function runInteractive(dir: string | undefined, overwriteGuide: boolean) {
  const [
    { backPrompter: prompt, drawInFrame },
    { askUpdate },
    { updateProject, changesSomething },
    words,
  ] = await Promise.all([
    import("./prompt.ts"),
    import("./wizard/update.ts"),
    import("../init/update.ts"),
    import("../init/answer_words.ts"),
  ]);
  const request = { cwd: Deno.cwd(), dir, flags: {}, write: false, overwriteGuide };
  const recorded = await updateProject(request);
  printInterrupted(recorded.interrupted, placeOf(recorded));
  await prompt.intro(`voicebot ${VERSION}: update ${placeOf(recorded)}`);
  const flags = await askUpdate(prompt, recorded.config, {
    dir: whereOf(recorded),
    action: `Update it to voicebot ${VERSION}`,
  });
  const plan = Object.keys(flags).length > 0
    ? await updateProject({ ...request, flags })
    : recorded;
  // What the update does and what it did, in the questions' frame.
  if (!changesSomething(plan)) {
    await drawInFrame(() => reportEnd(plan, "write", false));
    await prompt.outro("Nothing to do.");
    return;
  }
  await drawInFrame(() => reportChanges(plan, "What the update does", words));
  // Yes is the default only when nothing is removed and nothing conflicts; No is an answer, not
  // an interruption: exit 0 (Ctrl-C stays 130).
  const risky = plan.changes.some((c) => c.outcome === "removed" || c.outcome === "conflict");
  const question = risky
    ? "Write these changes? Files are removed or get conflicts"
    : "Write these changes?";
  if (!await prompt.confirm(question, { initial: !risky })) {
    await prompt.outro("Nothing written.");
    return;
  }
  const result = await updateProject({ ...request, flags, write: true });
  await drawInFrame(() => reportEnd(result, "write", changesSomething(result)));
  await prompt.outro(
    result.changes.some((c) => c.outcome === "conflict") ? "Settle the conflicts." : "Done.",
  );
  exitWithConflicts(result);
}

/** What each outcome is called in the report, and what it means when it needs saying. */
const SAID: Record<FileChange["outcome"], [string, string?]> = {
  added: ["added"],
  updated: ["updated"],
  merged: ["merged", "your edits and voicebot's"],
  conflict: ["CONFLICT", "both versions between markers: settle it"],
  removed: ["removed", "no longer part of the project; you had not edited it"],
  "kept-edited": ["kept", "no longer part of the project, but you edited it"],
  "kept-deleted": ["not restored", "you deleted it; voicebot's version has changed since"],
  migrated: ["migrated", "your code, carried across Pipecat's API changes"],
  // These two are said by whyOf, which names the path and the link.
  "kept-yours": ["kept"],
  linked: ["linked"],
};

/** What a link voicebot left would have been, in the report's words. */
function wouldHave(outcome: FileChange["outcome"]): string {
  return outcome === "added"
    ? "written"
    : outcome === "conflict"
    ? "merged, with conflicts"
    : outcome;
}

/** What was done, or would be: the changes, then how the run ended. */
function report(
  result: UpdateResult,
  mode: "dry-run" | "check" | "write",
  changed: boolean,
  words: typeof AnswerWords,
) {
  if (changed) reportChanges(result, mode === "write" ? "Update" : "What an update does", words);
  reportEnd(result, mode, changed);
}

/**
 * The answers and files the update changes, and what the user should know about them. The answers
 * are said in the words of init's questions (`words`), never by id: `--json` has the ids.
 */
function reportChanges(result: UpdateResult, heading: string, words: typeof AnswerWords) {
  const made = result.from.version ?? "an earlier version";
  printNote(
    `${heading} in ${placeOf(result)}: voicebot ${
      result.from.version === result.to.version ? made : `${made} to ${result.to.version}`
    }.`,
  );
  for (const change of result.answers) {
    const said = words.answerChangeWords(change);
    if (said) printNote(`  ${said}`);
  }
  if (result.dropped.length > 0) {
    printNote(
      `  (recorded answers that do not go with those given give way: ${
        result.dropped.map((key) => words.KEY_WORDS[key]).join(", ")
      })`,
    );
  }
  if (result.base === "unknown") {
    printWarning(
      "this project has no copy of the files as voicebot made them (.voicebot/base.json: " +
        "made before update existed, or removed or damaged since), so your edits cannot be told " +
        "from voicebot's changes: where a file differs from what this version makes, both " +
        "versions are kept between conflict markers for you to settle. The next update merges " +
        "three ways.",
    );
  }
  const width = Math.max(0, ...result.changes.map((change) => SAID[change.outcome][0].length));
  for (const change of result.changes) {
    const [word] = SAID[change.outcome];
    const places = change.conflicts && !change.aside
      ? ` (${change.conflicts} place${change.conflicts === 1 ? "" : "s"})`
      : "";
    const why = whyOf(change);
    printNote(`  ${word.padEnd(width)}  ${change.path}${places}${why ? `: ${why}` : ""}`);
  }
  if (result.from.pipecat && result.to.pipecat && result.from.pipecat !== result.to.pipecat) {
    // The places left to the user name Pipecat's notes; without any, this line does.
    printNote(
      `Pipecat moves from ${result.from.pipecat} to ${result.to.pipecat}: your Python follows its renames, as \`voicebot migrate\` does.${
        result.manual.length === 0 ? ` What else changed: ${PIPECAT_CHANGELOG}` : ""
      }`,
    );
    reportManual(result.manual);
  }
  reportGuides(result);
}

/** What the report says after a change's path. */
function whyOf(change: FileChange): string | undefined {
  const { link, aside, would } = change;
  if (aside) {
    return `not text, and changed by you and by voicebot; yours is untouched, voicebot's is written beside it as ${aside}`;
  }
  if (change.outcome === "linked") {
    return would === "removed"
      ? `a link to ${
        link!.to
      }: no longer part of the project, but voicebot removes nothing through a link; left as it is`
      : `a link to ${
        link!.to
      }, not a file inside the project that voicebot may write; left as it is (voicebot would have ${
        wouldHave(would!)
      } it)`;
  }
  const [, why] = SAID[change.outcome];
  if (link) return `a link to ${link.file}, ${change.outcome} there${why ? `; ${why}` : ""}`;
  if (change.outcome === "kept-yours") {
    return `yours; voicebot has its own ${change.path}, not written now nor at any later update, until you remove yours`;
  }
  return why;
}

/** The last line: nothing to do, nothing written, written, or written with conflicts. */
function reportEnd(result: UpdateResult, mode: "dry-run" | "check" | "write", changed: boolean) {
  const place = placeOf(result);
  const conflicted = result.changes.filter((change) => change.outcome === "conflict");
  if (!changed) {
    printSuccess(
      `Nothing to update in ${place}: it is as voicebot ${result.to.version} makes it from its answers, with your edits.`,
    );
    reportGuides(result);
  } else if (mode === "dry-run") {
    printNote(
      conflicted.length > 0
        ? `Nothing written (--dry-run); the update would leave conflicts in ${
          conflicted.map((c) => c.path).join(", ")
        }.`
        : "Nothing written (--dry-run).",
    );
  } else if (mode === "check") {
    printNote(
      `Nothing written (--check); \`voicebot update ${shellQuote(whereOf(result))}\` does it.`,
    );
  } else if (conflicted.length === 0) printSuccess(`Updated ${place}.`);
  else {
    const marked = conflicted.filter((c) => !c.aside).map((c) => c.path);
    const ways = [
      ...(marked.length > 0
        ? [
          `in ${
            marked.length === 1 ? marked[0] : `each of ${marked.join(", ")}`
          }, keep the lines you want between \`<<<<<<< yours\` and \`>>>>>>> voicebot ${result.to.version}\`, delete the marker lines, then run update again`,
        ]
        : []),
      ...conflicted.filter((c) => c.aside).map((c) =>
        `compare ${c.path} with ${c.aside}, keep what you want in ${c.path}, and delete ${c.aside}`
      ),
    ];
    printWarning(
      `updated ${place}, with conflicts in ${conflicted.map((c) => c.path).join(", ")}: ${
        ways.join("; ")
      }.`,
    );
  }
}

/** The project's directory as the user types it: relative to where they are. */
function whereOf(result: UpdateResult): string {
  return relative(Deno.cwd(), result.root) || ".";
}

/**
 * The same, as a sentence names it: a project above the current directory by its full path (`..`
 * before a colon reads as an ellipsis).
 */
function placeOf(result: UpdateResult): string {
  const where = whereOf(result);
  if (where === ".") return "this directory";
  return /^\.\.(\/\.\.)*$/.test(where) ? result.root : where;
}

/** Guides an update left as they were, though a newer template exists. */
function reportGuides(result: UpdateResult) {
  const older = result.kept.filter((guide) => guide.age === "older").map((guide) => guide.path);
  if (older.length === 0) return;
  printNote(
    `${older.join(" and ")} came from an older voicebot and ${
      older.length === 1 ? "is" : "are"
    } kept; \`voicebot update ${shellQuote(whereOf(result))} --overwrite-guide\` rewrites ${
      older.length === 1 ? "it" : "them"
    }.`,
  );
}

/** The unified diff of each file that would change, the record's too; the kept base is left out. */
async function diffOf(result: UpdateResult): Promise<{ path: string; diff: string }[]> {
  const [patch, { shown }] = await Promise.all([differ(), import("../init/file_form.ts")]);
  return result.changes.flatMap((change) => {
    // A file that is not text: voicebot's version, as the new file beside it.
    if (change.aside) {
      return [{ path: change.path, diff: patch(change.aside, null, shown(change.data!)) }];
    }
    if (change.before === change.after) return [];
    return [{
      path: change.path,
      diff: patch(
        change.link?.file ?? change.path,
        change.before,
        change.after,
      ),
    }];
  });
}

function asJson(result: UpdateResult, diff?: { path: string; diff: string }[]) {
  return {
    root: result.root,
    from: result.from,
    to: result.to,
    answers: result.answers,
    dropped: result.dropped,
    base: result.base,
    interrupted: result.interrupted,
    files: result.changes.map(({ path, outcome, conflicts, link, would, aside }) => ({
      path,
      outcome,
      ...(conflicts ? { conflicts } : {}),
      ...(link ? { link } : {}),
      ...(would ? { would } : {}),
      ...(aside ? { aside } : {}),
      ...(diff ? { diff: diff.find((file) => file.path === path)?.diff ?? null } : {}),
    })),
    base_changed: result.baseChanged,
    manual: result.manual,
    written: result.written,
  };
}
