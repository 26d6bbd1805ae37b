/**
 * Where the project goes: the directory asked for and checked as soon as it is given (files a
 * scaffold would write over, a directory inside a project), a free one offered beside a taken one,
 * and the offer to refresh guides that came from another voicebot version.
 */
import type { ScaffoldInput } from "../../init/config.ts";
import { type GuideKind, sortGuides } from "../../init/guides.ts";
import { guidesFor, initProject, scaffoldPaths } from "../../init/mod.ts";
import { canSee, type PlannedFile } from "../../init/writer.ts";
import { CancelledError } from "../../errors.ts";
import { basename, dirname, join, relative, resolve } from "../../paths.ts";
import { andList } from "../../words.ts";
import type { Prompter } from "../prompt.ts";
import { unlessBack } from "./back.ts";

export const DEFAULT_DIR = "my-voice-bot";

/** Where the project goes, as the questions have it so far: kept across a way back and forward. */
export interface Target {
  dir?: string;
  overwriteGuide: boolean;
}

/** The guides a directory takes (`guidesFor`), and which kind they are. */
type FoundGuides = { guides: PlannedFile[]; kind: GuideKind };

/**
 * The target directory, checked as soon as it is given: files already there that a scaffold
 * could write over are named, and settled there: another directory, or cancel, or (with
 * `guidesHere`, before the scaffold's questions) going on there with a coding agent, whose guides
 * never overwrite, the files kept. A scaffold is not offered there: init never overwrites, so it
 * would only be refused after its questions. (A scaffolded project is not checked: only its own
 * guides are left to write.) `fallback` is shown grey and taken by Enter; typing replaces it.
 * Beside `project`, nothing inside it is taken. Returns the directory with the guides it takes,
 * and whether only they are to be written there.
 */
export async function askDirectory(
  prompt: Prompter,
  cwd: string,
  { given, fallback: offered, project, guidesHere = false }: {
    given?: string;
    fallback: string;
    project?: string;
    guidesHere?: boolean;
  },
): Promise<{ dir: string; guidesOnly?: true } & FoundGuides> {
  let dir = given;
  let fallback = offered;
  for (;;) {
    dir ??= await prompt.text("Where should the project go?", {
      placeholder: fallback,
      defaultValue: fallback,
      validate: (value) => directoryProblem(cwd, value, project),
    });
    const root = resolve(cwd, dir);
    const found = await guidesFor(root);
    const clashes = found.kind === "project" ? [] : await existingScaffoldFiles(root);
    if (clashes.length === 0) {
      if (found.kind !== "project") await sayWhatIsThere(prompt, dir, root);
      return { dir, ...found };
    }
    const shown = clashes.length > 6
      ? [...clashes.slice(0, 5), `${clashes.length - 5} more`]
      : clashes;
    const them = clashes.length === 1 ? "it" : "them";
    const choice = await unlessBack(prompt.select(
      `${dir} already has ${
        andList(shown)
      }: a scaffolded bot would write over ${them}, and init never overwrites.`,
      [
        { value: "other", label: "Choose another directory" },
        ...guidesHere
          ? [{
            value: "guides",
            label: `Go on in ${dir} with a coding agent`,
            hint: "writes only the guides; your files are kept",
          }]
          : [],
        { value: "cancel", label: "Cancel" },
      ],
      "other",
    )) ?? "other";
    if (choice === "cancel") throw new CancelledError();
    if (choice === "guides") return { dir, guidesOnly: true, ...found };
    fallback = freeDirectory(cwd, dir);
    dir = undefined;
  }
}

/** A directory that has files already, none in the way: what is there, and that it stays. */
async function sayWhatIsThere(prompt: Prompter, dir: string, root: string) {
  let names: string[];
  try {
    names = [...Deno.readDirSync(root)].map((entry) =>
      entry.isDirectory ? `${entry.name}/` : entry.name
    )
      .sort();
  } catch {
    return; // missing: it will be created
  }
  if (names.length === 0) return;
  const shown = names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
  await prompt.info(
    `${dir} already has ${andList(shown)}: the project goes beside ${
      names.length === 1 ? "it" : "them"
    }, and nothing there is overwritten.`,
  );
}

