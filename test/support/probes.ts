// Probe instances for a JSON Schema definition: a minimal and a full sample of each anyOf
// branch, and mutations of them (missing properties, wrong types, extra keys). Two schemas
// that mean the same thing must agree on every probe.
import type { JsonSchema } from "./spec.js";

const MAX_DEPTH = 6;
const WRONG_VALUES: unknown[] = [null, 1.5, -1, 0, "s", true, [], {}, [1], { k: "v" }];

const FORMAT_SAMPLES: Record<string, string> = {
  uri: "https://example.com/a",
  "uri-reference": "/a",
  "uri-template": "file:///{path}",
  byte: "aGVsbG8=",
  "date-time": "2025-01-01T00:00:00Z",
  date: "2025-01-01",
  email: "a@example.com",
};

export class ProbeGenerator {
  constructor(private readonly defs: Record<string, JsonSchema>) {}

  /** Probes for one definition. */
  probes(schema: JsonSchema): unknown[] {
    const samples = this.branches(schema).flatMap((branch) => [
      this.sample(branch, 0, false),
      this.sample(branch, 0, true),
    ]);
    const out: unknown[] = [...samples, ...WRONG_VALUES, "x".repeat(3)];
    for (const sample of samples) out.push(...mutations(sample));
    return dedupe(out);
  }

  private resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
      current = this.defs[current.$ref.split("/").pop() as string] ?? {};
    }
    return current;
  }

  /** Each top-level alternative of a schema (anyOf members, following references). */
  private branches(schema: JsonSchema, depth = 0): JsonSchema[] {
    const s = this.resolve(schema);
    if (Array.isArray(s.anyOf) && depth < 4)
      return (s.anyOf as JsonSchema[]).flatMap((m) => this.branches(m, depth + 1));
    if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => ({ const: v }));
    if (Array.isArray(s.type)) return (s.type as string[]).map((t) => ({ ...s, type: t }));
    return [s];
  }

  private sample(schema: JsonSchema, depth: number, full: boolean): unknown {
    const s = this.resolve(schema);
    if ("const" in s) return s.const;
    if (Array.isArray(s.enum)) return s.enum[0];
    if (Array.isArray(s.anyOf)) {
      // Deep in recursive types, prefer a branch without references so samples stay finite.
      const members = s.anyOf as JsonSchema[];
      const pick =
        depth >= MAX_DEPTH ? (members.find((m) => !JSON.stringify(m).includes("$ref")) ?? members[0]) : members[0];
      return this.sample(pick ?? {}, depth + 1, full);
    }
    if (Array.isArray(s.allOf)) {
      return Object.assign({}, ...(s.allOf as JsonSchema[]).map((m) => this.sample(m, depth + 1, full) as object));
    }
    const type = Array.isArray(s.type) ? (s.type as string[])[0] : s.type;
    switch (type) {
      case "object": {
        const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
        const required = new Set((s.required ?? []) as string[]);
        const out: Record<string, unknown> = {};
        for (const [key, prop] of Object.entries(properties)) {
          if (required.has(key) || (full && depth < MAX_DEPTH)) out[key] = this.sample(prop, depth + 1, full);
        }
        return out;
      }
      case "array": {
        const min = typeof s.minItems === "number" ? s.minItems : 0;
        const count = Math.max(min, full && depth < MAX_DEPTH ? 1 : 0);
        return Array.from({ length: count }, () => this.sample((s.items ?? {}) as JsonSchema, depth + 1, full));
      }
      case "string":
        return typeof s.format === "string" ? (FORMAT_SAMPLES[s.format] ?? "text") : "text";
      case "integer":
        return typeof s.minimum === "number" ? s.minimum : 1;
      case "number":
        return typeof s.maximum === "number" ? s.maximum / 2 : 0.5;
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        return full ? { any: [1, "two"] } : "anything";
    }
  }
}

/** Variants of a sample: each property removed or given a wrong value, one level down too. */
function mutations(sample: unknown, depth = 0): unknown[] {
  if (sample === null || typeof sample !== "object" || depth > 1) return [];
  if (Array.isArray(sample)) {
    return sample.length === 0 ? [] : WRONG_VALUES.map((w) => [w, ...sample.slice(1)]);
  }
  const out: unknown[] = [
    { ...sample, extra: 1 },
    { ...sample, __proto__x: null },
  ];
  const record = sample as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const { [key]: _removed, ...rest } = record;
    out.push(rest);
    for (const wrong of WRONG_VALUES) out.push({ ...record, [key]: wrong });
    for (const nested of mutations(record[key], depth + 1)) out.push({ ...record, [key]: nested });
  }
  return out;
}

function dedupe(values: unknown[]): unknown[] {
  return [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
}
