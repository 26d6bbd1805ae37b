/**
 * What a message may show of a name the user typed. A key or set name comes from the command line
 * or a file, and what was typed there may be a value instead: a token pasted without its `KEY=`,
 * base64 whose `=` padding reads as `KEY=`, a `KEY=value` pair where the set name goes. Messages
 * name a key only when it is a valid key that reads like a variable name; otherwise they name
 * where it came from (argument 3, `.env:4`), never the text.
 *
 * No dependencies: the CLI checks names with it before classic zod loads.
 *
 * @module
 */

/** An environment-variable name of at most 128 characters; the wire schemas use this one. */
export const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Letters, digits and hyphens, 1 to 63 characters (SPEC 8.1); the wire schemas use this one. */
export const SET_NAME = /^[A-Za-z0-9-]{1,63}$/;
/** An organization's name: letters, digits and hyphens, 1 to 63 characters, as a set's. */
export const ORGANIZATION_NAME = SET_NAME;

/**
 * Whether a valid key name reads like a token rather than a variable name: lower case, upper case
 * and digits all in it (base64, most API keys: `c2VjcmV0LXRva2Vu`, `sk_live_4eC39HqLyjWD`), or
 * digits in 20 characters or more without an underscore (hex). Variable names are upper or lower
 * snake case (`OPENAI_API_KEY`, `database_url`) or short camel case (`apiKey`), and pass.
 */
export function looksLikeToken(key: string): boolean {
  const digits = /[0-9]/.test(key);
  if (digits && /[a-z]/.test(key) && /[A-Z]/.test(key)) return true;
  return digits && key.length >= 20 && !key.includes("_");
}

/** Whether `key` may appear in a message: a valid key name that does not read like a token. */
export function showableKey(key: string): boolean {
  return KEY_NAME.test(key) && !looksLikeToken(key);
}

/**
 * Whether a word typed where none was expected may be quoted back: it reads as a name (letters,
 * digits and hyphens, as a set's) and not as a token. Anything else may be a key in the wrong place.
 */
export function readsAsName(word: string): boolean {
  return SET_NAME.test(word) && !looksLikeToken(word);
}
