/** Renders the compiled templates. Files named `*.mustache` are rendered; all others are copied. */
// @ts-types="npm:@types/mustache@4.2.6"
import Mustache from "mustache";
import { PARSED, TEMPLATES } from "../templates.gen.ts";

const MUSTACHE = ".mustache";

/**
 * Mustache looks a template up in its cache by source and tags before parsing it. This cache
 * answers with the parse that scripts/gen_templates.ts made at build time: parsing bot.py's
 * template at run time took ~15 ms of a cold start. Anything else is parsed and kept as usual.
 */
const TAG_SUFFIX = `:${Mustache.tags.join(":")}`;
const nameOfKey = new Map(Object.keys(PARSED).map((name) => [TEMPLATES[name] + TAG_SUFFIX, name]));
const tokens = new Map<string, unknown>();
Mustache.templateCache = {
  get(key: string) {
    if (!tokens.has(key) && nameOfKey.has(key)) {
      tokens.set(key, JSON.parse(PARSED[nameOfKey.get(key)!]));
    }
    return tokens.get(key);
  },
  set(key: string, value: unknown) {
    tokens.set(key, value);
  },
  clear() {
    tokens.clear();
  },
} as unknown as typeof Mustache.templateCache;

/** The template's source; throws for a name that is not under templates/ (a bug, not user error). */
export function templateSource(name: string): string {
  const source = TEMPLATES[name];
  if (source === undefined) throw new Error(`no template "${name}"`);
  return source;
}

/** Generated code is not HTML: values go in as they are. Partials are other templates by path. */
export function render(name: string, view: object): string {
  const source = templateSource(name);
  if (!name.endsWith(MUSTACHE)) return source;
  return Mustache.render(source, view, (partial) => templateSource(partial), {
    escape: (value: string) => value,
  });
}

/** The template names under a folder, e.g. `client/vanilla/`, sorted. */
export function templatesUnder(prefix: string): string[] {
  return Object.keys(TEMPLATES).filter((name) => name.startsWith(prefix)).sort();
}

/** Where a template lands in the project: its path without the `.mustache` ending. */
export function outputPath(name: string, prefix: string, destination: string): string {
  const path = name.slice(prefix.length);
  return destination + (path.endsWith(MUSTACHE) ? path.slice(0, -MUSTACHE.length) : path);
}
