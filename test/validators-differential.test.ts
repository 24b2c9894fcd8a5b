// Differential test of the generated validators against an independent oracle: ajv 8 with
// ajv-formats on the spec's own schema.json (written by typescript-json-schema from schema.ts).
// For every declaration of every revision, `validators[name].validate(value).ok` must equal
// ajv's verdict on the schema.json definition of the same name, on the official examples and on
// instances generated from the model (test/support/arbitraries.ts): valid ones, and mutants of
// them (required fields dropped, wrong literals and types, numbers out of range or not integers,
// malformed format strings, extra fields, at the root or one or two levels down). Recursive
// types are also compared nested deep, and each format on its own on thousands of strings.
// Every instance is compared after a JSON round trip. The only accepted disagreements are the
// deliberate ones listed in fixtures/json-schema-differences.json, each with a test below that
// fails once the difference is gone. Each rejection also has exactly one issue by default and at
// least one with `{ all: true }`, under the same verdict.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import AjvModule, { type ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Model } from "../generators/model/model.js";
import { formatStrings, ModelArbitraries, type Mutant } from "./support/arbitraries.js";
import { checkedInModel, officialExamples, officialSchema, REVISIONS, type JsonSchema } from "./support/spec.js";

/** Valid instances generated per revision (spread over its declarations). */
const VALID_PER_REVISION = 1_000;
/** Mutants generated per revision at random places, on top of one at every mutation site. */
const RANDOM_MUTANTS_PER_REVISION = 1_000;
/** Format strings compared per format and revision. */
const STRINGS_PER_FORMAT = 3_000;
const SEED = 20_250_611;
/** Nesting depths at which recursive types (JSONValue) are compared. */
const NESTING_LEVELS = [1, 10, 100, 200, 250, 300, 500, 1_000];

interface Verdicts {
  ours: boolean;
  theirs: boolean;
}

/** A generated validator, as far as this test uses it. */
interface OurValidator {
  validate(value: unknown, options?: { all?: boolean }): { ok: boolean; issues?: readonly unknown[] };
  is(value: unknown): boolean;
}

// ---------------------------------------------------------------------------------------------
// The fixture of deliberate differences

/** Model vs schema.json differences (shared with test/model-fidelity.test.ts). */
interface Difference {
  revisions: string[];
  definitions: string[];
  reason: string;
  disagreement: "containsNull" | "containsNonInteger";
  examples: Record<string, unknown[]>;
}

/** Format readings in which our validators deliberately differ from ajv-formats. */
interface FormatDifference {
  revisions: string[];
  format: string;
  reason: string;
  disagreement: "byteLineBreak";
  /** Strings on which the two disagree, in any property of the format. */
  examples: string[];
}

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "json-schema-differences.json"), "utf8"),
) as { differences: Difference[]; formats: FormatDifference[] };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** A string ajv-formats' multi-line `byte` pattern accepts and a whole-string base64 check does not. */
function isByteLineBreak(s: string): boolean {
  return LINE_TERMINATOR.test(s) && s.split(LINE_TERMINATOR).some((line) => BASE64.test(line));
}

const isNonInteger = (leaf: unknown) => typeof leaf === "number" && !Number.isInteger(leaf);
const isByteLineBreakLeaf = (leaf: unknown) => typeof leaf === "string" && isByteLineBreak(leaf);

/** Whether any leaf of a JSON value is such that `match` holds. */
function someLeaf(value: unknown, match: (leaf: unknown) => boolean): boolean {
  if (typeof value === "object" && value !== null) return Object.values(value).some((v) => someLeaf(v, match));
  return match(value);
}

/** The value with every leaf for which `match` holds replaced by `by` (own keys kept as they are). */
function replaceLeaves(value: unknown, match: (leaf: unknown) => boolean, by: unknown): unknown {
  if (match(value)) return by;
  if (Array.isArray(value)) return value.map((v) => replaceLeaves(v, match, by));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceLeaves(v, match, by)]));
  }
  return value;
}

interface Explanation extends Verdicts {
  /** What the instance must contain for the difference to show. */
  holds: (value: unknown) => boolean;
  /**
   * The instance with what makes the difference replaced by a value both sides read alike (null
   * or a fraction by 0, a multi-line string by "AAAA"): a disagreement is explained only if the
   * two then agree, so that the difference cannot hide another one in the same instance.
   */
  neutral: (value: unknown) => unknown;
}