/** The files under `root` that some scaffold writes (whether they differ is known only later). */
async function existingScaffoldFiles(root: string): Promise<string[]> {
  return (await scaffoldPaths()).filter((path) => {
    try {
      Deno.statSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  });
}

function directoryProblem(cwd: string, value: string, project?: string): string | undefined {
  if (value.trim() === "") return "a directory is needed, e.g. my-voice-bot";
  // As a TARGET_DIR, `quickstart` means the preset, not a directory of that name.
  if (value === "quickstart") return "quickstart names the preset (`voicebot init quickstart`)";
  const root = resolve(cwd, value);
  if (project && !relative(project, root).startsWith("..")) {
    return `that is inside the project ${basename(project)}; a new one goes beside it, e.g. ${
      relative(cwd, join(dirname(project), DEFAULT_DIR))
    }`;
  }
  try {
    if (!Deno.statSync(root).isDirectory) return `${value} is a file`;
  } catch {
    // Missing: it will be created.
  }
  return undefined;
}

/**
 * After the directory at `root`: the guide refresh offer, where a guide there came from another
 * voicebot version. Escape there asks for the directory again.
 */
export async function directoryChosen(
  prompt: Prompter,
  root: string,
  { guides, kind }: FoundGuides,
  overwriteGuide: boolean,
): Promise<{ kind: GuideKind; overwriteGuide: boolean }> {
  const refresh = await offerGuideRefresh(prompt, root, guides, kind);
  return { kind, overwriteGuide: overwriteGuide || refresh };
}

/** A guide stamped by another voicebot version is offered for refresh (default yes). */
async function offerGuideRefresh(
  prompt: Prompter,
  root: string,
  guides: readonly PlannedFile[],
  kind: GuideKind,
): Promise<boolean> {
  const { kept } = sortGuides(root, guides, kind, false);
  const stale = kept.filter((guide) => guide.age !== null);
  if (stale.length === 0) return false;
  const names = stale.map((guide) => `${guide.path} (voicebot ${guide.writtenBy})`).join(", ");
  return await prompt.confirm(
    `${names} came from another voicebot version. Replace with this version's?`,
    { initial: true },
  );
}

/**
 * Another directory, from the summary, `fallback` offered (or Escape: the same one), and its
 * guide refresh offer.
 */
export async function changeDirectory(
  prompt: Prompter,
  cwd: string,
  target: Target,
  project: string | undefined,
  fallback: string,
): Promise<Target> {
  const other = await unlessBack(askDirectory(prompt, cwd, { fallback, project }));
  if (other === undefined) return target;
  const chosen = await unlessBack(
    directoryChosen(prompt, resolve(cwd, other.dir), other, target.overwriteGuide),
  );
  return chosen ? { dir: other.dir, overwriteGuide: chosen.overwriteGuide } : target;
}

/** Beside a directory that is taken, the first free one of its name: `other` gives `other-2`. */
export function freeDirectory(cwd: string, dir: string): string {
  const root = resolve(cwd, dir);
  const stem = basename(root).replace(/-\d+$/, "");
  for (let n = 2;; n++) {
    const candidate = join(dirname(root), `${stem}-${n}`);
    if (!canSee(candidate)) return relative(cwd, candidate);
  }
}

/** The files of this project that a real run would refuse to write over. */
export async function conflictsIn(
  cwd: string,
  dir: string,
  flags: ScaffoldInput,
  overwriteGuide: boolean,
): Promise<readonly string[]> {
  const plan = await initProject({ cwd, dir, flags, dryRun: true, overwriteGuide });
  return plan.kind === "dry-run" ? plan.conflicts : [];
}
