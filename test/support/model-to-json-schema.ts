// The model's meaning as JSON Schema, so it can be compared with the spec's own schema.json
// (written by typescript-json-schema from schema.ts, independently of us).
// Layout follows typescript-json-schema where that costs nothing: interfaces are flattened
// to their resolved property set, intersections become allOf, unions anyOf.
import { unionNumberType } from "../../generators/model/json-numbers.js";
import type { Constraints, Declaration, Model, Property, Shape, TypeNode } from "../../generators/model/model.js";
import type { JsonSchema } from "./spec.js";

export function modelToJsonSchema(model: Model, defsKey: string): Record<string, JsonSchema> {
  const numberType = model.conventions.numberType;
  const ref = (name: string) => ({ $ref: `#/${defsKey}/${name}` });

  function typeSchema(node: TypeNode, constraints?: Constraints): JsonSchema {
    const schema = bareTypeSchema(node, constraints);
    return constraints ? { ...schema, ...constraintKeywords(constraints) } : schema;
  }

  function bareTypeSchema(node: TypeNode, constraints?: Constraints): JsonSchema {
    switch (node.kind) {
      case "primitive":
        switch (node.name) {
          case "number":
            return { type: constraints?.jsonType ?? numberType };
          case "string":
          case "boolean":
          case "null":
          case "object":
            return { type: node.name };
          case "unknown":
          case "any":
            return {};
          case "undefined":
          case "never":
            return { not: {} };
        }
        break;
      case "literal":
      case "typeof":
        return { const: node.value };
      case "ref":
        return ref(node.name);
      case "array":
        return { type: "array", items: typeSchema(node.items) };
      case "union": {
        // A `@TJS-type` applies to the number members only; a scalar union's are any number.
        const jsonType = unionNumberType(node.members, constraints?.jsonType);
        return { anyOf: node.members.map((m) => typeSchema(m, jsonType ? { jsonType } : undefined)) };
      }
      case "intersection":
        return { allOf: node.members.map((m) => typeSchema(m)) };
      case "object":
        return objectSchema(node.properties, node.indexSignature);
      case "record":
        return { type: "object", additionalProperties: typeSchema(node.value) };
      case "omit":
        throw new Error("Omit<> outside `extends` has no JSON Schema form here");
    }
  }

  function objectSchema(properties: Property[], index: Shape["indexSignature"]): JsonSchema {
    const schema: JsonSchema = {
      type: "object",
      properties: Object.fromEntries(properties.map((p) => [p.name, typeSchema(p.type, p.constraints)])),
      required: properties.filter((p) => !p.optional).map((p) => p.name),
    };
    if (index) schema.additionalProperties = typeSchema(index.type, index.constraints);
    return schema;
  }

  function declarationSchema(decl: Declaration): JsonSchema {
    if (decl.kind === "interface") {
      const shape = decl.resolved as Shape;
      return objectSchema(shape.properties, shape.indexSignature);
    }
    return typeSchema(decl.type, decl.constraints);
  }

  return Object.fromEntries(model.declarations.map((d) => [d.name, declarationSchema(d)]));
}

const KEYWORDS: (keyof Constraints)[] = [
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
];

function constraintKeywords(constraints: Constraints): JsonSchema {
  return Object.fromEntries(KEYWORDS.filter((k) => constraints[k] !== undefined).map((k) => [k, constraints[k]]));
}