/** Each kind of explained disagreement: which side accepts, and what the instance must contain. */
const EXPLANATIONS: Record<Difference["disagreement"] | FormatDifference["disagreement"], Explanation> = {
  containsNull: {
    theirs: false,
    ours: true,
    holds: (value) => JSON.stringify(value).includes("null"),
    neutral: (value) => replaceLeaves(value, (leaf) => leaf === null, 0),
  },
  containsNonInteger: {
    theirs: false,
    ours: true,
    holds: (value) => someLeaf(value, isNonInteger),
    neutral: (value) => replaceLeaves(value, isNonInteger, 0),
  },
  byteLineBreak: {
    theirs: true,
    ours: false,
    holds: (value) => someLeaf(value, isByteLineBreakLeaf),
    neutral: (value) => replaceLeaves(value, isByteLineBreakLeaf, "AAAA"),
  },
};

// ---------------------------------------------------------------------------------------------
// The two sides

type Ajv = (name: string) => ValidateFunction;

function ajvOn(root: JsonSchema, defsKey: string): Ajv {
  const draft2020 = String(root.$schema).includes("2020-12");
  const ajv = draft2020
    ? new Ajv2020Module.default({ strict: false, allErrors: false })
    : new AjvModule.default({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const id = "https://mcp-gen.invalid/schema";
  ajv.addSchema({ ...root, $id: id });
  const cache = new Map<string, ValidateFunction>();
  return (name) => {
    let validate = cache.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `${id}#/${defsKey}/${name}` });
      cache.set(name, validate);
    }
    return validate;
  };
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

/** Declaration and top-level property of each format, per the model. */
function formatProperties(model: Model): { declaration: string; property: string; format: string }[] {
  return model.declarations.flatMap((d) =>
    (d.resolved?.properties ?? []).flatMap((p) =>
      p.constraints?.format ? [{ declaration: d.name, property: p.name, format: p.constraints.format }] : [],
    ),
  );
}

function seedOf(...parts: string[]): number {
  let h = SEED;
  for (const ch of parts.join("/")) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 600 ? `${text.slice(0, 400)}…${text.slice(-150)} (${text.length} chars)` : text;
}

// ---------------------------------------------------------------------------------------------

