// The two interfaces schema libraries implement so that code like this registry can take their
// schemas without depending on them: Standard Schema v1 (validate, infer types) and Standard
// JSON Schema v1 (the schema as JSON Schema). Zod 4, Valibot (through @valibot/to-json-schema's
// toStandardJsonSchema) and ArkType implement both. Types only, written from the published
// specifications: https://standardschema.dev
// The specifications declare these interfaces in namespaces (code names `StandardSchemaV1.Result`),
// which a rule of typescript-eslint's recommended config reports: vendored copies keep this line.
/* eslint-disable */

/** A schema that validates: `~standard.validate` and the types it reads and gives. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
}

/** A schema that says what it accepts as JSON Schema: `~standard.jsonSchema.input(…)`. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

export declare namespace StandardJSONSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardSchemaV1.Types<Input, Output> | undefined;
    readonly jsonSchema: Converter;
  }
  interface Converter {
    readonly input: (options: Options) => Record<string, unknown>;
    readonly output: (options: Options) => Record<string, unknown>;
  }
  interface Options {
    readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | (object & string);
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}

/** Both at once: what the registry takes from a schema library. */
export interface StandardSchemaWithJSON<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}
