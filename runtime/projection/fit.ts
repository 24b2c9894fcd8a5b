// Which of a revision's types a value is, read from its shape table: matching at its top
// (required fields and literals, how a union member is told apart) or whole (every field
// declared, all the way down), which is how the walker (project.ts) picks a union's member; and,
// in the value's own revision, which of its fields are hints a revision without them goes without.
import { isObject } from "../jsonrpc.js";
import type { ArrayShape, Literal, ObjectShape, RevisionProjection, Shape } from "./shapes.js";

export type Types = RevisionProjection["types"];

/** `shape` with its names followed in `types`, and the last name on the way (conversions are keyed by it). */
export function resolve(shape: Shape, types: Types): { shape: Exclude<Shape, string>; name?: string } {
  let name: string | undefined;
  let seen = 0;
  while (typeof shape === "string" && seen++ < 64) {
    name = shape;
    shape = types[shape] ?? 0;
  }
  return { shape: typeof shape === "string" ? 0 : shape, ...(name === undefined ? {} : { name }) };
}

/** A union's members, the members of a member that is a union itself in its place. */
export function flatten(members: readonly Shape[], types: Types, depth = 0): Shape[] {
  return members.flatMap((member) => {
    const { shape } = resolve(member, types);
    return shape !== 0 && "u" in shape && depth < 8 ? flatten(shape.u, types, depth + 1) : [member];
  });
}

/** Whether `found` is a value the literal (or list of literals) allows. */
export function allows(literal: Literal | readonly Literal[], found: unknown): boolean {
  return Array.isArray(literal) ? literal.includes(found as Literal) : found === literal;
}

/** Whether `value` can be a value of the object type `shape`: its required fields and literals. */
export function matches(value: { [key: string]: unknown }, shape: ObjectShape): boolean {
  for (const key of shape.req ?? []) if (value[key] === undefined) return false;
  for (const [key, literal] of Object.entries(shape.lit ?? {}))
    if (value[key] !== undefined && !allows(literal, value[key])) return false;
  return true;
}

/**
 * Whether `value` is a value of `shape` whole: matching at every level, and every field it has
 * one its type declares (a titled multi-select is no untitled one: `items.anyOf` has no place there).
 */
export function fits(value: unknown, shape: Shape, types: Types): boolean {
  const { shape: resolved } = resolve(shape, types);
  if (resolved === 0) return true;
  if ("u" in resolved) return flatten(resolved.u, types).some((member) => fits(value, member, types));
  if ("a" in resolved) return Array.isArray(value) && value.every((item) => fits(item, resolved.a, types));
  if (!isObject(value) || !matches(value, resolved)) return false;
  return Object.entries(value).every(([key, item]) => {
    if (item === undefined) return true;
    const declared = Object.hasOwn(resolved.o, key) ? resolved.o[key] : resolved.x;
    return declared !== undefined && fits(item, declared, types);
  });
}

/** The object type `value` is at `shape` (a union's member that holds it, else one it matches); none for anything else. */
export function typeOf(value: { [key: string]: unknown }, shape: Shape, types: Types): ObjectShape | undefined {
  const { shape: resolved } = resolve(shape, types);
  if (resolved === 0 || "a" in resolved) return undefined;
  if ("o" in resolved) return resolved;
  const objects = flatten(resolved.u, types)
    .map((member) => resolve(member, types).shape)
    .filter((member): member is ObjectShape => member !== 0 && "o" in member);
  return objects.find((member) => fits(value, member, types)) ?? objects.find((member) => matches(value, member));
}

/** The shape of an element of an array at `shape` (a union's list member); anything when it has none. */
export function itemShape(shape: Shape, types: Types): Shape {
  const { shape: resolved } = resolve(shape, types);
  if (resolved === 0 || "o" in resolved) return 0;
  if ("a" in resolved) return resolved.a;
  const members = flatten(resolved.u, types).map((member) => resolve(member, types).shape);
  return members.find((member): member is ArrayShape => member !== 0 && "a" in member)?.a ?? 0;
}

/** The shape of the field `key` of the object type `type` (anything, when the type is unknown). */
export function fieldShape(type: ObjectShape | undefined, key: string): Shape {
  if (type === undefined) return 0;
  return (Object.hasOwn(type.o, key) ? type.o[key] : type.x) ?? 0;
}

/**
 * Whether the field `key` of a value of the object type `type` is a hint a revision without it
 * goes without: optional, and a plain value or open metadata (a `default`, `mode: "form"`,
 * `_meta`). A structured one asks for something the client would not do (`tools`, a `task`).
 */
export function isHint(type: ObjectShape | undefined, key: string, types: Types): boolean {
  if (type === undefined || type.req?.includes(key)) return false;
  const declared = Object.hasOwn(type.o, key) ? type.o[key] : type.x;
  if (declared === undefined) return false;
  const { shape } = resolve(declared, types);
  return shape === 0 || ("o" in shape && shape.x !== undefined);
}
