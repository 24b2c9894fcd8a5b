// `validate()` reports the first issue from where the guard failed (the trail its guards record on
// the way out) instead of running the explaining pass. It must report exactly what that pass
// reports: builds each revision's validators.ts a second time with guards that record nothing
// (every issue from the explaining pass) and compares both on one mutant at every mutation site
// of every declaration, and on random mutants.
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

const RANDOM_MUTANTS_PER_DECLARATION = 8;
const dir = mkdtempSync(join(tmpdir(), "mcp-gen-trail-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(REVISIONS)("first issues of %s", (revision) => {
  it("are the explaining pass's, on mutants of every declaration", async () => {
    const model = checkedInModel(revision);
    const { frame, chunks } = validatorsSource(model, emitEnv(loadRevisionTable(), revision), { trail: false });
    const target = join(dir, revision);
    mkdirSync(target, { recursive: true });
    for (const file of ["types.ts", "methods.ts"])
      copyFileSync(join(paths.root, "generated", revision, file), join(target, file));
    writeFileSync(join(target, "validators.ts"), frame.replace(CHUNKS, chunks.join("\n\n")));
    const plain = ((await import(join(target, "validators.ts"))) as { validators: Validators }).validators;
    const ours = (
      (await import(join(paths.root, "generated", revision, "validators.ts"))) as { validators: Validators }
    ).validators;

    const arbitraries = new ModelArbitraries(model);
    const differ: string[] = [];
    let rejected = 0;
    for (const { name } of model.declarations) {
      const mutants: Mutant[] = [
        ...arbitraries.mutationSites(name).flatMap((site, i) => fc.sample(site.mutants, { seed: 7 + i, numRuns: 1 })),
        ...fc.sample(arbitraries.mutated(name), { seed: 11, numRuns: RANDOM_MUTANTS_PER_DECLARATION }),
      ];
      for (const { value, mutation } of mutants) {
        const instance: unknown = JSON.parse(JSON.stringify(value) ?? "null");
        const a = ours[name]!.validate(instance);
        const b = plain[name]!.validate(instance);
        if (!a.ok) rejected++;
        if (JSON.stringify(a) !== JSON.stringify(b))
          differ.push(`${name} (${mutation}): ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    }
    expect(differ.slice(0, 10), `${differ.length} differ`).toEqual([]);
    expect(rejected).toBeGreaterThan(200);
  }, 120_000);
});
