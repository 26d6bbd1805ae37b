/**
 * Applies the catalog's changes to one Python file, by its syntax tree: a name is rewritten only
 * where it refers to Pipecat's (it was imported from a Pipecat module, under its name or an alias,
 * or reached through a Pipecat module), and only its own tokens change, so comments, quotes,
 * spacing and line endings stay as they were. What cannot be rewritten safely is reported.
 *
 * Reading a file goes: its imports of Pipecat (the bindings), then every place a binding is used
 * (a name, an attribute chain on a module, a call, a subclass's `self.x`), each resolved to the
 * Pipecat name it means, traced through the releases, and edited or reported.
 */
import type {
  ArgumentToCall,
  AttributeRename,
  Change,
  KeywordRename,
  ManualChange,
  PipecatName,
  SettingsMove,
} from "./catalog.ts";
import { type NameTrace, Renames } from "./renames.ts";
import { type Node, parsePython } from "./python.ts";
import { applyEdits, type Edit } from "./edits.ts";
import { keepImportsSorted } from "./imports.ts";
import { moveSettings } from "./settings.ts";

/** A change applied, at the line (1-based) of the code it changed. */
export interface Applied {
  readonly id: string;
  readonly line: number;
}

/** A use of Pipecat's API that changed in a way migrate does not rewrite: for the user to do. */
export interface ManualItem {
  readonly id: string;
  readonly line: number;
  readonly column: number;
  readonly summary: string;
  readonly action: string;
}

export interface SourceMigration {
  /** The file's text after the changes (the same string when nothing applied). */
  readonly text: string;
  readonly applied: readonly Applied[];
  readonly manual: readonly ManualItem[];
  /** Not valid Python: left as it is. */
  readonly unparsable: boolean;
}

/** A local name bound by an import of a Pipecat module or of a name from one. */
type Binding =
  | { kind: "name"; ref: PipecatName; aliased: boolean }
  | { kind: "module"; module: string };

/** Tree-sitter's node types that open a scope of their own. */
const SCOPES = new Set(["function_definition", "lambda", "class_definition"]);

/** Pipecat's packages: its own, and Pipecat Flows' before it moved in (1.5.0). */
const PACKAGES = ["pipecat", "pipecat_flows"];

function isPipecat(module: string): boolean {
  return PACKAGES.some((name) => module === name || module.startsWith(`${name}.`));
}

function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** Every descendant of `root` of one of `types`, in source order. */
function all(root: Node, ...types: string[]): Node[] {
  return root.descendantsOfType(types).filter((node): node is Node => node !== null);
}

/** The node types the engine looks at, found in one walk of the tree (a walk costs most). */
const INDEXED = [
  "identifier",
  "attribute",
  "call",
  "assignment",
  "typed_parameter",
  "typed_default_parameter",
  "class_definition",
  "function_definition",
  "import_statement",
  "import_from_statement",
] as const;
type Indexed = (typeof INDEXED)[number];

function indexTree(root: Node): Map<string, Node[]> {
  const index = new Map<string, Node[]>(INDEXED.map((type) => [type, []]));
  const cursor = root.walk();
  // Depth first, in source order: each node's type is read without making a Node of it.
  for (;;) {
    index.get(cursor.nodeType)?.push(cursor.currentNode);
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete();
        return index;
      }
    }
  }
}

/** `a.b.c` as its parts, when `node` is an identifier or a chain of attributes on one. */
function dottedParts(node: Node): string[] | null {
  if (node.type === "identifier") return [node.text];
  if (node.type !== "attribute") return null;
  const object = node.childForFieldName("object");
  const attribute = node.childForFieldName("attribute");
  if (object === null || attribute === null) return null;
  const parts = dottedParts(object);
  return parts === null ? null : [...parts, attribute.text];
}

