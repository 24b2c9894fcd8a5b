// Plain JSON Schema object literals as tool and prompt schemas: the TypeScript type a literal
// describes (`FromJsonSchema`), worked out by the compiler from the literal itself, so that a
// handler's arguments are typed without a schema library. The run-time check of the same
// literal is json-schema-check.ts.

/** A JSON Schema written as an object literal (a `const` type parameter keeps its literal types). */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

type Depth = readonly unknown[];
/** Recursion stops here: deeper parts are typed `unknown` rather than slowing the compiler down. */
type TooDeep<D extends Depth> = D["length"] extends 10 ? true : false;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The TypeScript type of the values a JSON Schema literal accepts. */
export type FromJsonSchema<S, Root = S, D extends Depth = []> =
  TooDeep<D> extends true
    ? unknown
    : S extends true
      ? unknown
      : S extends false
        ? never
        : S extends { readonly $ref: infer R extends string }
          ? FromRef<R, Root, D>
          : S extends { readonly const: infer C }
            ? C
            : S extends { readonly enum: readonly (infer E)[] }
              ? E
              : S extends { readonly anyOf: infer M extends readonly unknown[] }
                ? Members<M, Root, D>
                : S extends { readonly oneOf: infer M extends readonly unknown[] }
                  ? Members<M, Root, D>
                  : S extends { readonly allOf: infer M extends readonly unknown[] }
                    ? UnionToIntersection<Members<M, Root, D>>
                    : S extends { readonly type: infer T }
                      ? T extends readonly (infer Each)[]
                        ? FromType<Each, S, Root, D>
                        : FromType<T, S, Root, D>
                      : S extends { readonly properties: object }
                        ? FromObject<S, Root, D>
                        : unknown;

type Members<M extends readonly unknown[], Root, D extends Depth> = {
  [I in keyof M]: FromJsonSchema<M[I], Root, [...D, 1]>;
}[number];

type FromRef<R extends string, Root, D extends Depth> = R extends "#"
  ? FromJsonSchema<Root, Root, [...D, 1]>
  : R extends `#/${"$defs" | "definitions"}/${infer Name}`
    ? Root extends { readonly $defs: { readonly [K in Name]: infer Def } }
      ? FromJsonSchema<Def, Root, [...D, 1]>
      : Root extends { readonly definitions: { readonly [K in Name]: infer Def } }
        ? FromJsonSchema<Def, Root, [...D, 1]>
        : unknown
    : unknown;

type FromType<T, S, Root, D extends Depth> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? I extends readonly unknown[]
              ? unknown[]
              : FromJsonSchema<I, Root, [...D, 1]>[]
            : unknown[]
          : T extends "object"
            ? FromObject<S, Root, D>
            : unknown;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/**
 * An object schema: required properties required, the others optional; an index signature only
 * where `additionalProperties` allows more (listed properties alone make a closed type, so a
 * misspelt argument is a compile error, while the run-time check stays as open as the schema).
 */
type FromObject<S, Root, D extends Depth> = Simplify<
  (S extends { readonly properties: infer P }
    ? {
        -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromJsonSchema<P[K], Root, [...D, 1]>;
      } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromJsonSchema<P[K], Root, [...D, 1]>;
      }
    : { [key: string]: unknown }) &
    (S extends { readonly additionalProperties: infer A }
      ? A extends false
        ? unknown
        : { [key: string]: A extends true ? unknown : FromJsonSchema<A, Root, [...D, 1]> | undefined }
      : unknown)
>;
