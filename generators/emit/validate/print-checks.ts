// Checks → TypeScript. Two printers over the same check tree:
//  - guard: `g_X(v, d): boolean`, straight-line tests that return false at the first
//    failure and allocate nothing (the hot path);
//  - explain: `x_X(v, p, out, d)`, run only after a guard failed, which records the failures
//    with their JSON Pointer, the expected fact and a message (the first one, or every one when
//    `out.all`); it skips the parts of the value that pass their own type's guard, and returns
//    true when it stopped.
// Nested objects, arrays and dispatching unions of a guard become small hoisted functions.
import type { LiteralValue } from "../../model/model.js";
import { PROTOTYPE_NAMES, stringLiteral } from "../code.js";
import type { Branch, Check } from "./checks.js";

const NOT_OBJECT = (v: string) => `typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})`;

/**
 * `obj["name"]`, safely: own properties only where Object.prototype has a member of that name.
 * Always bracketed, so the code compiles under `noPropertyAccessFromIndexSignature`.
 */
export function readProperty(obj: string, name: string): string {
  const key = stringLiteral(name);
  if (PROTOTYPE_NAMES.has(name))
    return `(Object.prototype.hasOwnProperty.call(${obj}, ${key}) ? ${obj}[${key}] : undefined)`;
  return `${obj}[${key}]`;
}