describe.each(REVISIONS)("generated validators of %s against ajv on schema.json", (revision) => {
  const official = officialSchema(revision);
  const model = checkedInModel(revision);
  const names = model.declarations.map((d) => d.name);
  const theirs = ajvOn(official.root, official.defsKey);
  const arbitraries = new ModelArbitraries(model);
  let ours: Record<string, OurValidator>;

  beforeAll(async () => {
    const module = (await import(/* @vite-ignore */ `../generated/${revision}/validators.ts`)) as {
      validators: Record<string, OurValidator>;
    };
    ours = module.validators;
  });

  /** The listed differences that can show through a definition, and how. */
  const explanations = new Map(
    names.map((name) => {
      const reachable = reachableDefinitions(official.defs, name);
      const reached = [...reachable].map((n) => JSON.stringify(official.defs[n] ?? {}));
      const kinds = [
        ...fixture.differences
          .filter((d) => d.revisions.includes(revision) && d.definitions.some((n) => reachable.has(n)))
          .map((d) => EXPLANATIONS[d.disagreement]),
        ...fixture.formats
          .filter((d) => d.revisions.includes(revision) && reached.some((s) => s.includes(`"format":"${d.format}"`)))
          .map((d) => EXPLANATIONS[d.disagreement]),
      ];
      return [name, kinds];
    }),
  );

  interface Comparison extends Verdicts {
    /** The value compared: the JSON round trip of the instance. */
    value: unknown;
    /** A listed difference accounts for the disagreement. */
    explained: boolean;
    /** Why this comparison fails the test, if it does. */
    problem?: string;
  }

  /** Both verdicts on the JSON round trip of an instance. */
  function compare(name: string, instance: unknown, origin: string): Comparison {
    const value = JSON.parse(JSON.stringify(instance)) as unknown;
    const their = theirs(name)(value) as boolean;
    const validator = ours[name];
    if (!validator) return { value, ours: false, theirs: their, explained: false, problem: `${name}: no validator` };
    const first = validator.validate(value);
    const all = validator.validate(value, { all: true });
    const mine = first.ok;
    const result: Comparison = { value, ours: mine, theirs: their, explained: false };
    if (validator.is(value) !== mine || all.ok !== mine) {
      result.problem = `${revision} ${name}: is() and validate() (first or all issues) disagree on ${describeValue(value)} (${origin})`;
    } else if (!mine && (first.issues?.length !== 1 || (all.issues?.length ?? 0) < 1)) {
      result.problem = `${revision} ${name}: rejected with ${first.issues?.length} issues (first) and ${all.issues?.length} (all) on ${describeValue(value)} (${origin})`;
    } else if (mine !== their) {
      result.explained = explainedBy(name, value, result);
      if (!result.explained)
        result.problem = `${revision} ${name}: ajv ${their ? "accepts" : "rejects"}, ours ${mine ? "accepts" : "rejects"} ${describeValue(value)} (${origin})`;
    }
    return result;
  }

  /** The value with every listed difference that reaches `name`, holds for it and `applies`, neutralised. */
  function neutralised(name: string, value: unknown, applies: (e: Explanation) => boolean): unknown {
    const found = (explanations.get(name) ?? []).filter((e) => applies(e) && e.holds(value));
    return found.length === 0 ? undefined : found.reduce((v, e) => e.neutral(v), value);
  }

  /**
   * Whether the listed differences that reach `name`, give these verdicts and hold for the value
   * account for the whole disagreement: with them neutralised (one instance may show several,
   * null and 3.14 in one JSONValue), both sides agree.
   */
  function explainedBy(name: string, value: unknown, verdicts: Verdicts): boolean {
    const neutral = neutralised(name, value, (e) => e.ours === verdicts.ours && e.theirs === verdicts.theirs);
    return neutral !== undefined && ours[name]?.validate(neutral).ok === theirs(name)(neutral);
  }

  /** Whether schema.json accepts a value once the listed differences where it rejects are neutralised. */
  function acceptedButForListed(name: string, value: unknown): boolean {
    const neutral = neutralised(name, value, (e) => !e.theirs);
    return neutral !== undefined && theirs(name)(neutral);
  }

  it("has a generated validator for every model declaration, and they are schema.json's definitions", () => {
    expect(names.filter((n) => !ours[n])).toEqual([]);
    expect([...names].sort()).toEqual(Object.keys(official.defs).sort());
  });

  const examples = officialExamples(revision);
  if (examples.length > 0)
    it("agrees with ajv on every official example", () => {
      const unexplained = examples.flatMap(({ folder, file, value }) => {
        expect(names, `examples/${folder} names a model type`).toContain(folder);
        return compare(folder, value, `examples/${folder}/${file}`).problem ?? [];
      });
      expect(unexplained).toEqual([]);
    });

  it("agrees with ajv on at least 2,000 generated valid and mutated instances", () => {
    const validPerDeclaration = Math.ceil(VALID_PER_REVISION / names.length);
    const randomPerDeclaration = Math.ceil(RANDOM_MUTANTS_PER_REVISION / names.length);
    const unexplained: string[] = [];
    const rejectedValid: string[] = [];
    const counts = { valid: 0, mutants: 0, mutantsRejected: 0 };
    const check = (name: string, instance: unknown, origin: string) => {
      const c = compare(name, instance, origin);
      if (c.problem) unexplained.push(c.problem);
      return c;
    };
    for (const name of names) {
      for (const instance of fc.sample(arbitraries.valid(name), {
        seed: seedOf(revision, name, "valid"),
        numRuns: validPerDeclaration,
      })) {
        counts.valid++;
        const c = check(name, instance, "valid");
        // The arbitraries' own check: schema.json accepts what they build as valid, except where
        // a listed difference makes it reject.
        if (!c.theirs && !acceptedButForListed(name, c.value)) rejectedValid.push(`${name}: ${describeValue(c.value)}`);
      }
      // One mutant at every mutation site, so that every constraint is tried, then more at random.
      const mutants: Mutant[] = [
        ...arbitraries
          .mutationSites(name)
          .flatMap((site, i) => fc.sample(site.mutants, { seed: seedOf(revision, name, String(i)), numRuns: 1 })),
        ...fc.sample(arbitraries.mutated(name), {
          seed: seedOf(revision, name, "mutants"),
          numRuns: randomPerDeclaration,
        }),
      ];
      for (const { value: instance, mutation } of mutants) {
        counts.mutants++;
        if (!check(name, instance, `mutant ${mutation}`).theirs) counts.mutantsRejected++;
      }
    }
    expect(unexplained.slice(0, 30), `${unexplained.length} unexplained disagreements`).toEqual([]);
    expect(rejectedValid.slice(0, 10), "valid instances that schema.json rejects").toEqual([]);
    expect(counts.valid + counts.mutants).toBeGreaterThanOrEqual(2_000);
    expect(counts.valid).toBeGreaterThanOrEqual(VALID_PER_REVISION);
    // A healthy mix: most mutants are invalid, some are borderline and still valid.
    expect(counts.mutantsRejected / counts.mutants).toBeGreaterThan(0.6);
    expect(counts.mutantsRejected).toBeLessThan(counts.mutants);
  });

  const recursive = [...arbitraries.recursive().keys()];
  if (recursive.length > 0)
    it.each(recursive)("agrees with ajv on %s nested up to 1,000 levels deep", (name) => {
      const unexplained = NESTING_LEVELS.flatMap(
        (levels) => compare(name, arbitraries.nested(name, levels), `nested ${levels} levels`).problem ?? [],
      );
      expect(unexplained).toEqual([]);
    });

  const formatted = formatProperties(model);
  const formats = [...new Set(formatted.map((f) => f.format))].sort();
  it.each(formats)(`agrees with ajv on ${STRINGS_PER_FORMAT} generated %s strings`, (format) => {
    const targets = formatted.filter((f) => f.format === format);
    const bases = targets.map((t) => arbitraries.minimal(t.declaration) as Record<string, unknown>);
    const { valid, broken, noise } = formatStrings(format);
    const samples = fc.sample(
      fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: broken, weight: 2 }, { arbitrary: noise, weight: 1 }),
      { seed: seedOf(revision, format), numRuns: STRINGS_PER_FORMAT },
    );
    const unexplained: string[] = [];
    let accepted = 0;
    samples.forEach((s, i) => {
      const target = targets[i % targets.length] as (typeof targets)[number];
      const base = bases[i % bases.length] as Record<string, unknown>;
      const instance = { ...base, [target.property]: s };
      const c = compare(target.declaration, instance, `${target.declaration}.${target.property}`);
      if (c.problem) unexplained.push(c.problem);
      if (c.theirs) accepted++;
    });
    expect(unexplained.slice(0, 30), `${unexplained.length} unexplained disagreements`).toEqual([]);
    // Both valid and invalid strings were compared, in numbers.
    expect(accepted).toBeGreaterThan(STRINGS_PER_FORMAT / 4);
    expect(accepted).toBeLessThan((STRINGS_PER_FORMAT * 3) / 4);
  });
});

