// `mcp-gen tools --check`: a module generated from a saved listing, compared with edited copies
// of that listing. Each change is judged by the diff engine's rules and marked breaking or not
// for a caller; no change is exit 0, any change exit 1.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "test-results-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../generators/diff/rules/findings.js";
import { checkListings, embeddedListing, otherChangeText, renderCheck } from "../generators/tools/check.js";
import { emitToolsModule } from "../generators/tools/emit.js";
import { normalizeListing, type Listing, type ToolDefinition } from "../generators/tools/listing.js";
import { cli, FIXTURES, workDir } from "./fixtures/tools/harness.js";

const work = workDir("tools-check");
afterAll(() => work.remove());

const saved = JSON.parse(readFileSync(join(FIXTURES, "weather.json"), "utf8")) as Listing;
const module = join(work.dir, "weather.ts");

/** A copy of the saved listing, changed by `edit`. */
function edited(edit: (listing: Listing) => void): Listing {
  const copy = structuredClone(saved);
  edit(copy);
  return normalizeListing(copy, "edited");
}

const tool = (listing: Listing, name: string) => listing.tools.find((t) => t.name === name) as ToolDefinition;
const props = (schema: unknown) => (schema as { properties: Record<string, unknown> }).properties;

/** The three changes of the acceptance test: a tool removed, a required argument added, an output retyped. */
const threeChanges = edited((l) => {
  l.tools = l.tools.filter((t) => t.name !== "search_cities");
  const weather = tool(l, "get_weather");
  props(weather.inputSchema).country = { type: "string" };
  (weather.inputSchema.required as string[]).push("country");
  props(weather.outputSchema).temperature = { type: "string" };
});

const summary = (findings: Finding[]) =>
  findings.map((f) => [f.name, f.rule, f.breaking && f.affects.includes("client") ? "breaks callers" : "safe"]);

beforeAll(async () => {
  writeFileSync(module, (await emitToolsModule(normalizeListing(saved, "weather.json"), module)).source);
});

