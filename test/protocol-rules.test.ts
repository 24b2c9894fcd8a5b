// The ledger of protocol rules (spec/protocol-rules.json): every rule id the code names is in it,
// every entry says where it is enforced and which test holds it (and both exist), or why it is
// not enforced yet, or why no code can check it; revision ranges and pages are real; the rendered
// docs/protocol-rules.md is current.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";
import {
  PROTOCOL_RULES_DOC,
  readLedger,
  renderProtocolRules,
  revisionsOf,
  statusOf,
} from "../generators/spec/protocol-rules.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";

const ledger = readLedger();
const table = loadRevisionTable();
const revisions = table.revisions.map((r) => r.revision);
const read = (file: string) => readFileSync(join(paths.root, file), "utf8");

function filesUnder(dir: string): string[] {
  return readdirSync(join(paths.root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(`${dir}/${entry.name}`)
      : entry.name.endsWith(".ts")
        ? [`${dir}/${entry.name}`]
        : [],
  );
}

/** Rule ids the code names: constants of the runtime and host, and the model's gated params. */
function namedIds(): Set<string> {
  const ids = new Set<string>();
  for (const file of [...filesUnder("runtime"), ...filesUnder("host")]) {
    for (const match of read(file).matchAll(/export const ([A-Z][A-Z0-9_]+) = "([A-Z][A-Z0-9_]+)";/g)) {
      const [, name, value] = match;
      // Rule ids are constants whose value is their own name and that a RuleViolation is built with.
      if (value && name === value && new RegExp(`RuleViolation\\(\\s*${name}\\b`).test(read(file))) ids.add(value);
    }
  }
  for (const revision of revisions) {
    for (const match of read(`generated/${revision}/methods.ts`).matchAll(/rule: "([A-Z][A-Z0-9_]+)"/g))
      ids.add(match[1] as string);
  }
  return ids;
}

describe("spec/protocol-rules.json", () => {
  const ids = ledger.rules.map((r) => r.id);

  it("holds every rule id the runtime, the host and the generated code name", () => {
    const named = namedIds();
    // The ones the runtime is known to raise, so that the search above cannot quietly find nothing.
    for (const id of ["CAPABILITY_NEGOTIATED", "PROGRESS_INCREASES", "SAMPLING_TOOL_LOOP_LIMIT", "ROOTS_FILE_URI"])
      expect(named).toContain(id);
    expect(named.size).toBeGreaterThanOrEqual(17);
    expect([...named].filter((id) => !ids.includes(id))).toEqual([]);
  });

  it("has unique ids, each a constant-style name", () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Z][A-Z0-9_]+$/);
  });

  it.each(ledger.rules.map((r) => [r.id, r] as const))("%s: is enforced and tested, or says why not", (_id, rule) => {
    expect(rule.rule.length).toBeGreaterThan(10);
    expect(rule.obeys.length).toBeGreaterThan(0);
    for (const party of rule.obeys) expect(["client", "server", "host"]).toContain(party);
    const status = statusOf(rule);
    if (status === "not checkable") {
      expect(rule.notCheckable?.length).toBeGreaterThan(10);
      expect(rule.enforcement).toBeUndefined();
      expect(rule.test).toBeUndefined();
    } else if (status === "not enforced yet") {
      expect(rule.enforcement).toBeNull();
      expect(rule.note?.length).toBeGreaterThan(10);
    } else {
      const { file } = rule.enforcement as { file: string; by: string };
      expect(existsSync(join(paths.root, file)), file).toBe(true);
      expect(rule.test, `${rule.id} is enforced, so it names its test`).toBeDefined();
    }
    if (rule.test) {
      expect(existsSync(join(paths.root, rule.test.file)), rule.test.file).toBe(true);
      expect(read(rule.test.file)).toContain(rule.test.name);
    }
  });

  it.each(ledger.rules.map((r) => [r.id, r] as const))("%s: its revisions and pages exist", (_id, rule) => {
    expect(revisions).toContain(rule.revisions.from);
    if (rule.revisions.to !== undefined) expect(revisions).toContain(rule.revisions.to);
    const applies = revisionsOf(rule, table);
    expect(applies.length).toBeGreaterThan(0);
    expect(rule.pages.length).toBeGreaterThan(0);
    for (const page of rule.pages) expect(Object.keys(ledger.pages)).toContain(page);
    // Some page of the rule exists at some revision the rule applies to.
    expect(applies.some((r) => rule.pages.some((p) => ledger.pages[p]?.paths[r] !== undefined))).toBe(true);
  });

  it("names only revisions of spec/revisions.json in its page paths", () => {
    for (const page of Object.values(ledger.pages))
      for (const revision of Object.keys(page.paths)) expect(revisions).toContain(revision);
  });

  it.each(["2025-11-25", "2026-07-28"])("covers every page the issue names at %s", (revision) => {
    const pagesAt = new Set(
      ledger.rules
        .filter((r) => revisionsOf(r, table).includes(revision))
        .flatMap((r) => r.pages.filter((p) => ledger.pages[p]?.paths[revision] !== undefined)),
    );
    const lifecycle = revision === "2025-11-25" ? "lifecycle" : "versioning";
    const wanted = [lifecycle, "sampling", "elicitation", "roots", "tools", "resources", "prompts"];
    for (const page of [...wanted, "cancellation", "progress", "pagination"]) expect(pagesAt).toContain(page);
  });

  it("is rendered into docs/protocol-rules.md as it is now", () => {
    expect(read(PROTOCOL_RULES_DOC)).toBe(renderProtocolRules(ledger, table));
  });
});
