// `mcp-gen tools --check`: a module generated from a saved listing, compared with edited copies
// of that listing. Each change is judged by the diff engine's rules and marked breaking or not
// for a caller; no change is exit 0, any change exit 1.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../generators/diff/findings.js";
import { checkListings, embeddedListing, renderCheck } from "../generators/tools/check.js";
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
    expect(report).toContain("`tools/call search_cities`");
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
    expect(renderCheck(result, "md", "weather.ts")).toContain("## Not breaking for callers (4)");
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
    expect(result.otherChanges).toEqual([
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
