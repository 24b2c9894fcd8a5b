// Projects a value of one revision (the handlers', usually) onto another, by that revision's shape
// table: fields its types lack are dropped, values of types it lacks are rebuilt as the closest
// type it has (its reviewed conversions). A union's member is the one that holds the value whole,
// by its full shape (fit.ts). The value's own revision's table, walked alongside, tells a dropped
// hint (an optional plain field: a `default`) from what the target cannot express (a field the
// value's type requires, or one asking for something: `tools`), reported with why, for requests
// to the client, which must not lose it.
import { isObject } from "../jsonrpc.js";
import { allows, fieldShape, fits, flatten, isHint, itemShape, matches, resolve, typeOf } from "./fit.js";
import type { ObjectShape, RevisionProjection, Shape, Template } from "./shapes.js";

/** What the revision cannot express in a value, where, and why. */
export interface Lost {
  readonly path: string;
  readonly why: string;
}

/** What a projection did beyond copying: the JSON Pointers it dropped, and the conversions it applied. */
export interface Projected {
  readonly value: unknown;
  /** Values the revision has no place for, dropped. */
  readonly dropped: readonly string[];
  /** Conversions applied: `<pointer> <conversion id>`. */
  readonly converted: readonly string[];
  /** What of `dropped` (or missing) the revision cannot do without: all but the hints its clients never knew. */
  readonly lost: readonly Lost[];
}

/** Why something is lost (read after its pointer, of the target revision: "it"). */
const WHY = {
  lacks: "not in its types",
  holds: "no type it has holds the value",
  required: "required by it, missing",
} as const;

type Json = { [key: string]: unknown };
type Trail = { dropped: string[]; converted: string[]; lost: Lost[] };
const DROP = Symbol("drop");

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/**
 * `value`, written against `source`'s types (`from` its shape there), as `target` holds it at
 * `shape`. Pure: the value is not changed.
 */
export function project(
  value: unknown,
  shape: Shape,
  target: RevisionProjection,
  source: RevisionProjection,
  from: Shape,
): Projected {
  const types = target.types;
  const own = source.types;

  function walk(value: unknown, shape: Shape, from: Shape, path: string, trail: Trail): unknown {
    const { shape: resolved, name } = resolve(shape, types);
    if (resolved === 0) return value;
    if ("u" in resolved) return union(value, resolved.u, from, path, trail);
    if ("a" in resolved) {
      if (!Array.isArray(value)) return lose(trail, path, WHY.holds);
      const item = itemShape(from, own);
      const out: unknown[] = [];
      value.forEach((element, i) => {
        const projected = walk(element, resolved.a, item, pointer(path, i), trail);
        if (projected !== DROP) out.push(projected);
      });
      return out;
    }
    return object(value, resolved, name, from, path, trail);
  }

  function union(value: unknown, nested: readonly Shape[], from: Shape, path: string, trail: Trail): unknown {
    const members = flatten(nested, types);
    const whole = members.find((member) => fits(value, member, types));
    if (whole !== undefined) return walk(value, whole, from, path, trail);
    // A reviewed conversion to a member this union has, for a value of the type it converts (a
    // titled enum is a string schema too, but one without its choices).
    if (isObject(value))
      for (const conversion of target.blocks) {
        if (!members.includes(conversion.to) || !Object.hasOwn(own, conversion.from)) continue;
        if (!fits(value, conversion.from, own)) continue;
        const built = build(conversion.build, value) as Json;
        for (const key of conversion.keep) if (value[key] !== undefined) built[key] = value[key];
        trail.converted.push(`${path} ${conversion.id}`);
        return walk(built, conversion.to, Object.hasOwn(own, conversion.to) ? conversion.to : 0, path, trail);
      }
    // Else the member of its kind losing only hints, else the first, losing what it has no place for.
    const tried = members
      .filter((member) => near(value, member))
      .map((member) => {
        const attempt: Trail = { dropped: [], converted: [], lost: [] };
        return { value: walk(value, member, from, path, attempt), trail: attempt };
      });
    const best = tried.find((t) => t.trail.lost.length === 0) ?? tried[0];
    if (best === undefined) return lose(trail, path, WHY.holds);
    trail.dropped.push(...best.trail.dropped);
    trail.converted.push(...best.trail.converted);
    trail.lost.push(...best.trail.lost);
    return best.value;
  }

  /** Whether `member` is of `value`'s kind: a list for an array, an object it matches at its top for an object. */
  function near(value: unknown, member: Shape): boolean {
    const { shape } = resolve(member, types);
    if (shape === 0) return false;
    if (Array.isArray(value)) return "a" in shape;
    return isObject(value) && "o" in shape && matches(value, shape);
  }

  function object(
    value: unknown,
    shape: ObjectShape,
    name: string | undefined,
    from: Shape,
    path: string,
    trail: Trail,
  ): unknown {
    if (!isObject(value)) return lose(trail, path, WHY.holds);
    const mine = typeOf(value, from, own);
    const fields = keepFields(value, shape, name, path, trail);
    const out: Json = {};
    for (const [key, item] of Object.entries(fields)) {
      if (item === undefined) continue;
      const at = pointer(path, key);
      const declared = Object.hasOwn(shape.o, key) ? shape.o[key] : shape.x;
      if (declared === undefined) {
        trail.dropped.push(at);
        if (!isHint(mine, key, own)) trail.lost.push({ path: at, why: WHY.lacks });
        continue;
      }
      const projected = walk(item, declared, fieldShape(mine, key), at, trail);
      if (projected !== DROP) out[key] = projected;
    }
    for (const key of shape.req ?? [])
      if (fields[key] === undefined) trail.lost.push({ path: pointer(path, key), why: WHY.required });
    for (const [key, literal] of Object.entries(shape.lit ?? {}))
      if (out[key] !== undefined && !allows(literal, out[key]))
        trail.lost.push({ path: pointer(path, key), why: WHY.holds });
    return out;
  }

  /**
   * Fields the type lacks that a reviewed conversion keeps as an element of another field
   * (structured content as text): the value with them moved there, unless an equal element is.
   */
  function keepFields(value: Json, shape: ObjectShape, name: string | undefined, path: string, trail: Trail): Json {
    let out = value;
    for (const conversion of target.fields) {
      const { type, field, into } = conversion;
      if (type !== name || Object.hasOwn(shape.o, field) || value[field] === undefined) continue;
      const element = build(conversion.build, value, value[field]);
      const list = Array.isArray(out[into]) ? (out[into] as unknown[]) : [];
      const present = list.some((item) => JSON.stringify(item) === JSON.stringify(element));
      out = { ...out, [into]: present ? list : [...list, element] };
      delete out[field];
      trail.converted.push(`${pointer(path, field)} ${conversion.id}`);
    }
    return out;
  }

  const trail: Trail = { dropped: [], converted: [], lost: [] };
  const result = walk(value, shape, from, "", trail);
  return { value: result === DROP ? undefined : result, ...trail };
}

/** Drops the value at `path`, which the revision cannot hold. */
function lose(trail: Trail, path: string, why: string): typeof DROP {
  trail.dropped.push(path);
  trail.lost.push({ path, why });
  return DROP;
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