/** A JSON Pointer segment for a constant key. */
export function pointerSegment(name: string): string {
  return "/" + name.replace(/~/g, "~0").replace(/\//g, "~1");
}

function literalText(value: LiteralValue): string {
  return typeof value === "string" ? stringLiteral(value) : String(value);
}

/** A guard body that only calls another type's guard. */
const ALIAS = /^return g_([A-Za-z_$][\w$]*)\(v, d\);$/;

export class CheckPrinter {
  private readonly hoisted: string[] = [];
  private hoistCount = new Map<string, number>();
  private readonly guardBodies = new Map<string, string>();
  private locals = 0;

  /** Guard and explain functions named after `name`; `depthGuard` for types that can recurse. */
  functions(name: string, check: Check, depthGuard: boolean): string {
    this.locals = 0;
    const guardBody = (depthGuard ? "if (d > MAX_DEPTH) return false;\n" : "") + this.guardBody(check, "v", name);
    const explainBody =
      (depthGuard ? "if (d > MAX_DEPTH) return out.add(tooDeep(p));\n" : "") +
      this.explain(check, "v", "p", "out", name, "d", "return true;") +
      "\nreturn false;";
    this.guardBodies.set(name, guardBody);
    return [
      `function g_${name}(${param("v", guardBody)}: unknown, ${param("d", guardBody)}: number): boolean {\n${guardBody}\n}`,
      `function x_${name}(${param("v", explainBody)}: unknown, ${param("p", explainBody)}: string, ${param("out", explainBody)}: IssueList, ${param("d", explainBody)}: number): boolean {\n${explainBody}\n}`,
    ].join("\n\n");
  }

  /**
   * `e_<name>`: a second copy of a printed guard, for the type's own entry points. A guard that
   * other guards also call sees the shapes of all their values, and V8's inline caches in it turn
   * polymorphic; the copy only sees what is validated as that type. Nested checks stay shared.
   */
  entryGuard(name: string): string {
    let body = this.guardBodies.get(name);
    if (body === undefined) throw new Error(`no guard printed for ${name}`);
    // An alias (EmptyResult = Result) copies what it names: its own body is only a shared call.
    for (let alias = ALIAS.exec(body); alias; alias = ALIAS.exec(body)) {
      const target = this.guardBodies.get(alias[1] as string);
      if (target === undefined) break;
      body = target;
    }
    return `function e_${name}(${param("v", body)}: unknown, ${param("d", body)}: number): boolean {\n${body}\n}`;
  }

  /** Guard helpers hoisted out of the functions printed so far. */
  takeHoisted(): string[] {
    return this.hoisted.splice(0);
  }

  // ---- guard ----

  /** A boolean expression; `depth` is the JSON nesting depth of `v` (containers add one for their children). */
  private guard(check: Check, v: string, owner: string, depth: string): string {
    switch (check.kind) {
      case "any":
        return "true";
      case "test":
        return `(${check.test(v)})`;
      case "ref":
        return `g_${check.name}(${v}, ${depth})`;
      case "allOf":
        return `(${check.checks.map((c) => this.guard(c, v, owner, depth)).join(" && ")})`;
      case "anyOf":
        return `(${check.members.map((m) => this.guard(m.check, v, owner, depth)).join(" || ")})`;
      case "object":
      case "array":
      case "switch":
        return `${this.hoist(check, owner)}(${v}, ${depth})`;
    }
  }

  private hoist(check: Check, owner: string): string {
    const n = (this.hoistCount.get(owner) ?? 0) + 1;
    this.hoistCount.set(owner, n);
    const name = `g_${owner}$${n}`;
    const body = this.guardBody(check, "v", owner);
    this.hoisted.push(`function ${name}(v: unknown, ${param("d", body)}: number): boolean {\n${body}\n}`);
    return name;
  }

  /** Statements that end in `return <valid>`. */
  private guardBody(check: Check, v: string, owner: string): string {
    switch (check.kind) {
      case "object": {
        const lines = [`if (${NOT_OBJECT(v)}) return false;`, `const o = ${v} as Readonly<Record<string, unknown>>;`];
        check.properties.forEach((p, i) => {
          const read = readProperty("o", p.name);
          if (p.check.kind === "any") {
            if (!p.optional) lines.push(`if (${read} === undefined) return false;`);
            return;
          }
          const x = `p${i}`;
          lines.push(`const ${x} = ${read};`);
          const test = this.guard(p.check, x, owner, "d + 1");
          lines.push(
            p.optional
              ? `if (${x} !== undefined && !${test}) return false;`
              : `if (${x} === undefined || !${test}) return false;`,
          );
        });
        if (check.index) {
          const test = this.guard(check.index, "x", owner, "d + 1");
          const declared = skipDeclared(check.properties.map((p) => p.name));
          lines.push(
            // A closed object (additionalProperties: false) needs no value: any other key fails.
            ...(test !== "(false)"
              ? [`for (const k in o) {`, ...declared, `const x = o[k];`, `if (!${test}) return false;`, `}`]
              : declared.length > 0
                ? [`for (const k in o) {`, ...declared, `return false;`, `}`]
                : [`for (const _k in o) return false;`]),
          );
        }
        // No property to read: the object test is the whole check.
        if (lines.length === 2) lines.pop();
        lines.push("return true;");
        return lines.join("\n");
      }
      case "array":
        if (check.items.kind === "any") return `return Array.isArray(${v});`;
        return [
          `if (!Array.isArray(${v})) return false;`,
          `const a = ${v} as readonly unknown[];`,
          `for (let i = 0; i < a.length; i++) {`,
          `const x = a[i];`,
          `if (!${this.guard(check.items, "x", owner, "d + 1")}) return false;`,
          `}`,
          `return true;`,
        ].join("\n");
      case "switch":
        return [
          `if (${NOT_OBJECT(v)}) return false;`,
          `switch (${readProperty(`(${v} as Readonly<Record<string, unknown>>)`, check.property)}) {`,
          ...check.cases.map((c) => `${caseLabels(c.values)}\nreturn ${this.guard(c.check, v, owner, "d")};`),
          `default:\nreturn false;`,
          `}`,
        ].join("\n");
      default:
        return `return ${this.guard(check, v, owner, "d")};`;
    }
  }

  // ---- explain ----

  private local(prefix: string): string {
    return `${prefix}${++this.locals}`;
  }

  /**
   * Statements that record the value's issues in `out` (an IssueList). `stop` is the statement
   * that ends the explanation once `out.add` says so (it keeps only the first issue): `return
   * true;` in an explain function, a labelled `break` inside a union member tried on its own.
   */
  private explain(check: Check, v: string, path: string, out: string, owner: string, depth: string, stop: string): string {
    const inner = depth === "d" ? "d + 1" : `${depth} + 1`;
    const report = (issue: string) => `${out}.add(${issue})`;
    switch (check.kind) {
      case "any":
        return "";
      case "test":
        return `if (!(${check.test(v)}) && ${report(`fail(${path}, ${stringLiteral(check.expected)}, ${v})`)}) ${stop}`;
      case "ref":
        // Explaining re-walks a value whose guard failed; a part that passes its own guard has
        // nothing to report, and the guard costs a fraction of the explainer (no paths, no issues).
        return `if (!g_${check.name}(${v}, ${depth}) && x_${check.name}(${v}, ${path}, ${out}, ${depth})) ${stop}`;
      case "allOf":
        return check.checks.map((c) => this.explain(c, v, path, out, owner, depth, stop)).join("\n");
      case "object": {
        const o = this.local("o");
        const lines: string[] = [];
        for (const p of check.properties) {
          if (p.optional && p.check.kind === "any") continue;
          const x = this.local("x");
          const at = appendPath(path, stringLiteral(pointerSegment(p.name)));
          lines.push(`const ${x} = ${readProperty(o, p.name)};`);
          const body = this.explain(p.check, x, at, out, owner, inner, stop);
          if (p.optional) {
            if (body) lines.push(`if (${x} !== undefined) {\n${body}\n}`);
          } else {
            lines.push(orElse(`${x} === undefined`, report(`missing(${at}, ${stringLiteral(p.name)})`), stop, body));
          }
        }
        if (check.index) {
          const k = this.local("k");
          lines.push(
            `for (const ${k} of Object.keys(${o})) {`,
            ...skipDeclared(
              check.properties.map((p) => p.name),
              k,
            ),
            this.explain(check.index, `${o}[${k}]`, `${appendPath(path, '"/"')} + pointer(${k})`, out, owner, inner, stop),
            `}`,
          );
        }
        const rest = lines.length === 0 ? "" : [`const ${o} = ${v} as Readonly<Record<string, unknown>>;`, ...lines].join("\n");
        return orElse(NOT_OBJECT(v), report(`fail(${path}, "object", ${v})`), stop, rest);
      }
      case "array": {
        const a = this.local("a");
        const i = this.local("i");
        const rest = [
          `const ${a} = ${v} as readonly unknown[];`,
          `for (let ${i} = 0; ${i} < ${a}.length; ${i}++) {`,
          this.explain(check.items, `${a}[${i}]`, `${appendPath(path, '"/"')} + ${i}`, out, owner, inner, stop),
          `}`,
        ].join("\n");
        return orElse(`!Array.isArray(${v})`, report(`fail(${path}, "array", ${v})`), stop, rest);
      }
      case "anyOf": {
        const branches = this.local("branches");
        // Every member is explained at the same path: build it once.
        const q = isIdentifier(path) ? path : this.local("q");
        return [
          `if (!${this.guard(check, v, owner, depth)}) {`,
          ...(q === path ? [] : [`const ${q} = ${path};`]),
          `const ${branches}: [string, IssueList][] = [];`,
          ...check.members.map((m) => this.branch(m, v, q, out, branches, owner, depth)),
          `if (${out}.addAll(pickBranch(${q}, ${stringLiteral(check.label)}, ${v}, ${branches}))) ${stop}`,
          `}`,
        ].join("\n");
      }
      case "switch": {
        const expected = check.cases.flatMap((c) => c.values.map(literalText)).join(" | ");
        const tag = this.local("tag");
        const rest = [
          `const ${tag} = ${readProperty(`(${v} as Readonly<Record<string, unknown>>)`, check.property)};`,
          `switch (${tag}) {`,
          ...check.cases.map((c) => {
            const issues = this.local("inner");
            const body = this.isolated(c.check, v, path, issues, owner, depth);
            const label = stringLiteral(c.label);
            return `${caseLabels(c.values)} {\nconst ${issues} = new IssueList(${out}.all);\n${body}\nif (${out}.addAll(${issues}.items.map((i) => within(i, ${label})))) ${stop}\nbreak;\n}`;
          }),
          `default:`,
          `if (${report(`unknownVariant(${appendPath(path, stringLiteral(pointerSegment(check.property)))}, ${stringLiteral(expected)}, ${tag}, ${stringLiteral(check.label)})`)}) ${stop}`,
          `}`,
        ].join("\n");
        return orElse(NOT_OBJECT(v), report(`fail(${path}, ${stringLiteral(`object (${check.label})`)}, ${v})`), stop, rest);
      }
    }
  }

  /** A union member explained into a list of its own: stopping ends this member only. */
  private isolated(check: Check, v: string, path: string, issues: string, owner: string, depth: string): string {
    const label = this.local("m");
    const body = this.explain(check, v, path, issues, owner, depth, `break ${label};`);
    return body.includes(`break ${label};`) ? `${label}: {\n${body}\n}` : body;
  }

  private branch(member: Branch, v: string, path: string, out: string, branches: string, owner: string, depth: string): string {
    const issues = this.local("b");
    // Every member already failed the union's guard: a named one is explained without asking its guard again.
    const body =
      member.check.kind === "ref"
        ? `x_${member.check.name}(${v}, ${path}, ${issues}, ${depth});`
        : this.isolated(member.check, v, path, issues, owner, depth);
    return `{\nconst ${issues} = new IssueList(${out}.all);\n${body}\n${branches}.push([${stringLiteral(member.label)}, ${issues}]);\n}`;
  }
}

/** `path + literal`, folding two string literals in a row into one (`p + "/a" + "/"` is `p + "/a/"`). */
function appendPath(path: string, literal: string): string {
  return /"$/.test(path) && /^"/.test(literal) && / \+ "(?:[^"\\]|\\.)*"$/.test(path)
    ? `${path.slice(0, -1)}${literal.slice(1)}`
    : `${path} + ${literal}`;
}

function isIdentifier(code: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(code);
}

/** `if (cond) <report, maybe stop> else <rest>`, without an empty else. */
function orElse(cond: string, report: string, stop: string, rest: string): string {
  if (!rest) return `if ((${cond}) && ${report}) ${stop}`;
  return `if (${cond}) {\nif (${report}) ${stop}\n} else {\n${rest}\n}`;
}

function caseLabels(values: LiteralValue[]): string {
  return values.map((value) => `case ${literalText(value)}:`).join("\n");
}

/** Index signatures cover only the keys the object does not declare (JSON Schema additionalProperties). */
function skipDeclared(names: string[], key = "k"): string[] {
  if (names.length === 0) return [];
  return [`switch (${key}) {`, ...names.map((n) => `case ${stringLiteral(n)}:`), "continue;", "}"];
}

/** A parameter the body never reads gets a leading underscore, for strict lint settings. */
function param(name: string, body: string): string {
  return new RegExp(`\\b${name}\\b`).test(body) ? name : `_${name}`;
}
