/**
 * Python syntax trees, from tree-sitter's Python grammar: exact byte ranges for every name, so a
 * migration rewrites only the tokens it means to and keeps every other byte. Loaded on the first
 * parse (about 10 ms), and only by the commands that migrate code.
 */
import { Language, type Node, Parser } from "web-tree-sitter";
import { PYTHON_WASM, TREE_SITTER_WASM } from "./grammar.gen.ts";

export type { Node };

let loading: Promise<Parser> | undefined;

async function load(): Promise<Parser> {
  // The runtime's bytes are given, so web-tree-sitter never looks for its .wasm beside its code.
  await Parser.init({ wasmBinary: Uint8Array.fromBase64(TREE_SITTER_WASM) });
  const parser = new Parser();
  parser.setLanguage(await Language.load(Uint8Array.fromBase64(PYTHON_WASM)));
  return parser;
}

/** The root of `source`'s syntax tree, or null when it is not valid Python (a syntax error). */
export async function parsePython(source: string): Promise<Node | null> {
  const parser = await (loading ??= load());
  const tree = parser.parse(source);
  if (tree === null) return null;
  return tree.rootNode.hasError ? null : tree.rootNode;
}
