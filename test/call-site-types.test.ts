// Types at the call site: code written against the generated client and server compiles when
// it is right and fails to compile, with the expected error, when it is wrong.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile as compileFiles, STRICT } from "./support/compile.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-callsite-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const generated = JSON.stringify(resolve("generated", "2025-11-25", "index.js"));
const runtime = JSON.stringify(resolve("runtime", "index.js"));

/** Compiles one fixture under --strict; returns its diagnostics as "file:line: message". */
function compile(name: string, body: string): string[] {
  const file = join(work, `${name}.ts`);
  writeFileSync(
    file,
    [
      `import { createClient, createServer } from ${generated};`,
      `import { createInMemoryTransportPair } from ${runtime};`,
      "const [clientSide, serverSide] = createInMemoryTransportPair();",
      'const client = createClient({ transport: clientSide, clientInfo: { name: "c", version: "1" } });',
      "void serverSide;",
      body,
      "export {};",
    ].join("\n"),
  );
  return compileFiles([file], [file], STRICT);
}

describe("call-site types of the generated 2025-11-25 client and server", () => {
  it("accepts correct code", () => {
    const diagnostics = compile(
      "correct",
      `
      async function use() {
        const result = await client.callTool({ name: "x", arguments: { a: 1 } });
        const first: string | undefined = result.content[0]?.type;
        const { tools } = await client.listTools();
        for await (const page of client.listToolsPages()) void page.tools;
        const stop = client.on("notifications/tools/list_changed", () => {});
        stop();
        return [first, tools.length];
      }
      const server = createServer({
        serverInfo: { name: "s", version: "1" },
        handlers: {
          callTool: (params) => ({ content: [{ type: "text", text: params.name }] }),
          listTools: () => ({ tools: [{ name: "x", inputSchema: { type: "object" } }] }),
        },
      });
      void use; void server;
      `,
    );
    expect(diagnostics).toEqual([]);
  });

  it("rejects a misspelt parameter", () => {
    const diagnostics = compile("misspelt", `void client.callTool({ nam: "x" });`);
    expect(diagnostics.join("\n")).toMatch(/nam/);
    expect(diagnostics.length).toBeGreaterThan(0);
  });

  it("rejects a handler that returns the wrong result shape", () => {
    const diagnostics = compile(
      "wrong-result",
      `createServer({ serverInfo: { name: "s", version: "1" }, handlers: { callTool: () => ({ contents: [] }) } });`,
    );
    expect(diagnostics.join("\n")).toMatch(/contents|content/);
  });

  it("rejects a wrong notification name and wrongly typed listener params", () => {
    expect(compile("bad-notification", `client.on("notifications/tools/changed", () => {});`).length).toBeGreaterThan(
      0,
    );
    expect(
      compile(
        "bad-listener",
        `client.on("notifications/resources/updated", (p) => { const n: number = p.uri; void n; });`,
      ).join("\n"),
    ).toMatch(/string.*number/);
  });

  it("rejects a method this revision does not have", () => {
    expect(compile("no-such-method", `void client.discover();`).join("\n")).toMatch(/discover/);
  });
});