describe("mcp-gen tools --check", () => {
  it("finds no change against the listing the module was generated from", () => {
    const result = checkListings(embeddedListing(module), normalizeListing(saved, "weather.json"), {
      before: "weather.ts",
      after: "weather.json",
    });
    expect(result.report.changes).toEqual([]);
    expect(result.otherChanges).toEqual([]);
    expect(renderCheck(result, "md", "weather.ts")).toContain("No changes");
  });

  it("classifies a removed tool, an added required argument and a retyped output", () => {
    const result = checkListings(embeddedListing(module), threeChanges, { before: "weather.ts", after: "server" });
    expect(summary(result.report.changes)).toEqual([
      ["tools/call search_cities", "REQUEST_REMOVED", "breaks callers"],
      ["tools.get_weather.arguments.country", "FIELD_ADDED_REQUIRED", "breaks callers"],
      ["tools.get_weather.structuredContent.temperature", "FIELD_TYPE_CHANGED", "breaks callers"],
    ]);
    expect(result.breakingForCallers).toBe(3);
    const report = renderCheck(result, "md", "weather.ts");
    expect(report).toContain("## Breaking for callers (3)");
    // In tool words: tools, arguments and result fields, and what calls through the module see.
    expect(report).toContain("- tool `search_cities`: removed: calls to it fail<br>");
    expect(report).toContain(
      "- tool `get_weather`, argument `country`: required argument added: calls written against the module omit it<br>",
    );
    expect(report).toContain(
      "- tool `get_weather`, result field `temperature`: result field type changed: code reading it breaks<br>",
    );
    expect(report).not.toMatch(/sender|receiver|revision|callee/);
  });

  it("marks changes a caller does not notice as not breaking for callers", () => {
    const result = checkListings(
      embeddedListing(module),
      edited((l) => {
        l.tools.push({ name: "get_alerts", inputSchema: { type: "object" } });
        const weather = tool(l, "get_weather");
        props(weather.inputSchema).lang = { type: "string" };
        props(weather.inputSchema).units = { type: "string", enum: ["metric", "imperial", "kelvin"] };
        weather.inputSchema.required = [];
        weather.description = "Now with more weather.";
      }),
      { before: "weather.ts", after: "server" },
    );
    expect(summary(result.report.changes)).toEqual([
      ["tools/call get_alerts", "REQUEST_ADDED", "safe"],
      ["tools.get_weather.arguments.city", "FIELD_BECAME_OPTIONAL", "safe"],
      ["tools.get_weather.arguments.lang", "FIELD_ADDED_OPTIONAL", "safe"],
      ["tools.get_weather.arguments.units=kelvin", "ENUM_MEMBER_ADDED", "safe"],
    ]);
    expect(result.otherChanges).toEqual([]);
    const report = renderCheck(result, "md", "weather.ts");
    expect(report).toContain("## Not breaking for callers (4)");
    expect(report).toContain(
      "- tool `get_weather`, argument `units`, value `kelvin`: argument accepts a new value<br>",
    );
    expect(report).toContain("- tool `get_alerts`: new: nothing calls it yet<br>");
  });

  it("classifies prompt argument changes and output schemas that come and go", () => {
    const result = checkListings(
      embeddedListing(module),
      edited((l) => {
        const prompt = l.prompts[0] as Listing["prompts"][number];
        prompt.arguments = [{ name: "city", required: true }, { name: "style", required: true }, { name: "extra" }];
        delete tool(l, "get_weather").outputSchema;
        tool(l, "set-units").outputSchema = { type: "object", properties: { ok: { type: "boolean" } } };
      }),
      { before: "weather.ts", after: "server" },
    );
    expect(summary(result.report.changes)).toEqual([
      ["tools/call get_weather", "RESULT_WIDENED", "breaks callers"],
      ["tools/call set-units", "RESULT_NARROWED", "safe"],
      ["prompts.weather_report.arguments.extra", "FIELD_ADDED_OPTIONAL", "safe"],
      ["prompts.weather_report.arguments.style", "FIELD_BECAME_REQUIRED", "breaks callers"],
    ]);
  });

  it("reports what no rule sees (descriptions, annotations) as other differences", () => {
    const result = checkListings(
      embeddedListing(module),
      edited((l) => {
        tool(l, "set-units").annotations = { idempotentHint: true };
        tool(l, "get_weather").description = "Changed.";
      }),
      { before: "weather.ts", after: "server" },
    );
    expect(result.report.changes).toEqual([]);
    expect(result.otherChanges.map(otherChangeText)).toEqual([
      'tool "get_weather": description changed',
      'tool "set-units": annotations changed',
    ]);
  });

  it("exits 1 with the report on stdout when anything changed, 0 when nothing did", async () => {
    const changed = join(work.dir, "changed.json");
    writeFileSync(changed, JSON.stringify(threeChanges));
    const drift = await cli(["tools", "--from", changed, "--check", module]);
    expect(drift.status).toBe(1);
    expect(drift.stdout).toContain("## Breaking for callers (3)");
    expect(drift.stderr).toMatch(/3 changes \(3 breaking for callers\)/);
    const json = await cli(["tools", "--from", changed, "--check", module, "--format", "json"]);
    expect(json.status).toBe(1);
    expect((JSON.parse(json.stdout) as { summary: { total: number } }).summary.total).toBe(3);
    const same = await cli(["tools", "--from", join(FIXTURES, "weather.json"), "--check", module]);
    expect(same.status).toBe(0);
    expect(same.stdout).toContain("No changes");
  });

  it("refuses a file that was not generated by mcp-gen tools (exit 2)", async () => {
    const plain = join(work.dir, "plain.ts");
    writeFileSync(plain, "export const x = 1;\n");
    const result = await cli(["tools", "--from", join(FIXTURES, "weather.json"), "--check", plain]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("no listing in it");
  });
});

describe("mcp-gen tools --check in CI", () => {
  const changed = () => {
    const file = join(work.dir, "ci-changed.json");
    writeFileSync(
      file,
      JSON.stringify(
        edited((l) => {
          l.tools = l.tools.filter((t) => t.name !== "search_cities");
          props(tool(l, "get_weather").inputSchema).lang = { type: "string" };
          tool(l, "set-units").description = "Now described.";
        }),
      ),
    );
    return file;
  };
  const ignoreFile = (content: unknown) => {
    const file = join(work.dir, `ignore-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it("--format github: an error per change that breaks callers, a warning per other change, on the module", async () => {
    const out = await cli(["tools", "--from", changed(), "--check", module, "--format", "github"]);
    expect(out.status).toBe(1);
    const lines = out.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    const file = module.replace(/:/g, "%3A").replace(/,/g, "%2C");
    expect(lines[0]).toMatch(
      new RegExp(
        `^::error file=${escape(file)},title=[^:]*REQUEST_REMOVED tool search_cities::removed: calls to it fail \\(breaks calls written against`,
      ),
    );
    expect(lines[1]).toMatch(
      /^::warning file=.*FIELD_ADDED_OPTIONAL tool get_weather%2C argument lang::optional argument added/,
    );
    expect(lines[2]).toMatch(
      /^::warning file=.*title=.*tool "set-units"%3A description changed::no effect on types or checks/,
    );
  });

  it("--ignore accepts changes by tool, prompt and rule, each with a reason; all accepted is exit 0", async () => {
    const list = ignoreFile({
      ignore: [
        { tool: "search_*", reason: "search moved to its own server" },
        { tool: "get_weather", rule: "FIELD_ADDED_OPTIONAL", reason: "optional arguments can wait" },
        { tool: "set-units", reason: "descriptions do not matter to us" },
        { prompt: "gone", reason: "stale on purpose" },
      ],
    });
    const out = await cli(["tools", "--from", changed(), "--check", module, "--ignore", list, "--format", "github"]);
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split("\n");
    expect(lines.every((l) => l.startsWith("::notice "))).toBe(true);
    expect(lines[0]).toContain("::search moved to its own server (");
    expect(out.stderr).toContain(`3 change(s) accepted by ${list}`);
    expect(out.stderr).toContain(`warning: ${list}: ignore[3] (prompt gone) accepts no change`);

    const partly = ignoreFile({ ignore: [{ tool: "get_weather", reason: "reviewed" }] });
    expect((await cli(["tools", "--from", changed(), "--check", module, "--ignore", partly])).status).toBe(1);
  });

  it("refuses ignore entries in protocol words, and --ignore without --check", async () => {
    const wrong = ignoreFile({ ignore: [{ name: "tools/call search_cities", reason: "x" }] });
    const out = await cli(["tools", "--from", changed(), "--check", module, "--ignore", wrong]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(`${wrong}: ignore[0]: unknown key "name"`);
    const noCheck = await cli(["tools", "--from", changed(), "--out", join(work.dir, "x.ts"), "--ignore", wrong]);
    expect(noCheck.status).toBe(2);
    expect(noCheck.stderr).toContain("--ignore needs --check");
  });

  it("--format junit: a case per change, failed unless accepted, read back by a JUnit parser", async () => {
    const list = ignoreFile({ ignore: [{ tool: "set-units", reason: "descriptions do not matter" }] });
    const out = await cli(["tools", "--from", changed(), "--check", module, "--format", "junit", "--ignore", list]);
    expect(out.status).toBe(1);
    const xml = join(work.dir, "check.xml");
    writeFileSync(xml, out.stdout);
    const parsed = parse({ type: "junit", files: [xml] });
    const cases = parsed.suites.flatMap((s) => s.cases.map((c) => [s.name.split(": ").pop(), c.name, c.status]));
    expect(cases).toEqual([
      ["tool search_cities", "REQUEST_REMOVED tool search_cities", "FAIL"],
      ["tool get_weather", "FIELD_ADDED_OPTIONAL tool get_weather, argument lang", "FAIL"],
      ["tool set-units", 'tool "set-units": description changed', "SKIP"],
    ]);
  });
});

/** A string as a literal in a regular expression. */
function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
