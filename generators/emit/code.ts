// Safe pieces of TypeScript source: string literals, property keys, doc comments, and the
// import list of one generated file. Templates never build these by hand.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The names Object.prototype has (written out, so generated code does not depend on the engine
 * that runs the generator): generated code must not read or define them as if they were its own.
 */
export const PROTOTYPE_NAMES = new Set([
  "__proto__",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "constructor",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "toString",
  "valueOf",
]);

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** A TypeScript string literal for any string (`"__proto__"`, `"a-b"`, quotes, newlines). */
export function stringLiteral(value: string): string {
  return JSON.stringify(value);
}

/** A property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : stringLiteral(name);
}

/** A JSDoc block from tag lines (`@see …`); empty when there are none. */
export function docComment(lines: string[]): string {
  const safe = lines.filter((l) => l !== "").map((l) => l.replace(/\*\//g, "*\\/"));
  if (safe.length === 0) return "";
  if (safe.length === 1) return `/** ${safe[0]} */\n`;
  return `/**\n${safe.map((l) => ` * ${l}`).join("\n")}\n */\n`;
}

/** Collects the imports of one generated file and prints them, sorted and de-duplicated. */
export class ImportList {
  private readonly modules = new Map<string, Map<string, boolean>>();
  private readonly namespaces = new Map<string, string>();

  /** `import type * as alias from module`. */
  addNamespace(module: string, alias: string): string {
    this.namespaces.set(module, alias);
    return alias;
  }

  /** Imports `name` from `module`; `typeOnly` imports are erased at run time. */
  add(module: string, name: string, typeOnly: boolean): string {
    let names = this.modules.get(module);
    if (!names) this.modules.set(module, (names = new Map()));
    // A value import also serves type positions.
    names.set(name, (names.get(name) ?? true) && typeOnly);
    return name;
  }

  addTypes(module: string, names: Iterable<string>): void {
    for (const name of names) this.add(module, name, true);
  }

  render(): string {
    const namespaces = [...this.namespaces]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([module, alias]) => `import type * as ${alias} from ${stringLiteral(module)};`);
    const named = [...this.modules.keys()].sort().map((module) => {
      const entries = [...(this.modules.get(module) ?? new Map<string, boolean>())].sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      const allTypes = entries.every(([, typeOnly]) => typeOnly);
      const names = entries.map(([name, typeOnly]) => (typeOnly && !allTypes ? `type ${name}` : name));
      return `import ${allTypes ? "type " : ""}{ ${names.join(", ")} } from ${stringLiteral(module)};`;
    });
    return [...namespaces, ...named].join("\n");
  }
}

/** A TypeScript expression for a JSON-like value, with safely quoted keys and strings. */
export function valueLiteral(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(valueLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${valueLiteral(v)}`).join(", ")} }`;
  }
  throw new TypeError(`valueLiteral: unsupported ${typeof value}`);
}
