// Identifiers for a server's tools and prompts: a camelCase method name (`tools.getWeather`)
// and a PascalCase base for type names (`GetWeatherInput`), deterministic and collision-free.
// The scheme (docs/tools.md) keeps to ASCII letters and digits so json-schema-to-typescript,
// which rewrites any other character in a type name, prints the names exactly as given.

import { PROTOTYPE_NAMES } from "../emit/code.js";

export interface Identifier {
  /** The tool's or prompt's own name. */
  name: string;
  /** The method on the object `createTools` / `createPrompts` returns. */
  method: string;
  /** The start of its type names (`<Pascal>Input`, `<Pascal>Output`, `<Pascal>Arguments`). */
  pascal: string;
}

/**
 * Method names that would shadow what every object already has (`toString`, `constructor`) or
 * make the wrappers object a thenable (`then`: `await` would call it): suffixed with `_`.
 */
const SHADOWING = new Set([...PROTOTYPE_NAMES, "then"]);

/** Words: ASCII letter runs split at case changes, digit runs, and one word per other letter or digit. */
const WORD = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[\p{L}\p{N}]/gu;

/**
 * The words of a name. Accents are dropped (`é` → `e`); any other letter or digit outside ASCII
 * becomes `U<hex code point>`; everything else separates words.
 */
export function words(name: string): string[] {
  const plain = name.normalize("NFKD").replace(/\p{M}/gu, "");
  return (plain.match(WORD) ?? []).map((w) =>
    /^[A-Za-z0-9]+$/.test(w) ? w : `U${(w.codePointAt(0) as number).toString(16).toUpperCase()}`,
  );
}

/** `weather` → `Weather`, `HTTP` → `Http`; digit runs and `U<hex>` words stay as they are. */
const capitalize = (w: string) => (/^[A-Za-z]+$/.test(w) ? w.charAt(0).toUpperCase() + w.slice(1).toLowerCase() : w);

/** `[get, weather]` → `GetWeather`; a leading digit gets a `_` in front; no words → the fallback. */
function pascalOf(parts: string[], fallback: string): string {
  const joined = parts.map(capitalize).join("");
  if (joined === "") return fallback;
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** `GetWeather` → `getWeather`; `_3DRender` stays; `Http2Server` → `http2Server`. */
function camelOf(pascal: string): string {
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/**
 * One identifier per name, in the order given. Names whose PascalCase form is the same form a
 * group; in code-unit order of their names, the first keeps the form and each later one gets the
 * smallest number from 2 up that no other name uses (`getWeather`, `getWeather2`). A name's
 * identifier therefore changes only when a name it collides with comes or goes.
 */
export function identifiers(names: readonly string[], fallback: "Tool" | "Prompt"): Identifier[] {
  const bases = names.map((name) => pascalOf(words(name), fallback));
  const taken = new Set(bases);
  const groups = new Map<string, string[]>();
  names.forEach((name, i) => groups.set(bases[i] as string, [...(groups.get(bases[i] as string) ?? []), name]));
  const assigned = new Map<string, string>();
  for (const [base, members] of groups) {
    const [first, ...rest] = [...members].sort(compareCodeUnits);
    assigned.set(first as string, base);
    let n = 2;
    for (const name of rest) {
      while (taken.has(`${base}${n}`)) n++;
      taken.add(`${base}${n}`);
      assigned.set(name, `${base}${n}`);
    }
  }
  return names.map((name) => {
    const pascal = assigned.get(name) as string;
    const camel = camelOf(pascal);
    return { name, pascal, method: SHADOWING.has(camel) ? `${camel}_` : camel };
  });
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
