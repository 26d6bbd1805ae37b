/**
 * The shape of the catalog of Pipecat's API changes (the entries are in changes.ts): each entry is
 * one change Pipecat made in one release, taken from its CHANGELOG and its source at that tag, and
 * says how `voicebot migrate` applies it, or, when it cannot be applied safely, what to tell the
 * user. Names are always Pipecat's full ones: a module's dotted path, and a name inside it.
 */

/** A name defined in a Pipecat module: `{ module: "pipecat.pipeline.task", name: "PipelineTask" }`. */
export interface PipecatName {
  readonly module: string;
  readonly name: string;
}

interface ChangeBase {
  /** Stable and unique; its fixture is tests/data/migrate/<id>/. */
  readonly id: string;
  /** The release that made the change, as `1.3.0`. */
  readonly since: string;
  /** One line for the user: what changed, in Pipecat's words where it has them. */
  readonly summary: string;
}

/**
 * A module moved: every import of `from` (and `from.x`, a submodule of it) becomes one of `to`,
 * and each name imported from it keeps its name.
 */
export interface ModuleMove extends ChangeBase {
  readonly kind: "module";
  readonly from: string;
  readonly to: string;
}

/**
 * A name renamed, in its module or into another (`toModule`): its imports and every reference
 * to it (through an alias, a module attribute chain) follow.
 */
export interface NameRename extends ChangeBase {
  readonly kind: "name";
  readonly module: string;
  readonly from: string;
  readonly to: string;
  /** Where the new name is defined, when not in `module`. */
  readonly toModule?: string;
}

/**
 * A keyword argument renamed in the calls of one callable: a function, a class (its constructor),
 * or a decorator factory, named as where it is defined.
 */
export interface KeywordRename extends ChangeBase {
  readonly kind: "keyword";
  readonly callee: PipecatName;
  readonly from: string;
  readonly to: string;
}

/**
 * An attribute or method of a Pipecat class renamed: applied to `self.<from>` in the methods of a
 * class that derives from a Pipecat class listed in `owners` (the class and the Pipecat classes
 * derived from it that a user subclasses); every other `.<from>` is reported as a manual item.
 */
export interface AttributeRename extends ChangeBase {
  readonly kind: "attribute";
  readonly owners: readonly PipecatName[];
  readonly from: string;
  readonly to: string;
}

/**
 * A method's argument now given through another method, called first: `await runner.run(worker)`
 * becomes `await runner.add_workers(worker)` then `await runner.run()`. Rewritten where the call is
 * a statement of its own, on an instance of `owner` (assigned from its constructor in the file),
 * with one positional argument; every other such call is reported with `action`.
 */
export interface ArgumentToCall extends ChangeBase {
  readonly kind: "argument-to-call";
  readonly owner: PipecatName;
  readonly method: string;
  /** The method that takes the argument now. */
  readonly via: string;
  readonly action: string;
}

/**
 * A service's settings moved into its `Settings` (Pipecat deprecated each service's `InputParams`
 * and the `__init__` parameters that are settings): in a call of `service`, the keywords of `init`
 * and the fields of an inline `params=<service>.InputParams(...)` become one
 * `settings=<service>.Settings(...)`, each under its field's name. Where one does not map one to
 * one (a field of `unmapped`, `params` given a variable, a `settings=` already there), the call is
 * reported instead. Generated from Pipecat's source (scripts/pipecat_settings.py).
 */
export interface SettingsMove extends ChangeBase {
  readonly kind: "settings";
  readonly service: PipecatName;
  /** `__init__` keyword -> Settings field, for the parameters that moved (`voice_id` -> `voice`). */
  readonly init: Readonly<Record<string, string>>;
  /** InputParams field -> Settings field, for the fields that map one to one. */
  readonly params: Readonly<Record<string, string>>;
  /** InputParams fields that do not map one to one onto a Settings field. */
  readonly unmapped: readonly string[];
  /** `__init__` keywords that took an object whose fields moved (`live_options=`): reported. */
  readonly whole: readonly string[];
  /** What to do where the call cannot be rewritten. */
  readonly action: string;
}

/** An extra of the `pipecat-ai` package renamed in pyproject.toml's dependencies. */
export interface ExtraRename extends ChangeBase {
  readonly kind: "extra";
  readonly from: string;
  readonly to: string;
}

/**
 * A change that cannot be rewritten safely (a parameter removed, a callback's arguments changed, a
 * replacement that depends on what the code means): every use of `name` (with `member`, every
 * `.member` on it, or with `keyword`, every call of it given that keyword) is reported with its
 * file and line, the summary and `action`.
 */
export interface ManualChange extends ChangeBase {
  readonly kind: "manual";
  readonly name: PipecatName;
  readonly member?: string;
  readonly keyword?: string;
  /** What the user should do, one or two sentences. */
  readonly action: string;
}

export type Change =
  | ModuleMove
  | NameRename
  | KeywordRename
  | AttributeRename
  | ArgumentToCall
  | SettingsMove
  | ExtraRename
  | ManualChange;
