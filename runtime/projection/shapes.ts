// What one revision's values look like, compactly, for projecting values of a newer revision onto
// it: generated per revision (generated/<rev>/projection.ts) from its model. Revision-free: the
// walker (project.ts) reads these tables and nothing else.
import type { HttpBinding } from "../transport.js";

/**
 * `0`: anything goes (primitives, `unknown`, literals): kept as it is. A string names a type of
 * the same table. The rest are objects, arrays and unions of them.
 */
export type Shape = 0 | string | ObjectShape | ArrayShape | UnionShape;

export interface ObjectShape {
  /** The properties the revision declares, with their shapes. */
  readonly o: { readonly [property: string]: Shape };
  /** Required properties. */
  readonly req?: readonly string[];
  /** Properties whose type is a literal or a union of them (how a union member is told apart: `type: "text"`). */
  readonly lit?: { readonly [property: string]: Literal | readonly Literal[] };
  /** An open object (`{ [key: string]: T }`, `_meta`): keys it does not declare are kept, with this shape. */
  readonly x?: Shape;
}

export type Literal = string | number | boolean;

export interface ArrayShape {
  readonly a: Shape;
}

export interface UnionShape {
  readonly u: readonly Shape[];
}

/**
 * A template: strings may hold `{field}`, `{a|b}` (the first present) or `{$json}` (the field's
 * value as JSON); a string that is only `{list[].name}` is the array of each element's `name`.
 */
export type Template = string | number | boolean | null | readonly Template[] | { readonly [key: string]: Template };

/** A value of a type the revision lacks (`from`, of the written-for revision), rebuilt as one it has (`to`). */
export interface BlockConversion {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly build: Template;
  /** Fields of the value carried over to the rebuilt one (then projected like any other). */
  readonly keep: readonly string[];
  /**
   * The rebuilt value says all the value said: applied in requests to the client too, which are
   * otherwise refused rather than sent converted (the handler could not know what was asked).
   */
  readonly lossless?: boolean;
}

/** A field the revision's `type` lacks, kept as an element of its array field `into`. */
export interface FieldConversion {
  readonly id: string;
  readonly type: string;
  readonly field: string;
  readonly into: string;
  readonly build: Template;
}

/** One revision, as a target of projection. */
export interface RevisionProjection {
  readonly revision: string;
  /** The declarations reachable from what a server sends, by name. */
  readonly types: { readonly [name: string]: Shape };
  /** Client→server requests of this revision, with their results' shapes. */
  readonly results: { readonly [method: string]: Shape };
  /** Server→client requests, with their params' shapes. */
  readonly requests: { readonly [method: string]: Shape };
  /** The request context's helpers that send server→client requests (`elicit`), with their methods. */
  readonly helpers: { readonly [name: string]: string };
  /** Requests to the client carried as multi round-trip input (in a result), with their params' shapes. */
  readonly inputRequests: { readonly [method: string]: Shape };
  /** Server→client requests (as messages or as input), with the shapes of the client's answers. */
  readonly answers: { readonly [method: string]: Shape };
  /** Fields every result carries, with a plain, complete result's value (none before 2026-07-28). */
  readonly resultDefaults: { readonly [field: string]: Literal };
  /** Fields the results of some methods carry (2026-07-28's caching hints), with an absent field's reading. */
  readonly methodDefaults: { readonly [method: string]: { readonly [field: string]: Literal } };
  /** Server→client notifications, with their params' shapes. */
  readonly notifications: { readonly [method: string]: Shape };
  /** Client→server notifications. */
  readonly clientNotifications: readonly string[];
  /** The handshake: its request, and the params and result fields carrying the protocol version. */
  readonly handshake?: { readonly request: string; readonly version: string; readonly resultVersion: string };
  readonly http: HttpBinding;
  readonly blocks: readonly BlockConversion[];
  readonly fields: readonly FieldConversion[];
}
