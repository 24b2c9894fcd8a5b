// What `npm run conformance` relies on, short of running the suite (CI runs it after the tests):
// the examples are built on the generated code and the runtime alone, and the runner reads the
// suite's results and the expected-failures baseline correctly.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { paths } from "../generators/paths.js";
import {
  failureDetails,
  parseBaseline,
  parseRequirements,
  passed,
  readChecks,
  renderTable,
  scenariosOf,
  type ScenarioResult,
} from "../scripts/conformance-report.js";

const examples = join(paths.root, "examples");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every module specifier a file names: static imports and re-exports, and dynamic imports. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1] as string);
}

describe("the conformance examples", () => {
  // Only the conformance examples: the other examples (host-chat) are built on more than that.
  const files = sources(examples).filter((file) => relative(examples, file).startsWith("conformance-"));

  it("exist: a server and a client per revision (2025-11-25 and 2026-07-28)", () => {
    expect(files.map((file) => relative(examples, file)).sort()).toEqual(
      expect.arrayContaining([
        "conformance-client/main.ts",
        "conformance-server/main.ts",
        "conformance-server-2026-07-28/main.ts",
        "conformance-client-2026-07-28/main.ts",
      ]),
    );
  });

  /** The revision an example folder stands for: its suffix, or 2025-11-25 without one. */
  const revisionOf = (file: string) =>
    /^conformance-\w+-(\d{4}-\d{2}-\d{2}|draft)\//.exec(relative(examples, file))?.[1] ?? "2025-11-25";

  it.each(files.map((file) => [relative(paths.root, file), revisionOf(file), file]))(
    "%s imports only the generated %s code, the runtime and the examples' modules",
    (_name, revision, file) => {
      const text = readFileSync(file, "utf8");
      expect(text).not.toMatch(/@modelcontextprotocol\/(sdk|server|client)/);
      // The fixtures every revision shares are typed with 2025-11-25's types, type-only.
      const allowed = [join(paths.generated, revision), paths.runtime, examples];
      for (const specifier of specifiers(text)) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\.?\//);
        const target = resolve(dirname(file), specifier);
        expect(
          allowed.some((root) => target.startsWith(`${root}/`)),
          `${file} imports ${specifier}`,
        ).toBe(true);
      }
    },
  );
});