/** Whether `identifier` is a place a name is bound (assigned, a parameter, a definition...). */
function bindsName(identifier: Node): boolean {
  const parent = identifier.parent;
  if (parent === null) return false;
  const field = (name: string) => parent.childForFieldName(name)?.id === identifier.id;
  switch (parent.type) {
    case "function_definition":
    case "class_definition":
      return field("name");
    case "parameters":
    case "lambda_parameters":
    case "list_splat_pattern":
    case "dictionary_splat_pattern":
    case "global_statement":
    case "nonlocal_statement":
    case "as_pattern_target":
      return true;
    case "default_parameter":
    case "typed_default_parameter":
    case "named_expression":
      return field("name");
    case "typed_parameter":
      return parent.namedChildren[0]?.id === identifier.id;
    case "assignment":
    case "augmented_assignment":
    case "for_statement":
    case "for_in_clause":
      return field("left");
    case "pattern_list":
    case "tuple_pattern":
    case "list_pattern":
      return true;
    default:
      return false;
  }
}

/** The scope (function, lambda, class, or the module) `node` is in. */
function scopeOf(node: Node): Node {
  let at = node.parent;
  while (at !== null && !SCOPES.has(at.type) && at.parent !== null) at = at.parent;
  return at ?? node;
}

function insideImport(node: Node): boolean {
  for (let at = node.parent; at !== null; at = at.parent) {
    if (at.type === "import_statement" || at.type === "import_from_statement") return true;
    if (at.type === "module" || SCOPES.has(at.type)) return false;
  }
  return false;
}

class FileMigration {
  readonly edits: Edit[] = [];
  readonly manual: ManualItem[] = [];
  /** Local name -> what it is bound to. */
  readonly bindings = new Map<string, Binding>();
  /** Modules imported whole without an alias (`import pipecat.x.y`): their chains are rewritten. */
  readonly plainImports = new Set<string>();
  /** Local names a from-import renamed: each use of the old name follows. */
  readonly localRenames = new Map<string, { to: string; id: string }>();
  /** Variables assigned a Pipecat class's instance (`runner = PipelineRunner()`), by name. */
  readonly instances = new Map<string, PipecatName>();

  readonly #index: Map<string, Node[]>;

  constructor(
    readonly source: string,
    readonly root: Node,
    readonly changes: readonly Change[],
    readonly renames: Renames,
    readonly lineLength: number,
  ) {
    this.#index = indexTree(root);
  }

  /** The file's nodes of these types, in source order. */
  nodes(...types: Indexed[]): Node[] {
    if (types.length === 1) return this.#index.get(types[0])!;
    return types.flatMap((type) => this.#index.get(type)!).sort((a, b) =>
      a.startIndex - b.startIndex
    );
  }

  edit(node: Node | { startIndex: number; endIndex: number }, text: string, id: string) {
    this.edits.push({ start: node.startIndex, end: node.endIndex, text, id });
  }

  report(
    node: Node,
    change: ManualChange | AttributeRename | ArgumentToCall | SettingsMove,
    action?: string,
  ) {
    this.manual.push({
      id: change.id,
      line: lineOf(node),
      column: node.startPosition.column + 1,
      summary: change.summary,
      action: action ?? (change.kind === "attribute" ? "" : change.action),
    });
  }

  run() {
    for (const statement of this.nodes("import_from_statement")) this.fromImport(statement);
    for (const statement of this.nodes("import_statement")) this.plainImport(statement);
    this.trackInstances();
    this.names();
    this.chains();
    this.calls();
    this.subclasses();
    this.argumentCalls();
    // Last: it rewrites whole argument lists, and leaves one that another change is inside.
    this.settingsMoves();
  }

  /** `params=X.InputParams(...)` and init keywords that moved: one `settings=X.Settings(...)`. */
  settingsMoves() {
    const moves = this.changes.filter((c): c is SettingsMove => c.kind === "settings");
    if (moves.length === 0) return;
    const isInputParams = (node: Node) => this.resolve(node)?.name.endsWith("InputParams") ?? false;
    for (const call of this.nodes("call")) {
      const callee = call.childForFieldName("function");
      const ref = callee === null ? null : this.resolve(callee);
      if (ref === null) continue;
      const trace = this.renames.name(ref);
      const move = moves.find((m) => trace.calledAt(m.service, m.since));
      if (move === undefined) continue;
      const rewrite = moveSettings(this.source, call, move, isInputParams, this.lineLength);
      if (rewrite.kind === "none") continue;
      const inside = rewrite.kind === "rewrite" &&
        this.edits.some((edit) => edit.start < rewrite.end && edit.end > rewrite.start);
      if (rewrite.kind === "report" || inside) {
        this.report(rewrite.kind === "report" ? rewrite.node : call, move);
        continue;
      }
      this.edit({ startIndex: rewrite.start, endIndex: rewrite.end }, rewrite.text, move.id);
    }
  }

