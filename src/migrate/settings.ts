/**
 * A service's settings moved into `Settings` (catalog kind "settings"): in one call of the
 * service, the `__init__` keywords that moved and the fields of an inline
 * `params=<Service>.InputParams(...)` become one `settings=<Service>.Settings(...)` argument, in the
 * place of the first of them, each value's own text kept. The call's argument list is written
 * again in its own layout (one line, or one argument a line with the same indentation), wrapped as
 * ruff formats it where the line would pass the project's line length. What does not map one to
 * one is left as it is, and reported.
 */
import type { SettingsMove } from "./catalog.ts";
import type { Node } from "./python.ts";

/** What a call of the service becomes, or why it cannot be rewritten (then it is reported). */
export type SettingsRewrite =
  | { kind: "none" }
  | { kind: "rewrite"; start: number; end: number; text: string }
  | { kind: "report"; node: Node };

/** The text of a column position: the whitespace before `node` on its line. */
function indentOf(source: string, index: number): string {
  const lineStart = source.lastIndexOf("\n", index - 1) + 1;
  const before = source.slice(lineStart, index);
  return /^\s*$/.test(before) ? before : before.match(/^\s*/)![0];
}

/**
 * `call` (a call of `move.service`) rewritten; `isInputParams` says whether an expression names
 * the service's InputParams class.
 */
export function moveSettings(
  source: string,
  call: Node,
  move: SettingsMove,
  isInputParams: (callee: Node) => boolean,
  lineLength: number,
): SettingsRewrite {
  const list = call.childForFieldName("arguments");
  const callee = call.childForFieldName("function");
  if (list === null || callee === null || list.type !== "argument_list") return { kind: "none" };
  // A comment that ends an argument's line stays with it; one on a line of its own has no
  // argument to go with, and the call is reported.
  const args: Node[] = [];
  const comments = new Map<Node, string>();
  let alone: Node | undefined;
  for (const child of list.namedChildren) {
    if (child === null) continue;
    if (child.type !== "comment") args.push(child);
    else if (args.length > 0 && args.at(-1)!.endPosition.row === child.startPosition.row) {
      comments.set(args.at(-1)!, child.text);
    } else alone ??= child;
  }
  const withComment = (arg: Node, text: string) =>
    comments.has(arg) ? `${text},  ${comments.get(arg)}` : `${text},`;
  const nameOf = (arg: Node) =>
    arg.type === "keyword_argument" ? arg.childForFieldName("name")?.text : undefined;
  const moved = args.filter((arg) => {
    const name = nameOf(arg);
    return name === "params" || (name !== undefined && name in move.init);
  });
  // Reported at the argument that stands in the way, where the user will look.
  const report = (node: Node) => ({ kind: "report", node }) as const;
  const whole = args.find((arg) => move.whole.includes(nameOf(arg) ?? ""));
  if (whole) return report(whole);
  if (moved.length === 0) return { kind: "none" };
  // A settings= already given, `**kwargs`, a comment of its own: not ours to rewrite.
  if (alone || args.some((arg) => arg.type === "dictionary_splat")) return report(moved[0]);
  if (args.some((arg) => nameOf(arg) === "settings")) return report(moved[0]);
  const fields: string[] = [];
  const fieldComments: (string | undefined)[] = [];
  const seen = new Set<string>();
  const add = (field: string, value: Node, comment?: string) => {
    if (seen.has(field) || value.text.includes("\n")) return false;
    seen.add(field);
    fields.push(`${field}=${value.text}`);
    fieldComments.push(comment);
    return true;
  };
  for (const arg of moved) {
    const value = arg.childForFieldName("value")!;
    if (nameOf(arg) !== "params") {
      if (!add(move.init[nameOf(arg)!], value, comments.get(arg))) return report(arg);
      continue;
    }
    if (comments.has(arg)) return report(arg);
    // params= must be the InputParams built right there, from fields that map one to one.
    const inner = value.type === "call" ? value.childForFieldName("function") : null;
    const innerList = value.type === "call" ? value.childForFieldName("arguments") : null;
    if (inner === null || innerList === null || !isInputParams(inner)) return report(arg);
    for (const field of innerList.namedChildren) {
      if (field === null) continue;
      if (field.type !== "keyword_argument") return report(field);
      const name = field.childForFieldName("name")!.text;
      if (!(name in move.params)) return report(field);
      if (!add(move.params[name], field.childForFieldName("value")!)) return report(field);
    }
  }
  const settingsClass = `${callee.text}.Settings`;
  const oneLine = `settings=${settingsClass}(${fields.join(", ")})`;
  const argumentsOf = (settings: string) =>
    args.flatMap((arg) => arg === moved[0] ? [settings] : moved.includes(arg) ? [] : [arg.text]);
  const lineStart = source.lastIndexOf("\n", list.startIndex - 1) + 1;
  const lineEnd = source.indexOf("\n", list.endIndex);
  const before = list.startIndex - lineStart;
  const after = (lineEnd === -1 ? source.length : lineEnd) - list.endIndex;
  // As ruff formats a call: on one line when it fits and was on one; else one argument a line,
  // each ending in a comma, and the Settings(...) itself split the same way when it is too long.
  const single = `(${argumentsOf(oneLine).join(", ")})`;
  const commented = fieldComments.some((comment) => comment !== undefined);
  if (!list.text.includes("\n") && before + single.length + after <= lineLength) {
    return { kind: "rewrite", start: list.startIndex, end: list.endIndex, text: single };
  }
  const closeIndent = indentOf(source, list.startIndex);
  const argIndent = list.text.includes("\n")
    ? indentOf(source, args[0].startIndex)
    : `${closeIndent}    `;
  // A field's comment keeps its line: the Settings(...) then has one field a line.
  const settings =
    !commented && (argIndent.length + oneLine.length + 1 <= lineLength || fields.length === 0)
      ? oneLine
      : `settings=${settingsClass}(\n${
        fields.map((field, i) =>
          `${argIndent}    ${field},${fieldComments[i] ? `  ${fieldComments[i]}` : ""}\n`
        ).join("")
      }${argIndent})`;
  const lines = args.flatMap((arg) =>
    arg === moved[0] ? [`${settings},`] : moved.includes(arg) ? [] : [withComment(arg, arg.text)]
  );
  const text = `(\n${lines.map((line) => `${argIndent}${line}\n`).join("")}${closeIndent})`;
  return { kind: "rewrite", start: list.startIndex, end: list.endIndex, text };
}