describe("the conformance runner's report", () => {
  const temp = mkdtempSync(join(tmpdir(), "mcp-gen-conformance-test-"));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it("reads the checks the suite wrote, one folder per scenario, auth scenarios in auth/", () => {
    const write = (folder: string, checks: unknown) => {
      mkdirSync(join(temp, folder), { recursive: true });
      writeFileSync(join(temp, folder, "checks.json"), JSON.stringify(checks));
    };
    write("server-tools-call-image-2026-01-02T03-04-05-678Z", [{ id: "tools-call-image", status: "SUCCESS" }]);
    write("sse-retry-2026-01-02T03-04-05-678Z", [{ id: "client-sse-retry-timing", status: "WARNING" }]);
    write("auth/metadata-default-2026-01-02T03-04-05-678Z", [{ id: "prm", status: "FAILURE" }]);
    mkdirSync(join(temp, "initialize-2026-01-02T03-04-05-678Z"));
    const checks = readChecks(temp);
    expect([...checks.keys()].sort()).toEqual(["auth/metadata-default", "sse-retry", "tools-call-image"]);
    expect(checks.get("sse-retry")).toEqual([{ id: "client-sse-retry-timing", status: "WARNING" }]);
  });

  it("reads a requirement set as `list --requirements` prints it", () => {
    const listed = [
      "Required for 2026-07-28 (4 scenarios, frozen; run at the 2026-07-28 wire):",
      "",
      "Server scenarios (test against a server):",
      "  - server-stateless",
      "",
      "Client scenarios (test against a client):",
      "  - tools_call",
      "  - auth/metadata-default",
      "",
      "Run and reported, but never scored:",
      "  extension (1):",
      "    - tasks-lifecycle [server]",
      "  pending (1):",
      "    - http-header-validation [server]",
    ].join("\n");
    const requirements = parseRequirements(listed);
    expect(scenariosOf(requirements, "server")).toEqual([
      { scenario: "server-stateless", category: "required" },
      { scenario: "tasks-lifecycle", category: "not scored: extension" },
      { scenario: "http-header-validation", category: "not scored: pending" },
    ]);
    expect(scenariosOf(requirements, "client")).toEqual([
      { scenario: "tools_call", category: "required" },
      { scenario: "auth/metadata-default", category: "authorization" },
    ]);
    expect(() => parseRequirements("nothing here")).toThrow(/no requirement set/);
  });

  it("parses the baseline, comments being the reasons", () => {
    const baseline = parseBaseline("# why\nserver:\n  - ping  # not yet\nclient: []\n");
    expect([...baseline.server]).toEqual(["ping"]);
    expect([...baseline.client]).toEqual([]);
    expect(() => parseBaseline("server:\nping\n")).toThrow(/cannot read line/);
  });

  it.each(readdirSync(join(paths.root, "scripts")).filter((f) => f.startsWith("conformance-expected-failures-")))(
    "%s lists only authorization and extension scenarios",
    (file) => {
      const baseline = parseBaseline(readFileSync(join(paths.root, "scripts", file), "utf8"));
      const listed = [...baseline.server, ...baseline.client];
      expect(listed.filter((scenario) => !scenario.startsWith("auth/") && !scenario.startsWith("tasks-"))).toEqual([]);
    },
  );

  it("counts a warning as a failure, marks baseline entries and scores each category", () => {
    const results: ScenarioResult[] = [
      { side: "server", scenario: "ping", category: "required", checks: [{ id: "ping", status: "SUCCESS" }] },
      {
        side: "server",
        scenario: "tools-list",
        category: "required",
        checks: [{ id: "tools-list", status: "FAILURE", errorMessage: "no tools" }],
      },
      { side: "server", scenario: "tasks-lifecycle", category: "not scored: extension", checks: [] },
      { side: "client", scenario: "sse-retry", category: "required", checks: [{ id: "timing", status: "WARNING" }] },
      { side: "client", scenario: "initialize", category: "required", checks: undefined },
      { side: "client", scenario: "auth/dpop", category: "authorization", checks: [{ id: "a", status: "FAILURE" }] },
    ];
    expect(results.map(passed)).toEqual([true, false, true, false, false, false]);
    const baseline = { server: new Set(["tools-list"]), client: new Set(["auth/dpop"]) };
    const table = renderTable("2026-07-28", results, baseline);
    expect(table).toContain("| server | ping | required | 1 | 0 | 0 | pass |");
    expect(table).toContain("| server | tools-list | required | 0 | 1 | 0 | expected failure |");
    expect(table).toContain("| client | sse-retry | required | 0 | 0 | 1 | FAIL |");
    expect(table.split("\n").at(-1)).toBe(
      "2026-07-28: server 1/2 required, 1/1 not scored; client 0/2 required, 0/1 authorization, 0/0 not scored.",
    );
    expect(failureDetails(results, baseline)).toEqual([
      "client sse-retry: WARNING timing: ",
      "client initialize: no results (the scenario did not finish)",
    ]);
  });

  it("scores the back-compat scenarios of earlier revisions apart, and counts their failures", () => {
    const backCompat = (scenario: string, status: string): ScenarioResult => ({
      side: "client",
      scenario,
      category: "back-compat: 2025-03-26",
      checks: [{ id: "token-request", status }],
    });
    const results = [
      backCompat("auth/2025-03-26-oauth-metadata-backcompat", "SUCCESS"),
      backCompat("auth/2025-03-26-oauth-endpoint-fallback", "FAILURE"),
    ];
    const baseline = { server: new Set<string>(), client: new Set<string>() };
    const table = renderTable("2025-11-25", results, baseline);
    expect(table).toContain(
      "| client | auth/2025-03-26-oauth-endpoint-fallback | back-compat: 2025-03-26 | 0 | 1 | 0 | FAIL |",
    );
    expect(table.split("\n").at(-1)).toBe(
      "2025-11-25: server 0/0 required, 0/0 not scored; client 0/0 required, 1/2 back-compat, 0/0 not scored.",
    );
    expect(failureDetails(results, baseline)).toEqual([
      "client auth/2025-03-26-oauth-endpoint-fallback: FAILURE token-request: ",
    ]);
  });
});
