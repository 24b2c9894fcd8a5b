// `validate()` reports the first issue from where the guard failed (the trail its guards record on
// the way out of a failure) and explains only that part of the value, or nothing when the failed
// test is the issue. It must report exactly what explaining the whole value reports: builds each
// revision's validators.ts a second time with guards that record nothing (every issue then comes
// from the explaining pass, from the top) and compares both, first issue and every issue, on one
// mutant at every mutation site of every declaration and on random mutants; the mutants of a
// method's message and result types also go through validateMessage (as a message, or as the
// `result` of a response).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { CHUNKS } from "../generators/emit/render.js";
import { validatorsSource } from "../generators/emit/validators.js";
import { paths } from "../generators/paths.js";
import { emitEnv } from "../generators/pipeline.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";
import { ModelArbitraries, type Mutant } from "./support/arbitraries.js";
import { checkedInModel, REVISIONS } from "./support/spec.js";

interface Result {
  ok: boolean;
  issues?: readonly unknown[];
}
type Validators = Record<string, { validate(value: unknown, options?: { all?: boolean }): Result }>;
interface Module {
  validators: Validators;
  validateMessage(
    value: unknown,
    options?: { from?: "client" | "server"; methodOf?: (id: unknown) => string | undefined },
  ): Result;
}

const RANDOM_MUTANTS_PER_DECLARATION = 6;
const dir = mkdtempSync(join(tmpdir(), "mcp-gen-trail-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The revision's validators.ts built with guards that record nothing, next to its own types.ts and methods.ts. */
async function withoutTrail(revision: string): Promise<Module> {
  const { frame, chunks } = validatorsSource(checkedInModel(revision), emitEnv(loadRevisionTable(), revision), {
    trail: false,
  });
  const target = join(dir, revision);
  mkdirSync(target, { recursive: true });
  for (const file of ["types.ts", "methods.ts"])
    copyFileSync(join(paths.root, "generated", revision, file), join(target, file));
  writeFileSync(join(target, "validators.ts"), frame.replace(CHUNKS, chunks.join("\n\n")));
  return (await import(join(target, "validators.ts"))) as Module;
}

describe.each(REVISIONS)("first issues of %s", (revision) => {
  it("are the explaining pass's, on mutants of every declaration, alone and in messages", async () => {
    const model = checkedInModel(revision);
    const plain = await withoutTrail(revision);
    const ours = (await import(join(paths.root, "generated", revision, "validators.ts"))) as Module;
    const differ: string[] = [];
    const compare = (what: string, a: Result, b: Result) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(`${what}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    };

    const sent = model.methods.filter((m) => m.delivery === "message");
    const messageTypes = new Set(sent.map((m) => m.type));
    /** A result type's method, and who answers it. */
    const resultOf = new Map(
      sent.flatMap((m) =>
        m.result?.kind === "ref"
          ? [
              [
                m.result.name,
                { method: m.method, from: m.direction === "clientToServer" ? "server" : "client" },
              ] as const,
            ]
          : [],
      ),
    );

    const arbitraries = new ModelArbitraries(model);
    let rejected = 0;
    for (const { name } of model.declarations) {
      const mutants: Mutant[] = [
        ...arbitraries.mutationSites(name).flatMap((site, i) => fc.sample(site.mutants, { seed: 7 + i, numRuns: 1 })),
        ...fc.sample(arbitraries.mutated(name), { seed: 11, numRuns: RANDOM_MUTANTS_PER_DECLARATION }),
      ];
      for (const { value, mutation } of mutants) {
        const instance: unknown = JSON.parse(JSON.stringify(value) ?? "null");
        const first = ours.validators[name]!.validate(instance);
        if (!first.ok) rejected++;
        compare(`${name} (${mutation})`, first, plain.validators[name]!.validate(instance));
        const all = { all: true };
        compare(
          `${name} (${mutation}), all`,
          ours.validators[name]!.validate(instance, all),
          plain.validators[name]!.validate(instance, all),
        );
        // validateMessage explains from the trail too: the envelope, then the method's type, at its place.
        if (messageTypes.has(name)) {
          compare(
            `${name} (${mutation}) as a message`,
            ours.validateMessage(instance),
            plain.validateMessage(instance),
          );
        }
        const answered = resultOf.get(name);
        if (answered) {
          const response = { jsonrpc: "2.0", id: 1, result: instance };
          const options = { from: answered.from, methodOf: () => answered.method } as const;
          compare(
            `${name} (${mutation}) as a result`,
            ours.validateMessage(response, options),
            plain.validateMessage(response, options),
          );
        }
      }
    }

    expect(differ.slice(0, 10), `${differ.length} differ`).toEqual([]);
    expect(rejected).toBeGreaterThan(200);
  }, 120_000);
});