  // --- Imports -----------------------------------------------------------------------------

  fromImport(statement: Node) {
    const moduleNode = statement.childForFieldName("module_name");
    if (moduleNode === null || moduleNode.type !== "dotted_name") return;
    const module = moduleNode.text;
    if (!isPipecat(module)) return;
    interface Imported {
      nameNode: Node;
      alias: string | null;
      ref: PipecatName;
      trace: NameTrace;
    }
    const imported: Imported[] = [];
    for (const item of statement.childrenForFieldName("name")) {
      if (item === null) continue;
      const nameNode = item.type === "aliased_import" ? item.childForFieldName("name") : item;
      if (nameNode === null) continue;
      const alias = item.type === "aliased_import"
        ? item.childForFieldName("alias")?.text ?? null
        : null;
      const ref = { module, name: nameNode.text };
      imported.push({ nameNode, alias, ref, trace: this.submoduleOrName(ref) });
      this.bindings.set(alias ?? ref.name, { kind: "name", ref, aliased: alias !== null });
      this.reportUses(nameNode, ref);
    }
    const targets = [...new Set(imported.map(({ trace }) => trace.final.module))];
    if (targets.length === 1) {
      const [target] = targets;
      if (target !== module) {
        const id = imported.find(({ trace }) => trace.final.module === target)!.trace.ids[0];
        this.edit(moduleNode, target, id);
      }
      for (const { nameNode, alias, ref, trace } of imported) {
        if (trace.final.name === ref.name) continue;
        const id = trace.ids.at(-1)!;
        this.edit(nameNode, trace.final.name, id);
        if (alias === null) this.localRenames.set(ref.name, { to: trace.final.name, id });
      }
      return;
    }
    // Names that now live in different modules: one statement per module, in the order of first
    // appearance, at the statement's indentation. A comment inside would have nowhere to go.
    if (all(statement, "comment").length > 0) {
      this.manual.push({
        id: imported.find(({ trace }) => trace.ids.length > 0)!.trace.ids[0],
        line: lineOf(statement),
        column: statement.startPosition.column + 1,
        summary: "these names now come from different modules",
        action: `import each from its module: ${
          imported.map(({ trace }) => `${trace.final.name} from ${trace.final.module}`).join(", ")
        }`,
      });
      return;
    }
    const indent = " ".repeat(statement.startPosition.column);
    const lines = targets.map((target) => {
      const names = imported
        .filter(({ trace }) => trace.final.module === target)
        .map(({ alias, trace }) =>
          alias === null ? trace.final.name : `${trace.final.name} as ${alias}`
        );
      return formatFromImport(target, names, indent);
    });
    const id = imported.find(({ trace }) => trace.ids.length > 0)!.trace.ids[0];
    this.edit(statement, lines.join(`\n${indent}`), id);
    for (const { alias, ref, trace } of imported) {
      if (alias === null && trace.final.name !== ref.name) {
        this.localRenames.set(ref.name, { to: trace.final.name, id: trace.ids.at(-1)! });
      }
    }
  }

  /** `from pipecat.pipeline import task` imports a module when `task` is one that moved. */
  submoduleOrName(ref: PipecatName): NameTrace {
    const trace = this.renames.name(ref);
    if (trace.ids.length > 0) return trace;
    const moved = this.renames.module(`${ref.module}.${ref.name}`);
    if (moved.ids.length === 0) return trace;
    const dot = moved.final.lastIndexOf(".");
    const final = { module: moved.final.slice(0, dot), name: moved.final.slice(dot + 1) };
    return { final, ids: moved.ids, calledAt: trace.calledAt };
  }

