// Model fidelity against an independent oracle: every model declaration, converted to JSON
// Schema, against the same definition in the spec's own schema.json (produced from schema.ts by
// typescript-json-schema, not by us). Structural equality after the documented normalisation
// (test/support/json-schema-normalize.ts); where that cannot bridge a difference, the two must
// accept and reject the same instances except as explained in fixtures/json-schema-differences.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import AjvModule, { type ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { canonical, inlineAliases, normalizeSchema } from "./support/json-schema-normalize.js";
import { modelToJsonSchema } from "./support/model-to-json-schema.js";
import { ProbeGenerator } from "./support/probes.js";
import { checkedInModel, officialExamples, officialSchema, REVISIONS, type JsonSchema } from "./support/spec.js";

interface Difference {
  revisions: string[];
  definitions: string[];
  reason: string;
  disagreement: keyof typeof DISAGREEMENTS;
  examples: Record<string, unknown[]>;
}

/** What an explained behavioural difference may look like: the official schema rejects, we accept. */
const DISAGREEMENTS = {
  containsNull: (value: unknown) => JSON.stringify(value).includes("null"),
  containsNonInteger: (value: unknown) => numbers(value).some((n) => !Number.isInteger(n)),
};

function numbers(value: unknown): number[] {
  if (typeof value === "number") return [value];
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(numbers);
  return [];
}

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "json-schema-differences.json"), "utf8"),
) as {
  differences: Difference[];
};

function normalizedDefs(defs: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return inlineAliases(Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, normalizeSchema(v)])));
}

/** `name` and every definition it refers to, directly or not. */
function reachableDefinitions(defs: Record<string, JsonSchema>, name: string): Set<string> {
  const seen = new Set<string>();
  const visit = (n: string) => {
    if (seen.has(n)) return;
    seen.add(n);
    for (const match of JSON.stringify(defs[n] ?? {}).matchAll(/"\$ref":"#\/(?:\$defs|definitions)\/([^"]+)"/g)) {
      visit(match[1] as string);
    }
  };
  visit(name);
  return seen;
}

type Validators = (name: string) => ValidateFunction;

function validators(root: JsonSchema, defsKey: string): Validators {
  const draft2020 = String(root.$schema).includes("2020-12");
  const ajv = draft2020
    ? new Ajv2020Module.default({ strict: false, allErrors: false })
    : new AjvModule.default({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const id = "urn:mcp-gen:schema";
  ajv.addSchema({ ...root, $id: id });
  const cache = new Map<string, ValidateFunction>();
  return (name) => {
    const known = cache.get(name);
    if (known) return known;
    const validate = ajv.compile({ $ref: `${id}#/${defsKey}/${name}` });
    cache.set(name, validate);
    return validate;
  };
}

describe.each(REVISIONS)("model of %s against the spec's schema.json", (revision) => {
  const official = officialSchema(revision);
  const model = checkedInModel(revision);
  const ours = modelToJsonSchema(model, official.defsKey);
  const listed = fixture.differences.filter((d) => d.revisions.includes(revision));
  const listedNames = [...new Set(listed.flatMap((d) => d.definitions))].sort();

  it("has exactly the schema's definitions", () => {
    expect(Object.keys(ours).sort()).toEqual(Object.keys(official.defs).sort());
  });

  it("is structurally equal to every definition after normalisation, except the listed ones", () => {
    const theirs = normalizedDefs(official.defs);
    const mine = normalizedDefs(ours);
    const differing = Object.keys(theirs)
      .filter((name) => canonical(theirs[name]) !== canonical(mine[name]))
      .sort();
    expect(differing).toEqual(listedNames);
  });

  it("accepts and rejects the same probes as schema.json, except as explained", () => {
    const officialValidators = validators(official.root, official.defsKey);
    const ourValidators = validators({ $schema: official.root.$schema, [official.defsKey]: ours }, official.defsKey);
    const sources = [official.defs, ours].map((defs) => ({ defs, generator: new ProbeGenerator(defs) }));
    const unexplained: string[] = [];
    let compared = 0;
    for (const name of Object.keys(official.defs)) {
      // A listed difference also shows through every definition that refers to it.
      const reachable = reachableDefinitions(official.defs, name);
      const explained = listed.filter((d) => d.definitions.some((n) => reachable.has(n)));
      const probes = sources.flatMap(({ defs, generator }) => generator.probes(defs[name] as JsonSchema));
      for (const probe of [...probes, ...explained.flatMap((d) => d.examples[name] ?? [])]) {
        compared++;
        const theirs = officialValidators(name)(probe);
        const mine = ourValidators(name)(probe);
        if (theirs === mine) continue;
        const ok = !theirs && mine && explained.some((d) => DISAGREEMENTS[d.disagreement](probe));
        if (!ok)
          unexplained.push(
            `${name}: schema.json ${theirs ? "accepts" : "rejects"}, model ${mine ? "accepts" : "rejects"} ${JSON.stringify(probe)}`,
          );
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(unexplained).toEqual([]);
  });

  if (listed.length > 0)
    it("still has every listed difference, on its listed examples", () => {
      const officialValidators = validators(official.root, official.defsKey);
      const ourValidators = validators({ $schema: official.root.$schema, [official.defsKey]: ours }, official.defsKey);
      for (const difference of listed) {
        for (const [name, examples] of Object.entries(difference.examples)) {
          for (const example of examples) {
            expect(
              [officialValidators(name)(example), ourValidators(name)(example)],
              `${name} ${JSON.stringify(example)}`,
            ).toEqual([false, true]);
          }
        }
      }
    });

  const examples = officialExamples(revision);
  if (examples.length > 0)
    it("accepts every official example, as schema.json does", () => {
      const officialValidators = validators(official.root, official.defsKey);
      const ourValidators = validators({ $schema: official.root.$schema, [official.defsKey]: ours }, official.defsKey);
      for (const { folder, file, value } of examples) {
        expect([officialValidators(folder)(value), ourValidators(folder)(value)], `${folder}/${file}`).toEqual([
          true,
          true,
        ]);
      }
    });
});
