// The model's meaning as checks: a small tree (one walk over the model) that both code
// printers read, the fast boolean guard and the issue-collecting explainer, so the two
// can never disagree about what is valid.
import { unionNumberType } from "../../model/json-numbers.js";
import type { Constraints, Declaration, LiteralValue, Shape, TypeNode } from "../../model/model.js";
import { stringLiteral } from "../code.js";
import { FORMATS } from "./formats.js";
import type { ValidationPlan } from "./plan.js";

export type Check =
  | { kind: "any" }
  /**
   * `test(value)` is a boolean expression, true when the value is valid. `scan`: it reads the
   * whole value (a format, a pattern, uniqueItems), not just its type.
   */
  | {
      kind: "test";
      test: (value: string) => string;
      expected: string;
      kinds: number;
      scan?: true;
      /** A test that the value is one of these literals (a union of them joins them into one). */
      values?: LiteralValue[];
    }
  | { kind: "ref"; name: string }
  | { kind: "object"; properties: PropertyCheck[]; index?: Check }
  | { kind: "array"; items: Check }
  | { kind: "anyOf"; label: string; members: Branch[]; kinds: number }
  | { kind: "switch"; label: string; property: string; cases: (Branch & { values: LiteralValue[] })[] }
  | { kind: "allOf"; checks: Check[] };

export interface PropertyCheck {
  name: string;
  optional: boolean;
  check: Check;
  /** The check is one literal (`type: "text"`): it is made first, see ObjectSteps. */
  literal?: true;
}

export interface Branch {
  label: string;
  check: Check;
}

/**
 * The kinds of JSON value, as bits: a test's `kinds` are those it admits. A message about a value
 * of another kind names the kind alone (`expected string, got number`: the kind is what is
 * wrong); a value of an admitted kind is quoted (`expected "text", got string "image"`).
 */
export const KINDS = { string: 1, number: 2, boolean: 4, null: 8, object: 16, array: 32 } as const;
const ALL_KINDS = 63;

/** What the generated file needs besides the checks themselves. */
export interface Usage {
  formats: Set<string>;
  helpers: Set<string>;
  patterns: string[];
}