  plainImport(statement: Node) {
    for (const item of statement.childrenForFieldName("name")) {
      if (item === null) continue;
      const nameNode = item.type === "aliased_import" ? item.childForFieldName("name") : item;
      if (nameNode === null || !isPipecat(nameNode.text)) continue;
      const module = nameNode.text;
      const alias = item.type === "aliased_import" ? item.childForFieldName("alias")?.text : null;
      if (alias) this.bindings.set(alias, { kind: "module", module });
      else this.plainImports.add(module);
      const moved = this.renames.module(module);
      if (moved.ids.length > 0) this.edit(nameNode, moved.final, moved.ids[0]);
    }
  }

  // --- What each use refers to -------------------------------------------------------------

  /** The Pipecat name an expression refers to, as the code has it (at the release it is from). */
  resolve(node: Node): PipecatName | null {
    if (node.type === "identifier") {
      const binding = this.bindings.get(node.text);
      return binding?.kind === "name" && !this.shadowed(node) ? binding.ref : null;
    }
    // A class's nested class, as `Mem0MemoryService.InputParams`.
    const object = node.type === "attribute" ? node.childForFieldName("object") : null;
    if (object?.type === "identifier") {
      const binding = this.bindings.get(object.text);
      if (binding?.kind === "name" && /^[A-Z]/.test(binding.ref.name) && !this.shadowed(object)) {
        const attribute = node.childForFieldName("attribute")!.text;
        return { module: binding.ref.module, name: `${binding.ref.name}.${attribute}` };
      }
    }
    const chain = this.moduleChain(node);
    return chain === null ? null : { module: chain.module, name: chain.nameNode.text };
  }

  /**
   * For `<module>.Name` (the attribute node itself), the module and the `Name` node: the module
   * reached through an aliased import, a plain import's full path, or a from-imported submodule.
   */
  moduleChain(
    node: Node,
  ): { module: string; nameNode: Node; objectNode: Node; plain: boolean } | null {
    if (node.type !== "attribute") return null;
    const objectNode = node.childForFieldName("object");
    const nameNode = node.childForFieldName("attribute");
    if (objectNode === null || nameNode === null) return null;
    if (objectNode.type === "identifier") {
      const binding = this.bindings.get(objectNode.text);
      if (binding !== undefined && !this.shadowed(objectNode)) {
        const module = binding.kind === "module"
          ? binding.module
          : `${binding.ref.module}.${binding.ref.name}`;
        return { module, nameNode, objectNode, plain: false };
      }
    }
    const parts = dottedParts(objectNode);
    if (parts === null || !this.plainImports.has(parts.join("."))) return null;
    if (this.shadowed(objectNode)) return null;
    return { module: parts.join("."), nameNode, objectNode, plain: true };
  }

  /** Scopes where a local name is bound by something other than its import. */
  readonly #boundIn = new Map<string, Set<number>>();