describe("deliberate differences of the generated validators from ajv on schema.json", () => {
  const validatorsOf = async (revision: string) =>
    (
      (await import(/* @vite-ignore */ `../generated/${revision}/validators.ts`)) as {
        validators: Record<string, OurValidator>;
      }
    ).validators;

  const modelDifferences = fixture.differences.flatMap((d) => d.revisions.map((revision) => ({ revision, d })));
  it.each(modelDifferences)(
    "$d.disagreement in $revision still shows on its listed examples",
    async ({ revision, d }) => {
      const official = officialSchema(revision);
      const theirs = ajvOn(official.root, official.defsKey);
      const ours = await validatorsOf(revision);
      const expected = EXPLANATIONS[d.disagreement];
      for (const [name, examples] of Object.entries(d.examples)) {
        for (const example of examples) {
          const verdicts = { theirs: theirs(name)(example), ours: ours[name]?.validate(example).ok };
          expect(verdicts, `${name} ${JSON.stringify(example)}`).toEqual({
            theirs: expected.theirs,
            ours: expected.ours,
          });
          expect(expected.holds(example)).toBe(true);
          const neutral = expected.neutral(example);
          expect(theirs(name)(neutral), `${name} ${JSON.stringify(neutral)}`).toBe(ours[name]?.validate(neutral).ok);
        }
      }
    },
  );

  const formatDifferences = fixture.formats.flatMap((d) => d.revisions.map((revision) => ({ revision, d })));
  it.each(formatDifferences)(
    "$d.format: $d.disagreement in $revision still shows on its listed examples, in every $d.format property",
    async ({ revision, d }) => {
      const official = officialSchema(revision);
      const theirs = ajvOn(official.root, official.defsKey);
      const ours = await validatorsOf(revision);
      const arbitraries = new ModelArbitraries(checkedInModel(revision));
      const expected = EXPLANATIONS[d.disagreement];
      const targets = formatProperties(checkedInModel(revision)).filter((f) => f.format === d.format);
      expect(targets.length).toBeGreaterThan(0);
      for (const { declaration, property } of targets) {
        const base = arbitraries.minimal(declaration) as Record<string, unknown>;
        for (const example of d.examples) {
          const instance = { ...base, [property]: example };
          const verdicts = { theirs: theirs(declaration)(instance), ours: ours[declaration]?.validate(instance).ok };
          expect(verdicts, `${declaration}.${property} = ${JSON.stringify(example)}`).toEqual({
            theirs: expected.theirs,
            ours: expected.ours,
          });
          expect(expected.holds(instance)).toBe(true);
          const neutral = expected.neutral(instance);
          expect(theirs(declaration)(neutral), JSON.stringify(neutral)).toBe(ours[declaration]?.validate(neutral).ok);
        }
      }
    },
  );
});
