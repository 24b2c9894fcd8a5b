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
  passed,
  readChecks,
  renderTable,
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

  it("exist: a server and a client", () => {
    expect(files.map((file) => relative(examples, file)).sort()).toEqual(
      expect.arrayContaining(["conformance-client/main.ts", "conformance-server/main.ts"]),
    );
  });

  it.each(files.map((file) => [relative(paths.root, file), file]))(
    "%s imports only the generated 2025-11-25 code, the runtime and its own modules",
    (_name, file) => {
      const text = readFileSync(file, "utf8");
      expect(text).not.toMatch(/@modelcontextprotocol\/sdk/);
      const allowed = [join(paths.generated, "2025-11-25"), paths.runtime, examples];
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

  it("reads the checks the suite wrote, one folder per scenario", () => {
    const write = (folder: string, checks: unknown) => {
      mkdirSync(join(temp, folder));
      writeFileSync(join(temp, folder, "checks.json"), JSON.stringify(checks));
    };
    write("server-tools-call-image-2026-01-02T03-04-05-678Z", [{ id: "tools-call-image", status: "SUCCESS" }]);
    write("sse-retry-2026-01-02T03-04-05-678Z", [{ id: "client-sse-retry-timing", status: "WARNING" }]);
    mkdirSync(join(temp, "initialize-2026-01-02T03-04-05-678Z"));
    const checks = readChecks(temp);
    expect([...checks.keys()].sort()).toEqual(["sse-retry", "tools-call-image"]);
    expect(checks.get("sse-retry")).toEqual([{ id: "client-sse-retry-timing", status: "WARNING" }]);
  });

  it("parses the baseline, comments being the reasons", () => {
    const baseline = parseBaseline("# why\nserver:\n  - ping  # not yet\nclient: []\n");
    expect([...baseline.server]).toEqual(["ping"]);
    expect([...baseline.client]).toEqual([]);
    expect(() => parseBaseline("server:\nping\n")).toThrow(/cannot read line/);
  });

  it("keeps the checked-in baseline empty", () => {
    const baseline = parseBaseline(
      readFileSync(join(paths.root, "scripts", "conformance-expected-failures.yml"), "utf8"),
    );
    expect({ server: [...baseline.server], client: [...baseline.client] }).toEqual({ server: [], client: [] });
  });

  it("counts a warning as a failure, marks baseline entries and totals both sides", () => {
    const results: ScenarioResult[] = [
      { side: "server", scenario: "ping", checks: [{ id: "ping", status: "SUCCESS" }] },
      {
        side: "server",
        scenario: "tools-list",
        checks: [{ id: "tools-list", status: "FAILURE", errorMessage: "no tools" }],
      },
      { side: "client", scenario: "sse-retry", checks: [{ id: "timing", status: "WARNING" }] },
      { side: "client", scenario: "initialize", checks: undefined },
    ];
    expect(results.map(passed)).toEqual([true, false, false, false]);
    const table = renderTable(results, { server: new Set(["tools-list"]), client: new Set() });
    expect(table).toContain("| server | ping | 1 | 0 | 0 | pass |");
    expect(table).toContain("| server | tools-list | 0 | 1 | 0 | expected failure |");
    expect(table).toContain("| client | sse-retry | 0 | 0 | 1 | FAIL |");
    expect(table).toContain("Scenarios passed: server 1/2, client 0/2; 1 checks passed.");
    expect(table.split("\n").at(-1)).toBe("Conformance: 1 passed, 3 failed");
    expect(failureDetails(results)).toEqual([
      "server tools-list: FAILURE tools-list: no tools",
      "client sse-retry: WARNING timing: ",
      "client initialize: no results (the scenario did not finish)",
    ]);
  });
});