const ANY: Check = { kind: "any" };
/** What cost() counts for a format, a pattern or uniqueItems: a regular expression over the string, about. */
const SCAN_COST = 16;
/** How many items cost() assumes an array or a map has. */
const ITEMS = 4;
/** What cost() counts for a type where it reaches itself. */
const RECURSIVE_COST = 64;
const IS_OBJECT = (v: string) => `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;

export class CheckFactory {
  /** cost() of each named type, once computed. */
  private readonly costs = new Map<string, number>();
  /** kinds() of each named type, once computed. */
  private readonly kindsOfNamed = new Map<string, number>();

  constructor(
    private readonly plan: ValidationPlan,
    readonly usage: Usage,
    /** Told about constraints no check exists for; without it they are errors. */
    private readonly unsupported: (what: string) => void = (what) => {
      throw new Error(`validators: unsupported ${what}`);
    },
  ) {}

  declaration(decl: Declaration): Check {
    if (decl.kind === "interface") return this.shape(decl.resolved as Shape);
    return this.withConstraints(this.node(decl.type, decl.constraints?.jsonType), decl.constraints);
  }

  /** `numberType` is a `@TJS-type` that applies to `number` here and in union members, not deeper. */
  node(node: TypeNode, numberType?: string): Check {
    switch (node.kind) {
      case "primitive":
        return this.primitive(node.name, numberType);
      case "literal":
      case "typeof":
        return literal(node.value);
      case "ref":
        return { kind: "ref", name: node.name };
      case "array":
        return { kind: "array", items: this.node(node.items) };
      case "union":
        return this.union(node, numberType);
      case "intersection": {
        const checks = node.members.map((m) => this.node(m)).filter((c) => c.kind !== "any");
        return checks.length === 0 ? ANY : checks.length === 1 ? (checks[0] as Check) : { kind: "allOf", checks };
      }
      case "object":
        return this.shape(this.plan.shape(node) as Shape);
      case "record":
        if (node.key.kind !== "primitive" || node.key.name !== "string") {
          throw new Error(`validators: Record<> keys must be string`);
        }
        return { kind: "object", properties: [], ...this.index(node.value) };
      case "omit": {
        const shape = this.plan.shape(node.type);
        if (!shape) throw new Error("validators: Omit<> of a type that is not an object");
        const keys = new Set(node.keys);
        return this.shape({ ...shape, properties: shape.properties.filter((p) => !keys.has(p.name)) });
      }
    }
  }

  private primitive(name: string, numberType: string = this.plan.model.conventions.numberType): Check {
    switch (name) {
      case "string":
        return { kind: "test", test: (v) => `typeof ${v} === "string"`, expected: "string", kinds: KINDS.string };
      case "number":
        if (numberType === "integer")
          return { kind: "test", test: (v) => `Number.isInteger(${v})`, expected: "integer", kinds: KINDS.number };
        if (numberType === "number") {
          return {
            kind: "test",
            test: (v) => `typeof ${v} === "number" && Number.isFinite(${v})`,
            expected: "number",
            kinds: KINDS.number,
          };
        }
        this.unsupported(`@TJS-type ${numberType}`);
        return ANY;
      case "boolean":
        return { kind: "test", test: (v) => `typeof ${v} === "boolean"`, expected: "boolean", kinds: KINDS.boolean };
      case "null":
        return NULL;
      case "object":
        return { kind: "test", test: IS_OBJECT, expected: "object", kinds: KINDS.object };
      case "unknown":
      case "any":
        return ANY;
      default:
        return { kind: "test", test: () => "false", expected: "nothing (never)", kinds: 0 };
    }
  }

  private union(node: Extract<TypeNode, { kind: "union" }>, jsonType?: string): Check {
    let members = this.plan.flatten(node);
    const numberType = unionNumberType(members, jsonType);
    // `"a" | "b" | string` accepts what `string` accepts: test the primitive once.
    if (members.some((m) => m.kind === "primitive" && m.name === "string")) {
      members = members.filter((m) => !((m.kind === "literal" || m.kind === "typeof") && typeof m.value === "string"));
    }
    const label = members.map((m) => this.plan.label(m, numberType)).join(" | ");
    if (members.some((m) => m.kind === "primitive" && (m.name === "unknown" || m.name === "any"))) return ANY;
    const switched = this.plan.discriminate(members);
    if (switched) {
      return {
        kind: "switch",
        label,
        property: switched.property,
        cases: switched.cases.map((c) => {
          const branches = c.members.map((m) => ({ label: this.plan.label(m), check: this.node(m) }));
          const only = branches[0] as Branch;
          const label = branches.map((b) => b.label).join(" | ");
          return {
            values: c.values,
            label,
            check: branches.length === 1 ? only.check : this.anyOf(label, branches),
          };
        }),
      };
    }
    if (members.length === 1) return this.node(members[0] as TypeNode, numberType);
    return this.anyOf(
      label,
      members.map((m) => ({ label: this.plan.label(m, numberType), check: this.node(m, numberType) })),
    );
  }

  /**
   * A union. When every member is a single test (literals, primitives: `LoggingLevel`, `string |
   * number`), one test: no member can come closer than another, so explaining it tries no branch
   * and reports the one issue the union would (expected: the label).
   */
  private anyOf(label: string, members: Branch[]): Check {
    const kinds = members.reduce((k, m) => k | this.kinds(m.check), 0);
    const tests = members.flatMap((m) => (m.check.kind === "test" ? [m.check] : []));
    if (tests.length < members.length) return { kind: "anyOf", label, members, kinds };
    if (tests.every((t) => t.values)) {
      const values = tests.flatMap((t) => t.values!);
      return { kind: "test", test: oneOf(values), expected: label, kinds, values };
    }
    return {
      kind: "test",
      test: (v) => tests.map((t) => `(${t.test(v)})`).join(" || "),
      expected: label,
      kinds,
      ...(tests.some((t) => t.scan) ? { scan: true as const } : {}),
    };
  }

  /** The kinds of JSON value a check admits (KINDS), named types resolved. */
  private kinds(check: Check): number {
    switch (check.kind) {
      case "ref": {
        let kinds = this.kindsOfNamed.get(check.name);
        if (kinds === undefined) {
          // A type that reaches itself: what it admits is decided by its other parts.
          this.kindsOfNamed.set(check.name, 0);
          kinds = this.kinds(this.declaration(this.plan.declaration(check.name)));
          this.kindsOfNamed.set(check.name, kinds);
        }
        return kinds;
      }
      case "allOf":
        return check.checks.reduce((k, c) => k & this.kinds(c), ALL_KINDS);
      case "test":
      case "anyOf":
        return check.kinds;
      case "object":
      case "switch":
        return KINDS.object;
      case "array":
        return KINDS.array;
      case "any":
        return ALL_KINDS;
    }
  }

  private shape(shape: Shape): Check {
    // Literal-valued properties first: they reject a wrong union member soonest. Then the
    // cheapest first, so that a rejection costs little when a cheap check fails: a nested array of
    // objects is walked only once the rest of the object passed (and its scans, a URI or base64,
    // come after everything: see objectSteps in print-checks.ts).
    const properties = [...shape.properties]
      .map((p) => {
        const check = this.withConstraints(this.node(p.type, p.constraints?.jsonType), p.constraints);
        const literal = check.kind === "test" && isLiteralTest(check);
        const property: PropertyCheck = { name: p.name, optional: p.optional, check, ...(literal ? { literal } : {}) };
        return { property, literal, cost: this.cost(check) };
      })
      .sort((a, b) => Number(b.literal) - Number(a.literal) || a.cost - b.cost)
      .map((p) => p.property);
    return {
      kind: "object",
      properties,
      ...(shape.indexSignature ? this.index(shape.indexSignature.type, shape.indexSignature.constraints) : {}),
    };
  }

  /**
   * A rough cost of running a check on a typical value, to order an object's properties: a type
   * test is 1, a scan SCAN_COST, an array or a map counts its items ITEMS times. A type that
   * reaches itself counts RECURSIVE_COST where it does.
   */
  private cost(check: Check): number {
    switch (check.kind) {
      case "any":
        return 0;
      case "test":
        return check.scan ? SCAN_COST : 1;
      case "ref": {
        let cost = this.costs.get(check.name);
        if (cost === undefined) {
          this.costs.set(check.name, RECURSIVE_COST);
          cost = this.cost(this.declaration(this.plan.declaration(check.name)));
          this.costs.set(check.name, cost);
        }
        return cost;
      }
      case "object":
        return (
          1 +
          check.properties.reduce((sum, p) => sum + this.cost(p.check), 0) +
          (check.index ? ITEMS * this.cost(check.index) : 0)
        );
      case "array":
        return 1 + ITEMS * this.cost(check.items);
      case "anyOf":
        return check.members.reduce((sum, m) => sum + this.cost(m.check), 0);
      case "switch":
        return 1 + Math.max(...check.cases.map((c) => this.cost(c.check)));
      case "allOf":
        return check.checks.reduce((sum, c) => sum + this.cost(c), 0);
    }
  }

  private index(type: TypeNode, constraints?: Constraints): { index?: Check } {
    const check = this.withConstraints(this.node(type, constraints?.jsonType), constraints);
    return check.kind === "any" ? {} : { index: check };
  }

  /**
   * Value constraints are JSON Schema keywords: each applies only to values of its own type (and
   * admits every kind: it fails only values of its own kind, which a message then quotes).
   */
  private withConstraints(check: Check, constraints: Constraints | undefined): Check {
    if (!constraints) return check;
    const extra: Check[] = [];
    const num = (op: string, key: keyof Constraints, bound: number | undefined) => {
      if (bound === undefined) return;
      extra.push({
        kind: "test",
        test: (v) => `typeof ${v} !== "number" || ${v} ${op} ${bound}`,
        expected: `${op} ${bound} (${key})`,
        kinds: ALL_KINDS,
      });
    };
    num(">=", "minimum", constraints.minimum);
    num("<=", "maximum", constraints.maximum);
    num(">", "exclusiveMinimum", constraints.exclusiveMinimum);
    num("<", "exclusiveMaximum", constraints.exclusiveMaximum);
    const count = (
      applies: (v: string) => string,
      measure: (v: string) => string,
      op: string,
      key: keyof Constraints,
      bound: number | undefined,
    ) => {
      if (bound === undefined) return;
      extra.push({
        kind: "test",
        test: (v) => `!(${applies(v)}) || ${measure(v)} ${op} ${bound}`,
        expected: `${key} ${bound}`,
        kinds: ALL_KINDS,
        ...(measure === length ? {} : { scan: true as const }),
      });
    };
    const isArray = (v: string) => `Array.isArray(${v})`;
    const isString = (v: string) => `typeof ${v} === "string"`;
    const length = (v: string) => `${v}.length`;
    const codePoints = (v: string) => `codePoints(${v})`;
    const keyCount = (v: string) => `Object.keys(${v}).length`;
    count(isArray, length, ">=", "minItems", constraints.minItems);
    count(isArray, length, "<=", "maxItems", constraints.maxItems);
    if (constraints.minLength !== undefined || constraints.maxLength !== undefined)
      this.usage.helpers.add("codePoints");
    count(isString, codePoints, ">=", "minLength", constraints.minLength);
    count(isString, codePoints, "<=", "maxLength", constraints.maxLength);
    count(IS_OBJECT, keyCount, ">=", "minProperties", constraints.minProperties);
    count(IS_OBJECT, keyCount, "<=", "maxProperties", constraints.maxProperties);
    if (constraints.pattern !== undefined) {
      const name = `PATTERN_${this.usage.patterns.length}`;
      this.usage.patterns.push(`const ${name} = new RegExp(${stringLiteral(constraints.pattern)}, "u");`);
      extra.push({
        kind: "test",
        test: (v) => `typeof ${v} !== "string" || ${name}.test(${v})`,
        expected: `pattern ${constraints.pattern}`,
        kinds: ALL_KINDS,
        scan: true,
      });
    }
    if (constraints.format !== undefined) {
      const format = FORMATS[constraints.format];
      if (format) {
        this.usage.formats.add(constraints.format);
        extra.push({
          kind: "test",
          test: (v) => `typeof ${v} !== "string" || ${format.fn}(${v})`,
          expected: `${constraints.format} (format)`,
          kinds: ALL_KINDS,
          scan: true,
        });
      } else {
        this.unsupported(`format "${constraints.format}"`);
      }
    }
    if (constraints.multipleOf !== undefined) {
      const step = constraints.multipleOf;
      this.usage.helpers.add("multipleOf");
      extra.push({
        kind: "test",
        test: (v) => `typeof ${v} !== "number" || multipleOf(${v}, ${step})`,
        expected: `multipleOf ${step}`,
        kinds: ALL_KINDS,
      });
    }
    if (constraints.uniqueItems) {
      this.usage.helpers.add("uniqueItems");
      extra.push({
        kind: "test",
        test: (v) => `!Array.isArray(${v}) || uniqueItems(${v})`,
        expected: "uniqueItems",
        kinds: ALL_KINDS,
        scan: true,
      });
    }
    const base: Check = constraints.nullable
      ? this.anyOf(`${describe(check)} | null`, [
          { label: describe(check), check },
          { label: "null", check: NULL },
        ])
      : check;
    if (extra.length === 0) return base;
    return { kind: "allOf", checks: [base, ...extra].filter((c) => c.kind !== "any") };
  }
}

function literal(value: LiteralValue): Check {
  const text = literalText(value);
  const kinds = typeof value === "string" ? KINDS.string : typeof value === "number" ? KINDS.number : KINDS.boolean;
  return { kind: "test", test: oneOf([value]), expected: text, kinds, values: [value] };
}

export function literalText(value: LiteralValue): string {
  return typeof value === "string" ? stringLiteral(value) : String(value);
}

/**
 * `v` is one of `values`. The kind is tested before the comparisons: V8 specializes each `===` to
 * what it has seen, and one value of another kind (a number where a tag is expected) would turn
 * them generic for good, valid values included.
 */
function oneOf(values: LiteralValue[]): (v: string) => string {
  const groups = (["string", "number", "boolean"] as const)
    .map((kind) => ({ kind, texts: values.filter((x) => typeof x === kind).map(literalText) }))
    .filter((g) => g.texts.length > 0);
  return (v) =>
    groups
      .map(({ kind, texts }) => {
        const equal = texts.map((t) => `${v} === ${t}`).join(" || ");
        // true and false are compared by identity whatever the value is.
        if (kind === "boolean") return groups.length > 1 ? `(${equal})` : equal;
        const test = `typeof ${v} === "${kind}" && ${texts.length > 1 ? `(${equal})` : equal}`;
        return groups.length > 1 ? `(${test})` : test;
      })
      .join(" || ");
}

const NULL: Check = { kind: "test", test: (v) => `${v} === null`, expected: "null", kinds: KINDS.null };

function describe(check: Check): string {
  return check.kind === "test" ? check.expected : check.kind === "ref" ? check.name : check.kind;
}

function isLiteralTest(check: Extract<Check, { kind: "test" }>): boolean {
  // One literal: a union of them (`"a" | "b"`) is not sorted first.
  return /^("(?:[^"\\]|\\.)*"|-?\d+(\.\d+)?|true|false)$/.test(check.expected);
}
