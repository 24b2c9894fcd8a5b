// Checks → TypeScript. Two printers over the same check tree:
//  - guard: `g_X(v, d): boolean`, straight-line tests that return false at the first failure and
//    allocate nothing (the hot path). On its way out of a failure a guard records where it failed
//    (the trail, see runtime/validation/support.ts), so `validate()` reports the first issue
//    without walking the value again;
//  - explain: `x_X(v, out, d): number`, for every issue, or for the part the trail points to: it
//    records the failures in `out` (the first one, or every one when `out.all`) with their JSON
//    Pointer relative to `v` (callers prefix their part's place on the way out, so the valid parts
//    it walks cost no path) and the expected fact; messages are written only for the issues
//    reported. It returns how many issues it recorded.
// Nested objects, arrays and dispatching unions of a guard become small hoisted functions, and so
// does the explanation of a union a guard found failed (`x_X$<n>`, where the trail starts).
import type { LiteralValue } from "../../model/model.js";
import { PROTOTYPE_NAMES, stringLiteral } from "../code.js";
import { type Branch, type Check, KINDS, literalText, type PropertyCheck } from "./checks.js";

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

/** The name of the module constant `<prefix>_<n>` whose value is `text`, made on first use. */
function constantName(names: Map<string, string>, prefix: string, text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `${prefix}_${names.size}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The order both printers read an object's properties in: each literal-valued property whole
 * (they come first: they tell a wrong union member soonest), then whether every other required
 * property is there, before any value is walked (as ajv's `required` keyword does: a missing
 * property costs no walk of its siblings), then the other values, in their order (cheapest
 * first), and last the scans of those values (a format, a pattern: `uri` is read char by char
 * only once every other part of the object, arrays of objects included, passed). `check` is the
 * part of the property's check a step makes; `reads`: the step declares the local with its value.
 */
interface ObjectStep {
  step: "whole" | "present" | "value" | "scan";
  property: PropertyCheck;
  index: number;
  check: Check;
  reads: boolean;
}

function objectSteps(properties: readonly PropertyCheck[]): ObjectStep[] {
  const indexed = properties.map((property, index) => ({ property, index, check: property.check }));
  const values = indexed.filter((p) => !p.property.literal).map((p) => ({ ...p, parts: splitScans(p.check) }));
  return [
    ...indexed.filter((p) => p.property.literal).map((p) => ({ step: "whole" as const, ...p, reads: true })),
    ...indexed
      .filter((p) => !p.property.literal && !p.property.optional)
      .map((p) => ({ step: "present" as const, ...p, reads: true })),
    ...values.flatMap(({ parts: [rest], ...p }) =>
      rest ? [{ step: "value" as const, ...p, check: rest, reads: p.property.optional }] : [],
    ),
    ...values.flatMap(({ parts: [rest, scans], ...p }) =>
      scans ? [{ step: "scan" as const, ...p, check: scans, reads: p.property.optional && !rest }] : [],
    ),
  ];
}

/** A property's check as what it tests without scanning the value, and its scans (either may be absent). */
function splitScans(check: Check): [Check | undefined, Check | undefined] {
  if (check.kind === "any") return [undefined, undefined];
  if (check.kind === "test") return check.scan ? [undefined, check] : [check, undefined];
  if (check.kind !== "allOf") return [check, undefined];
  const scans = check.checks.filter((c) => c.kind === "test" && c.scan);
  const rest = check.checks.filter((c) => !(c.kind === "test" && c.scan));
  const all = (checks: Check[]): Check | undefined =>
    checks.length === 0 ? undefined : checks.length === 1 ? checks[0] : { kind: "allOf", checks };
  return [all(rest), all(scans)];
}

/**
 * What a message shows of a value of a kind the check admits (SHOW_* in
 * runtime/validation/support.ts): a string's text, a number, an array's length. Of a value of another kind it names the kind alone,
 * and a boolean, null or an object read the same either way.
 */
const SHOWN: readonly (readonly [number, string])[] = [
  [KINDS.string, "SHOW_STRING"],
  [KINDS.number, "SHOW_NUMBER"],
  [KINDS.array, "SHOW_LENGTH"],
];

/**
 * Where a part is, from the value of the function that checks it: a pointer written when the code
 * is generated (`at`), or an expression for a key known at run time (`run`: an array's index, a
 * map's entry).
 */
type PartKey = { at: string } | { run: string };

/** A guard body that only calls another type's guard. */
const ALIAS = /^return g_([A-Za-z_$][\w$]*)\(v, d\);$/;

export class CheckPrinter {
  /**
   * `trail`: guards record where they failed (see guardBody), so the first issue needs no walk
   * of the value; without it (`false`, for the tests that compare both) every issue comes from
   * the explaining pass.
   */
  constructor(private readonly trail = true) {}

  private readonly hoisted: string[] = [];
  private hoistCount = new Map<string, number>();
  private readonly guardBodies = new Map<string, string>();
  private readonly expectations = new Map<string, string>();
  private readonly memberSets = new Map<string, string>();
  private readonly variantSets = new Map<string, string>();
  private locals = 0;

  /** Guard and explain functions named after `name`; `depthGuard` for types that can recurse. */
  functions(name: string, check: Check, depthGuard: boolean): string {
    this.locals = 0;
    const guardBody =
      (depthGuard ? `if (d > MAX_DEPTH) return ${this.fails("failed()")};\n` : "") + this.guardBody(check, "v", name);
    const body = this.explain(check, "v", '""', 0, name, "d", FUNCTION_EXIT);
    const counted = /\bn(?:\+\+| \+=)/.test(body);
    const explainBody =
      (depthGuard ? "if (d > MAX_DEPTH) return out.tooDeep();\n" : "") +
      (counted ? `let n = 0;\n${body}\nreturn n;` : `${body}\nreturn 0;`);
    this.guardBodies.set(name, guardBody);
    return [
      `function g_${name}(${param("v", guardBody)}: unknown, ${param("d", guardBody)}: number): boolean {\n${guardBody}\n}`,
      `function x_${name}(${param("v", explainBody)}: unknown, ${param("out", explainBody)}: IssueList, ${param("d", explainBody)}: number): number {\n${explainBody}\n}`,
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

  /**
   * A boolean expression; `depth` is the JSON nesting depth of `v` (containers add one for their
   * children), `prefix` where `v` is (see guardBody).
   */
  private guard(check: Check, v: string, owner: string, depth: string, prefix: string): string {
    switch (check.kind) {
      case "any":
        return "true";
      case "test":
        return `(${check.test(v)})`;
      case "ref":
        return `g_${check.name}(${v}, ${depth})`;
      case "allOf":
        return `(${check.checks.map((c) => this.guard(c, v, owner, depth, prefix)).join(" && ")})`;
      case "anyOf":
        return `(${check.members.map((m) => this.guard(m.check, v, owner, depth, prefix)).join(" || ")})`;
      case "object":
      case "array":
      case "switch":
        return `${this.hoist(check, owner, prefix)}(${v}, ${depth})`;
    }
  }

  /** A hoisted function is called from one place only: where its value is (`prefix`) is known. */
  private hoist(check: Check, owner: string, prefix: string): string {
    const n = (this.hoistCount.get(owner) ?? 0) + 1;
    this.hoistCount.set(owner, n);
    const name = `g_${owner}$${n}`;
    const body = this.guardBody(check, "v", owner, prefix);
    this.hoisted.push(`function ${name}(v: unknown, ${param("d", body)}: number): boolean {\n${body}\n}`);
    return name;
  }

  /**
   * Statements that end in `return <valid>`. A failure returns through the trail
   * (runtime/validation/support.ts): a single test records the issue itself (`failedTest`,
   * `failedMissing`), a union its own explanation (`failedUnion`), a part another function checked
   * its key (`failedIn`, or `failedInType` for a named type's part, which takes over the
   * explanation of a failure below it that only an explanation can describe: `failed()`, a member
   * of a dispatched union, whose issue names the member). A check of the same value by another type's guard passes its
   * failure on as it is. Checks combined (a type and its constraints, `Error & {...}`) are made one
   * after the other, in the order the explanation makes them.
   *
   * `prefix`: the pointer from the last place only known at run time (the value of a named type,
   * an array's item, a map's entry) to `v`, known when the code is generated. The trail's keys
   * include it, so that a failure under nested objects adds one key, not one a level, and its
   * path costs one concatenation: the caller of a hoisted function at a constant key adds nothing.
   */
  private guardBody(check: Check, v: string, owner: string, prefix = ""): string {
    const here = stringLiteral(prefix);
    switch (check.kind) {
      case "object": {
        const lines = [
          `if (${NOT_OBJECT(v)}) return ${this.failsTest(here, "object", KINDS.object, v)};`,
          `const o = ${v} as Readonly<Record<string, unknown>>;`,
        ];
        for (const { step, property: p, index, check: part, reads } of objectSteps(check.properties)) {
          const read = readProperty("o", p.name);
          const key: PartKey = { at: pointerSegment(p.name) };
          const absent = this.fails(
            `failedMissing(${stringLiteral(prefix + key.at)}, ${stringLiteral(`missing required property ${JSON.stringify(p.name)}`)})`,
          );
          if (p.check.kind === "any") {
            if (step === "present") lines.push(`if (${read} === undefined) return ${absent};`);
            continue;
          }
          const x = `p${index}`;
          // A required value was read where its presence was checked.
          if (reads) {
            lines.push(`const ${x} = ${read};`);
            if (!p.optional) lines.push(`if (${x} === undefined) return ${absent};`);
          }
          if (step === "present") continue;
          const checks = this.checked(part, x, key, "d + 1", owner, prefix);
          if (!p.optional) lines.push(...checks);
          else if (checks.length === 1) lines.push(`if (${x} !== undefined && ${(checks[0] as string).slice(4)}`);
          else lines.push(`if (${x} !== undefined) {`, ...checks, `}`);
        }
        if (check.index) {
          // A closed object (additionalProperties: false) has a test that always fails. Printing
          // the guard only to look at it would hoist helpers nothing calls.
          const closed = check.index.kind === "test" && check.index.test("x") === "false";
          const declared = skipDeclared(check.properties.map((p) => p.name));
          const key: PartKey = { run: "new EntryKey(k)" };
          lines.push(
            // A closed object needs no value: any other key fails.
            ...(!closed
              ? [
                  `for (const k in o) {`,
                  ...declared,
                  `const x = o[k];`,
                  ...this.checked(check.index, "x", key, "d + 1", owner, prefix),
                  `}`,
                ]
              : [
                  `for (const k in o) {`,
                  ...declared,
                  `return ${this.passOn(check.index, "o[k]", key, owner, prefix)};`,
                  `}`,
                ]),
          );
        }
        // No property to read: the object test is the whole check.
        if (lines.length === 2) lines.pop();
        lines.push("return true;");
        return lines.join("\n");
      }
      case "array":
        if (check.items.kind === "any")
          return `return Array.isArray(${v}) || ${this.failsTest(here, "array", KINDS.array, v)};`;
        return [
          `if (!Array.isArray(${v})) return ${this.failsTest(here, "array", KINDS.array, v)};`,
          `const a = ${v} as readonly unknown[];`,
          `for (let i = 0; i < a.length; i++) {`,
          `const x = a[i];`,
          ...this.checked(check.items, "x", { run: "i" }, "d + 1", owner, prefix),
          `}`,
          `return true;`,
        ].join("\n");
      case "switch":
        // A member's failure is the union's: its explanation names the member.
        return [
          `if (${NOT_OBJECT(v)}) return ${this.failsTest(here, `object (${check.label})`, KINDS.object, v)};`,
          `const tag = ${readProperty(`(${v} as Readonly<Record<string, unknown>>)`, check.property)};`,
          `switch (tag) {`,
          ...check.cases.map(
            (c) =>
              `${caseLabels(c.values)}\nreturn ${this.guard(c.check, v, owner, "d", prefix)} || ${this.fails("failed()")};`,
          ),
          `default:\nreturn ${this.fails(`failedVariant(${stringLiteral(prefix + pointerSegment(check.property))}, ${this.variants(check)}, tag)`)};`,
          `}`,
        ].join("\n");
      case "ref":
        return `return g_${check.name}(${v}, d);`;
      case "any":
        return "return true;";
      default:
        return [...this.checked(check, v, { at: "" }, "d", owner, prefix), "return true;"].join("\n");
    }
  }

  /**
   * `if (!<check of x>) return <its failure>;` statements for the part at `key`. Checks combined
   * (a type and its constraints, `Error & {...}`) are made one after the other, in the order the
   * explanation makes them, so the trail records the one that failed.
   */
  private checked(check: Check, x: string, key: PartKey, depth: string, owner: string, prefix: string): string[] {
    if (check.kind === "allOf") return check.checks.flatMap((c) => this.checked(c, x, key, depth, owner, prefix));
    const inner = "at" in key ? prefix + key.at : "";
    return [`if (!${this.guard(check, x, owner, depth, inner)}) return ${this.passOn(check, x, key, owner, prefix)};`];
  }

  /**
   * What a guard returns when the part at `key` (an expression: a pointer segment, or an array
   * index) failed `check`: the issue itself for a single test, the key for a part another function
   * checked (it recorded the rest), the union's own explanation for a union, else `failed()`: only
   * the explanation of the type around it can say what is wrong. A part at a constant key records
   * `prefix` with the key; at a key known at run time, the key and then `prefix`. A hoisted
   * function at a constant key recorded both itself (see guardBody).
   */
  private passOn(check: Check, x: string, key: PartKey, owner: string, prefix: string): string {
    if (!this.trail) return "false";
    const at = "at" in key ? stringLiteral(prefix + key.at) : key.run;
    const above = "run" in key && prefix !== "" ? ` || failedIn(${stringLiteral(prefix)})` : "";
    switch (check.kind) {
      case "test":
        return this.failsTest(at, check.expected, check.kinds, x) + above;
      case "ref":
        return `failedInType(${at}, x_${check.name}, ${x})${above}`;
      case "object":
      case "array":
      case "switch":
        return "at" in key ? "false" : `failedIn(${at})${above}`;
      case "anyOf": {
        const members = this.memberGuards(check);
        return `failedUnion(${at}, ${this.hoistUnion(check, owner)}, ${x}${members ? `, ${members}` : ""})${above}`;
      }
      default:
        return "failed()";
    }
  }

  /** A failure through the trail; `false` without one. */
  private fails(call: string): string {
    return this.trail ? call : "false";
  }

  /** The failure of a single test of `x` (at `key`) that expects `expected`. */
  private failsTest(key: string, expected: string, kinds: number, x: string): string {
    return this.fails(`failedTest(${key}, ${this.expectation(expected, kinds)}, ${x})`);
  }

  /**
   * The module constant (`EXPECTED_<n> = expectation(text, shown)`) for what a check expects (the
   * kinds of value it admits: `kinds`): its messages' start is written once, and so are its whole
   * messages about a value of a kind it does not admit.
   */
  private expectation(text: string, kinds: number): string {
    const shown = SHOWN.filter(([kind]) => kinds & kind).map(([, name]) => name);
    return constantName(this.expectations, "EXPECTED", `${stringLiteral(text)}, ${shown.join(" | ") || "0"}`);
  }

  /**
   * The module constant (`MEMBERS_<n> = members(…)`) with the guards of a union's members, when
   * they are all named types: the union's first issue then comes from their guards (pickMember in
   * runtime/validation/support.ts), not from explaining each member.
   */
  private memberGuards(check: Extract<Check, { kind: "anyOf" }>): string | undefined {
    const names = check.members.map((m) => (m.check.kind === "ref" ? m.check.name : undefined));
    if (names.some((n) => n === undefined)) return undefined;
    const text = `members(${this.expectation(check.label, check.kinds)}, [${names.map((n) => `g_${n}`).join(", ")}], [${check.members
      .map((m) => stringLiteral(m.label))
      .join(", ")}])`;
    return constantName(this.memberSets, "MEMBERS", text);
  }

  /**
   * The module constant (`VARIANTS_<n> = variants(…)`) with the tag values a dispatching union
   * knows and its members' names: what its guard and its explanation report of a tag that
   * selects no member.
   */
  private variants(check: Extract<Check, { kind: "switch" }>): string {
    const expected = check.cases.flatMap((c) => c.values.map(literalText)).join(" | ");
    return constantName(this.variantSets, "VARIANTS", `${stringLiteral(expected)}, ${stringLiteral(check.label)}`);
  }

  /** The declarations of the module constants printed so far: expectations, tag values, then union members. */
  constantDeclarations(): string[] {
    return [
      ...[...this.expectations].map(([args, name]) => `const ${name} = expectation(${args});`),
      ...[...this.variantSets].map(([args, name]) => `const ${name} = variants(${args});`),
      ...[...this.memberSets].map(([text, name]) => `const ${name} = ${text};`),
    ];
  }

  // ---- explain ----

  private local(prefix: string): string {
    return `${prefix}${++this.locals}`;
  }

  /**
   * Statements that record the value's issues in `out` (an IssueList), with paths relative to the
   * explain function's own value (`path` is that relative path, `""` at the top, and `level` how
   * many segments it has). `at.stop` ends the explanation once a record says so (first-issue
   * mode): `return 1;` in an explain function, a labelled `break` inside a union member tried on
   * its own. `at.count(n)` adds to the function's count in every-issue mode (nothing inside a
   * union member: the union counts what it keeps).
   */
  private explain(
    check: Check,
    v: string,
    path: string,
    level: number,
    owner: string,
    depth: string,
    at: Exit,
  ): string {
    const inner = depth === "d" ? "d + 1" : `${depth} + 1`;
    /** Records one issue (when `cond` holds): stop, or count it. */
    const record = (call: string, cond?: string) => {
      const count = at.count("1");
      if (!count) return `if (${cond ? `${cond} && ` : ""}${call}) ${at.stop}`;
      const statement = `if (${call}) ${at.stop}\n${count}`;
      return cond ? `if (${cond}) {\n${statement}\n}` : statement;
    };
    switch (check.kind) {
      case "any":
        return "";
      case "test":
        return record(
          `out.fault(${path}, ${level}, ${this.expectation(check.expected, check.kinds)}, ${v})`,
          `!(${check.test(v)})`,
        );
      case "ref": {
        // A part that passes its own guard has nothing to report, and the guard is hot code where
        // the explain function may not be (explaining is rare).
        const c = this.local("c");
        return lines(
          `if (!g_${check.name}(${v}, ${depth})) {`,
          `const ${c} = x_${check.name}(${v}, out, ${depth});`,
          `if (out.lift(${c}, ${path}, ${level})) ${at.stop}`,
          at.count(c),
          `}`,
        );
      }
      case "allOf":
        return check.checks.map((c) => this.explain(c, v, path, level, owner, depth, at)).join("\n");
      case "object": {
        const o = this.local("o");
        const lines: string[] = [];
        /** The locals that hold the required values, read where their presence is checked. */
        const read = new Map<string, string>();
        for (const { step, property: p, check: part } of objectSteps(check.properties)) {
          if (p.optional && p.check.kind === "any") continue;
          let x = read.get(p.name);
          if (x === undefined) {
            x = this.local("x");
            read.set(p.name, x);
            lines.push(`const ${x} = ${readProperty(o, p.name)};`);
          }
          const where = appendPath(path, stringLiteral(pointerSegment(p.name)));
          const body = step === "present" ? "" : this.explain(part, x, where, level + 1, owner, inner, at);
          if (p.optional || step === "value" || step === "scan") {
            if (body) lines.push(`if (${x} !== undefined) {\n${body}\n}`);
          } else {
            const absent = record(
              `out.absent(${where}, ${level + 1}, ${stringLiteral(`missing required property ${JSON.stringify(p.name)}`)})`,
            );
            lines.push(
              body
                ? `if (${x} === undefined) {\n${absent}\n} else {\n${body}\n}`
                : `if (${x} === undefined) {\n${absent}\n}`,
            );
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
            this.explain(
              check.index,
              `${o}[${k}]`,
              `${appendPath(path, '"/"')} + pointer(${k})`,
              level + 1,
              owner,
              inner,
              at,
            ),
            `}`,
          );
        }
        const rest =
          lines.length === 0 ? "" : [`const ${o} = ${v} as Readonly<Record<string, unknown>>;`, ...lines].join("\n");
        return orElse(
          NOT_OBJECT(v),
          record(`out.fault(${path}, ${level}, ${this.expectation("object", KINDS.object)}, ${v})`),
          rest,
        );
      }
      case "array": {
        const a = this.local("a");
        const i = this.local("i");
        const rest = [
          `const ${a} = ${v} as readonly unknown[];`,
          `for (let ${i} = 0; ${i} < ${a}.length; ${i}++) {`,
          this.explain(check.items, `${a}[${i}]`, `${appendPath(path, '"/"')} + ${i}`, level + 1, owner, inner, at),
          `}`,
        ].join("\n");
        return orElse(
          `!Array.isArray(${v})`,
          record(`out.fault(${path}, ${level}, ${this.expectation("array", KINDS.array)}, ${v})`),
          rest,
        );
      }
      case "anyOf": {
        const c = this.local("c");
        const count = at.count(c);
        return lines(
          // No trail is read here: the functions this hoists need no place.
          `if (!${this.guard(check, v, owner, depth, "")}) {`,
          this.members(check, v, path, level, owner, depth, count ? c : undefined),
          `if (!out.all) ${at.stop}`,
          count,
          `}`,
        );
      }
      case "switch": {
        const tag = this.local("tag");
        const rest = [
          `const ${tag} = ${readProperty(`(${v} as Readonly<Record<string, unknown>>)`, check.property)};`,
          `switch (${tag}) {`,
          ...check.cases.map((c) => {
            const start = this.local("s");
            const n = this.local("c");
            const body = this.isolated(c.check, v, path, level, owner, depth);
            return [
              `${caseLabels(c.values)} {`,
              `const ${start} = out.items.length;`,
              body,
              `const ${n} = out.named(${start}, ${stringLiteral(c.label)});`,
              lines(`if (${n} !== 0) {`, `if (!out.all) ${at.stop}`, at.count(n), `}`),
              `break;`,
              `}`,
            ].join("\n");
          }),
          `default:`,
          record(
            `out.variant(${appendPath(path, stringLiteral(pointerSegment(check.property)))}, ${level + 1}, ${this.variants(check)}, ${tag})`,
          ),
          `}`,
        ].join("\n");
        return orElse(
          NOT_OBJECT(v),
          record(`out.fault(${path}, ${level}, ${this.expectation(`object (${check.label})`, KINDS.object)}, ${v})`),
          rest,
        );
      }
    }
  }

  /** Explains the members of a union that failed; `count` names the constant that holds how many issues it reports, when one is needed. */
  private members(
    check: Extract<Check, { kind: "anyOf" }>,
    v: string,
    path: string,
    level: number,
    owner: string,
    depth: string,
    count?: string,
  ): string {
    const u = this.local("u");
    return [
      `const ${u} = out.union(${path}, ${level});`,
      ...check.members.map(
        (m) => `${this.isolated(m.check, v, path, level, owner, depth, true)}\n${u}.member(${stringLiteral(m.label)});`,
      ),
      `${count ? `const ${count} = ` : ""}${u}.pick(${this.expectation(check.label, check.kinds)}, ${v});`,
    ].join("\n");
  }

  /** `x_<owner>$<n>`: the explanation of a union its guard found failed, for the trail to start from. */
  private hoistUnion(check: Extract<Check, { kind: "anyOf" }>, owner: string): string {
    const n = (this.hoistCount.get(owner) ?? 0) + 1;
    this.hoistCount.set(owner, n);
    const name = `x_${owner}$${n}`;
    const body = `${this.members(check, "v", '""', 0, owner, "d", "c")}\nreturn c;`;
    this.hoisted.push(
      `function ${name}(v: unknown, out: IssueList, ${param("d", body)}: number): number {\n${body}\n}`,
    );
    return name;
  }

  /**
   * A union member explained on its own: stopping ends this member only, and nothing is counted
   * (the union counts what it keeps). `failed`: the member is known to fail.
   */
  private isolated(
    check: Check,
    v: string,
    path: string,
    level: number,
    owner: string,
    depth: string,
    failed = false,
  ): string {
    if (failed && check.kind === "ref") {
      // The member already failed the union's guard: a named one is explained without asking its guard again.
      const c = this.local("c");
      return `const ${c} = x_${check.name}(${v}, out, ${depth});\nout.lift(${c}, ${path}, ${level});`;
    }
    const label = this.local("m");
    const body = this.explain(check, v, path, level, owner, depth, { stop: `break ${label};`, count: () => "" });
    return body.includes(`break ${label};`) ? `${label}: {\n${body}\n}` : body;
  }
}

/** How explain code leaves after a record: `stop` when the record says to stop, `count(n)` otherwise. */
interface Exit {
  stop: string;
  count: (n: string) => string;
}

/** The explain function's own exit: stop with the one issue, or count every issue. */
const FUNCTION_EXIT: Exit = { stop: "return 1;", count: (n) => (n === "1" ? "n++;" : `n += ${n};`) };

/** `path + literal`, folding two string literals in a row into one (`p + "/a" + "/"` is `p + "/a/"`). */
function appendPath(path: string, literal: string): string {
  if (path === '""') return literal;
  return /"$/.test(path) && /^"/.test(literal) && /(?:^| \+ )"(?:[^"\\]|\\.)*"$/.test(path)
    ? `${path.slice(0, -1)}${literal.slice(1)}`
    : `${path} + ${literal}`;
}

/** Statements, one a line, leaving out empty ones (the layout keeps no blank line inside a function). */
function lines(...statements: string[]): string {
  return statements.filter((s) => s !== "").join("\n");
}

/** `if (cond) <statement> else <rest>`, without an empty else. */
function orElse(cond: string, statement: string, rest: string): string {
  return rest ? `if (${cond}) {\n${statement}\n} else {\n${rest}\n}` : `if (${cond}) {\n${statement}\n}`;
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