  /** Whether the name at `identifier` is bound, in its scope or one around it, by the user's code. */
  shadowed(identifier: Node): boolean {
    if (this.#boundIn.size === 0) {
      for (const node of this.nodes("identifier")) {
        if (!this.bindings.has(node.text) || !bindsName(node)) continue;
        const scope = scopeOf(node);
        const scopes = this.#boundIn.get(node.text) ?? new Set();
        // A module-level assignment (`PipelineTask = None` in an `except ImportError:`) stands for
        // the import; a module-level class or function of that name is the user's own.
        const own = scope.type !== "module" || node.parent?.type === "class_definition" ||
          node.parent?.type === "function_definition";
        if (own) scopes.add(scope.id);
        this.#boundIn.set(node.text, scopes);
      }
      if (this.#boundIn.size === 0) this.#boundIn.set("", new Set());
    }
    const scopes = this.#boundIn.get(identifier.text);
    if (scopes === undefined || scopes.size === 0) return false;
    for (let at: Node | null = identifier; at !== null; at = at.parent) {
      if ((SCOPES.has(at.type) || at.type === "module") && scopes.has(at.id)) return true;
    }
    return false;
  }

  // --- Uses --------------------------------------------------------------------------------

  /** Each bare use of an imported name: reported when it is a manual item, renamed with its import. */
  names() {
    for (const node of this.nodes("identifier")) {
      const binding = this.bindings.get(node.text);
      if (binding?.kind !== "name" || insideImport(node)) continue;
      const parent = node.parent;
      const is = (field: string) => parent?.childForFieldName(field)?.id === node.id;
      if (parent?.type === "attribute" && is("attribute")) continue;
      if (parent?.type === "keyword_argument" && is("name")) continue;
      if (this.shadowed(node)) continue;
      this.reportUses(node, binding.ref);
      const rename = this.localRenames.get(node.text);
      if (rename !== undefined) this.edit(node, rename.to, rename.id);
    }
  }

  /** `module.Name`: the name renamed, and a plain import's moved path. */
  chains() {
    for (const node of this.nodes("attribute")) {
      const chain = this.moduleChain(node);
      if (chain === null) continue;
      const ref = { module: chain.module, name: chain.nameNode.text };
      this.reportUses(chain.nameNode, ref);
      const trace = this.renames.name(ref);
      if (trace.ids.length === 0) continue;
      const moved = this.renames.module(chain.module);
      const movedTo = moved.final;
      if (trace.final.module !== movedTo) {
        const change = this.changes.find((c) => c.id === trace.ids.at(-1))!;
        this.manual.push({
          id: change.id,
          line: lineOf(node),
          column: node.startPosition.column + 1,
          summary: change.summary,
          action:
            `import ${trace.final.name} from ${trace.final.module} and use it here in place of ${node.text}`,
        });
        continue;
      }
      if (trace.final.name !== ref.name) {
        this.edit(chain.nameNode, trace.final.name, trace.ids.at(-1)!);
      }
      if (chain.plain && movedTo !== chain.module) {
        this.edit(chain.objectNode, movedTo, moved.ids[0]);
      }
    }
  }

  /** Keyword renames in calls, and manual items about a call's keyword or a member's use. */
  calls() {
    const keywords = this.changes.filter((c): c is KeywordRename => c.kind === "keyword");
    const manual = this.changes.filter((c): c is ManualChange =>
      c.kind === "manual" && (c.keyword !== undefined)
    );
    if (keywords.length + manual.length === 0) return;
    for (const call of this.nodes("call")) {
      const callee = call.childForFieldName("function");
      const ref = callee === null ? null : this.resolve(callee);
      if (ref === null) continue;
      const trace = this.renames.name(ref);
      const argumentList = call.childForFieldName("arguments");
      const args = (argumentList?.namedChildren ?? [])
        .filter((arg): arg is Node => arg?.type === "keyword_argument");
      for (const change of keywords) {
        if (!trace.calledAt(change.callee, change.since)) continue;
        for (const arg of args) {
          const name = arg.childForFieldName("name");
          if (name?.text === change.from) this.edit(name, change.to, change.id);
        }
      }
      for (const change of manual) {
        if (!trace.calledAt(change.name, change.since)) continue;
        for (const arg of args) {
          if (arg.childForFieldName("name")?.text === change.keyword) this.report(arg, change);
        }
      }
    }
  }

  /** Manual items about a name itself (not a member or keyword of it), where the code uses it. */
  reportUses(node: Node, ref: PipecatName) {
    const trace = this.renames.name(ref);
    for (const change of this.changes) {
      if (change.kind !== "manual" || change.member !== undefined || change.keyword !== undefined) {
        continue;
      }
      if (trace.calledAt(change.name, change.since)) this.report(node, change);
    }
  }

  /** Names assigned an instance of a Pipecat class, for the members used on them. */
  trackInstances() {
    for (const assignment of this.nodes("assignment")) {
      const left = assignment.childForFieldName("left");
      const right = assignment.childForFieldName("right");
      const type = assignment.childForFieldName("type");
      if (left === null) continue;
      const callee = right?.type === "call" ? right.childForFieldName("function") : null;
      const ref = callee ? this.resolve(callee) : type ? this.resolve(type) : null;
      if (ref !== null) this.instances.set(left.text, ref);
    }
    // A parameter annotated with a Pipecat class: `params: FunctionCallParams`.
    for (const parameter of this.nodes("typed_parameter", "typed_default_parameter")) {
      const name = parameter.type === "typed_parameter"
        ? parameter.namedChildren[0]
        : parameter.childForFieldName("name");
      const type = parameter.childForFieldName("type")?.namedChildren[0];
      const ref = type ? this.resolve(type) : null;
      if (name?.type === "identifier" && ref !== null) this.instances.set(name.text, ref);
    }
  }

  /**
   * Members: `self.<old>` in a class derived from a Pipecat class is renamed; a manual member is
   * reported on such a `self`, on an instance of its class, and on the class itself.
   */
  subclasses() {
    const attributeRenames = this.changes.filter((c): c is AttributeRename =>
      c.kind === "attribute"
    );
    const members = this.changes.filter((c): c is ManualChange =>
      c.kind === "manual" && c.member !== undefined
    );
    if (attributeRenames.length + members.length === 0) return;
    const pipecatClasses = new Map<number, PipecatName[]>();
    for (const definition of this.nodes("class_definition")) {
      const bases = definition.childForFieldName("superclasses");
      const refs = (bases?.namedChildren ?? [])
        .map((base) => base === null ? null : this.resolve(base))
        .filter((ref): ref is PipecatName => ref !== null);
      if (refs.length > 0) pipecatClasses.set(definition.id, refs);
    }
    for (const node of this.nodes("attribute")) {
      const object = node.childForFieldName("object");
      const attribute = node.childForFieldName("attribute");
      if (object === null || attribute === null) continue;
      const bases = object.text === "self"
        ? this.enclosingPipecatBases(node, pipecatClasses)
        : null;
      for (const change of attributeRenames) {
        if (attribute.text !== change.from) continue;
        if (bases !== null) this.edit(attribute, change.to, change.id);
        else if (this.bindings.size > 0) {
          this.report(
            attribute,
            change,
            `if this is Pipecat's ${change.from}, rename it ${change.to}`,
          );
        }
      }
      for (const change of members) {
        if (attribute.text !== change.member) continue;
        const owner = bases ?? this.ownerOf(object);
        if (owner?.some((ref) => this.isA(ref, change.name, change.since))) {
          this.report(node, change);
        }
      }
    }
    // A method of a Pipecat class overridden in a subclass: its new contract is the user's.
    for (const definition of this.nodes("function_definition")) {
      const name = definition.childForFieldName("name")?.text;
      const bases = this.enclosingPipecatBases(definition, pipecatClasses, true);
      if (bases === null) continue;
      for (const change of members) {
        if (
          name === change.member && bases.some((ref) => this.isA(ref, change.name, change.since))
        ) {
          this.report(definition.childForFieldName("name")!, change);
        }
      }
    }
  }

  /**
   * Whether `ref` is the class `target` (as `since` named it), or one Pipecat derives from it and
   * names after it, as its services are (`OpenAILLMService` is an `LLMService`): only said of a
   * place to report, never of one to rewrite.
   */
  isA(ref: PipecatName, target: PipecatName, since: string): boolean {
    const trace = this.renames.name(ref);
    if (trace.calledAt(target, since)) return true;
    const own = trace.final.name.split(".").at(-1)!;
    const base = target.name.split(".").at(-1)!;
    return own !== base && own.endsWith(base);
  }

  /** `await x.run(worker)` -> `await x.add_workers(worker)`, then `await x.run()`. */
  argumentCalls() {
    const changes = this.changes.filter((c): c is ArgumentToCall => c.kind === "argument-to-call");
    if (changes.length === 0) return;
    for (const call of this.nodes("call")) {
      const callee = call.childForFieldName("function");
      const object = callee?.type === "attribute" ? callee.childForFieldName("object") : null;
      const method = callee?.childForFieldName("attribute")?.text;
      const owner = object === null || object === undefined ? null : this.ownerOf(object);
      if (object === null || object === undefined || owner === null) continue;
      const args = (call.childForFieldName("arguments")?.namedChildren ?? [])
        .filter((arg): arg is Node => arg !== null && arg.type !== "comment");
      for (const change of changes) {
        if (method !== change.method || args.length === 0) continue;
        if (!owner.some((ref) => this.renames.name(ref).calledAt(change.owner, change.since))) {
          continue;
        }
        const awaited = call.parent?.type === "await" ? call.parent : null;
        const statement = (awaited ?? call).parent;
        const lineStart = this.source.lastIndexOf("\n", (statement?.startIndex ?? 0) - 1) + 1;
        const lineEnd = this.source.indexOf("\n", statement?.endIndex ?? 0);
        const alone = statement?.type === "expression_statement" &&
          this.source.slice(lineStart, statement.startIndex).trim() === "" &&
          /^\s*(#.*)?$/.test(
            this.source.slice(statement.endIndex, lineEnd === -1 ? undefined : lineEnd),
          );
        if (
          !alone || args.length !== 1 || args[0].type === "keyword_argument" ||
          args[0].type === "list_splat" || args[0].type === "dictionary_splat"
        ) {
          this.report(call, change);
          continue;
        }
        // Two edits around the argument, which keeps its own text (and any change inside it).
        const prefix = awaited === null ? "" : "await ";
        const indent = this.source.slice(lineStart, statement!.startIndex);
        const receiver = `${prefix}${object.text}`;
        this.edit(
          { startIndex: statement!.startIndex, endIndex: args[0].startIndex },
          `${receiver}.${change.via}(`,
          change.id,
        );
        this.edit(
          { startIndex: args[0].endIndex, endIndex: statement!.endIndex },
          `)\n${indent}${receiver}.${change.method}()`,
          change.id,
        );
      }
    }
  }

  /** The Pipecat classes the class around `node` derives from (with `direct`, `node`'s own class). */
  enclosingPipecatBases(
    node: Node,
    classes: Map<number, PipecatName[]>,
    direct = false,
  ): PipecatName[] | null {
    for (let at = node.parent; at !== null; at = at.parent) {
      if (at.type === "class_definition") return classes.get(at.id) ?? null;
      if (direct && at.type !== "block" && at.type !== "decorated_definition") return null;
    }
    return null;
  }

  /** The Pipecat class an expression is, or is an instance of, when the file says. */
  ownerOf(object: Node): PipecatName[] | null {
    const instance = this.instances.get(object.text);
    if (instance !== undefined) return [instance];
    const ref = this.resolve(object);
    return ref === null ? null : [ref];
  }
}

/** `from module import a, b` as ruff would write it: wrapped in parentheses past 100 columns. */
function formatFromImport(module: string, names: string[], indent: string): string {
  const line = `from ${module} import ${names.join(", ")}`;
  if (indent.length + line.length <= 100) return line;
  return `from ${module} import (\n${names.map((n) => `${indent}    ${n},\n`).join("")}${indent})`;
}

/** How many characters an edit leaves as they were at its start: its line is where it changes. */
function sharedStart(source: string, edit: Edit): number {
  let n = 0;
  while (
    n < edit.text.length && edit.start + n < edit.end && edit.text[n] === source[edit.start + n]
  ) n++;
  return n;
}

export interface MigrateOptions {
  /** The project's ruff line length ([tool.ruff] line-length; ruff's default, 88). */
  readonly lineLength?: number;
}

/** Applies `changes` (ordered by changesBetween) to one file's text. */
export async function migrateSource(
  source: string,
  changes: readonly Change[],
  options: MigrateOptions = {},
): Promise<SourceMigration> {
  const unchanged = { text: source, applied: [], manual: [] };
  // Cheap first: a file that never names Pipecat has nothing to migrate, and is not parsed.
  if (changes.length === 0 || !source.includes("pipecat")) {
    return { ...unchanged, unparsable: false };
  }
  const root = await parsePython(source);
  if (root === null) return { ...unchanged, unparsable: true };
  const renames = new Renames(changes);
  const file = new FileMigration(source, root, changes, renames, options.lineLength ?? 88);
  let edits: Edit[];
  try {
    file.run();
    edits = keepImportsSorted(source, root, file.edits);
  } finally {
    // The tree lives in WebAssembly's memory, which no garbage collector frees.
    root.tree.delete();
  }
  const { text } = applyEdits(source, edits);
  // Each change where it was made (a block of imports sorted again is one edit, of many changes).
  const line = (index: number) => source.slice(0, index).split("\n").length;
  const applied = applyEdits(source, file.edits).kept
    .map((edit) => ({ id: edit.id, line: line(edit.start + sharedStart(source, edit)) }));
  const seen = new Set<string>();
  const manual = file.manual
    .filter((item) => {
      const key = `${item.id}:${item.line}:${item.column}`;
      return !seen.has(key) && seen.add(key);
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
  return { text, applied, manual, unparsable: false };
}
