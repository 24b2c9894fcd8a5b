// Projects a value of the revision handlers are written for onto an older revision, by that
// revision's shape table: fields its types lack are dropped, values of types it lacks are rebuilt
// as the closest type it has (its reviewed conversions), anything it cannot hold is reported.
import type { Literal, ObjectShape, RevisionProjection, Shape, Template } from "./shapes.js";

/** What a projection did beyond copying: the JSON Pointers it dropped, and the conversions it applied. */
export interface Projected {
  readonly value: unknown;
  /** Values the revision has no place for, dropped. */
  readonly dropped: readonly string[];
  /** Conversions applied: `<pointer> <conversion id>`. */
  readonly converted: readonly string[];
}

type Json = { [key: string]: unknown };
const DROP = Symbol("drop");

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/**
 * `value`, written against `source`'s types, as `target` holds it at `shape`. Pure: the value is
 * not changed.
 */
export function project(
  value: unknown,
  shape: Shape,
  target: RevisionProjection,
  source: RevisionProjection,
): Projected {
  const dropped: string[] = [];
  const converted: string[] = [];

  function resolve(shape: Shape): { shape: Exclude<Shape, string>; name?: string } {
    let name: string | undefined;
    let seen = 0;
    while (typeof shape === "string" && seen++ < 64) {
      name = shape;
      shape = target.types[shape] ?? 0;
    }
    return { shape: typeof shape === "string" ? 0 : shape, ...(name === undefined ? {} : { name }) };
  }

  function walk(value: unknown, shape: Shape, path: string): unknown {
    const { shape: resolved, name } = resolve(shape);
    if (resolved === 0) return value;
    if ("a" in resolved) {
      if (!Array.isArray(value)) return value;
      const out: unknown[] = [];
      value.forEach((item, i) => {
        const projected = walk(item, resolved.a, pointer(path, i));
        if (projected !== DROP) out.push(projected);
      });
      return out;
    }
    if ("u" in resolved) return union(value, resolved.u, path);
    return object(value, resolved, name, path);
  }

  /** A union's members, the members of a member that is a union itself in its place. */
  function flatten(members: readonly Shape[], depth = 0): Shape[] {
    return members.flatMap((member) => {
      const { shape } = resolve(member);
      return shape !== 0 && "u" in shape && depth < 8 ? flatten(shape.u, depth + 1) : [member];
    });
  }

  function union(value: unknown, nested: readonly Shape[], path: string): unknown {
    const members = flatten(nested);
    if (Array.isArray(value)) {
      const list = members.find((m) => "a" in Object(resolve(m).shape));
      return list === undefined ? value : walk(value, list, path);
    }
    if (!isObject(value)) return value;
    const fitting = members.filter((member) => {
      const { shape } = resolve(member);
      return shape !== 0 && "o" in shape && matches(value, shape);
    });
    // A member that has a place for every field; else a reviewed conversion to a member this
    // union has, if one applies (a titled enum is a string schema too, but one without its choices);
    // else the first member that fits, losing what it has no place for.
    const whole = fitting.find((member) => holds(value, resolve(member).shape as ObjectShape));
    if (whole !== undefined) return walk(value, whole, path);
    for (const conversion of target.blocks) {
      if (!members.includes(conversion.to)) continue;
      const from = source.types[conversion.from];
      if (typeof from !== "object" || !("o" in from) || !matches(value, from)) continue;
      const built = build(conversion.build, value) as Json;
      for (const key of conversion.keep) if (value[key] !== undefined) built[key] = value[key];
      converted.push(`${path} ${conversion.id}`);
      return walk(built, conversion.to, path);
    }
    if (fitting[0] !== undefined) return walk(value, fitting[0], path);
    dropped.push(path);
    return DROP;
  }

  function object(value: unknown, shape: ObjectShape, name: string | undefined, path: string): unknown {
    if (!isObject(value)) return value;
    const fields = keepFields(value, shape, name, path);
    const out: Json = {};
    for (const [key, item] of Object.entries(fields)) {
      const declared = Object.hasOwn(shape.o, key) ? shape.o[key] : shape.x;
      if (declared === undefined) {
        dropped.push(pointer(path, key));
        continue;
      }
      const projected = walk(item, declared, pointer(path, key));
      if (projected !== DROP) out[key] = projected;
    }
    return out;
  }

  /**
   * Fields the type lacks that a reviewed conversion keeps as an element of another field
   * (structured content as text): the value with them moved there, unless an equal element is.
   */
  function keepFields(value: Json, shape: ObjectShape, name: string | undefined, path: string): Json {
    let out = value;
    for (const conversion of target.fields) {
      const { type, field, into } = conversion;
      if (type !== name || Object.hasOwn(shape.o, field) || value[field] === undefined) continue;
      const element = build(conversion.build, value, value[field]);
      const list = Array.isArray(out[into]) ? (out[into] as unknown[]) : [];
      const present = list.some((item) => JSON.stringify(item) === JSON.stringify(element));
      out = { ...out, [into]: present ? list : [...list, element] };
      delete out[field];
      converted.push(`${pointer(path, field)} ${conversion.id}`);
    }
    return out;
  }

  const result = walk(value, shape, "");
  return { value: result === DROP ? undefined : result, dropped, converted };
}

/** Whether `value` can be a value of the object type `shape`: its required fields and literals. */
function matches(value: Json, shape: ObjectShape): boolean {
  for (const key of shape.req ?? []) if (value[key] === undefined) return false;
  for (const [key, literal] of Object.entries(shape.lit ?? {})) {
    const found = value[key];
    if (found === undefined) continue;
    if (Array.isArray(literal) ? !literal.includes(found as Literal) : found !== literal) return false;
  }
  return true;
}

/** Whether the object type `shape` declares every field of `value` (or takes any). */
function holds(value: Json, shape: ObjectShape): boolean {
  return shape.x !== undefined || Object.keys(value).every((key) => Object.hasOwn(shape.o, key));
}

/**
 * A template filled from `value`'s fields; `{$json}` is `field` as JSON, and a string that is
 * only `{list[].name}` is the array of the `name` of each element of `value`'s array `list`.
 */
function build(template: Template, value: Json, field?: unknown): unknown {
  const each = typeof template === "string" ? /^\{([^{}|[\]]+)\[\]\.([^{}|[\]]+)\}$/.exec(template) : null;
  if (each) {
    const list = value[each[1]!];
    return Array.isArray(list) ? list.map((item: unknown) => (isObject(item) ? item[each[2]!] : undefined)) : [];
  }
  if (typeof template === "string")
    return template.replace(/\{([^{}]+)\}/g, (_, names: string) => {
      for (const name of names.split("|")) {
        if (name === "$json") return JSON.stringify(field);
        const found = value[name];
        if (typeof found === "string" || typeof found === "number" || typeof found === "boolean") return String(found);
      }
      return "";
    });
  if (Array.isArray(template)) return template.map((t: Template) => build(t, value, field));
  if (template === null || typeof template !== "object") return template;
  const out: Json = {};
  for (const [key, t] of Object.entries(template)) out[key] = build(t, value, field);
  return out;
}
