// Types of the registry at the call site (generated/<rev>/registry.ts): handler arguments inferred
// from Zod 4, Valibot (with its JSON Schema converter), ArkType and a plain JSON Schema literal;
// structured content typed by the output schema; prompt arguments required as the schema
// requires them; template variables from the template string. Wrong code fails to compile.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile as compileFiles, STRICT } from "./support/compile.js";

const work = mkdtempSync(join(tmpdir(), "mcp-gen-registry-types-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Compiles a fixture under --strict against a revision's registry; its diagnostics. */
function compile(name: string, body: string, revision = "2025-11-25"): string[] {
  const file = join(work, `${name}.ts`);
  writeFileSync(
    file,
    [
      `import { createMcpServer } from ${JSON.stringify(resolve("generated", revision, "index.js"))};`,
      'import { z } from "zod";',
      'import * as v from "valibot";',
      'import { toStandardJsonSchema } from "@valibot/to-json-schema";',
      'import { type } from "arktype";',
      "type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;",
      "function expectType<T extends true>(): T | undefined { return undefined; }",
      'const mcp = createMcpServer({ serverInfo: { name: "s", version: "1" } });',
      "void z; void v; void toStandardJsonSchema; void type; void expectType;",
      body,
      "export {};",
    ].join("\n"),
  );
  // Resolved from the repository, where the schema libraries are installed.
  return compileFiles([file], [file], { ...STRICT, baseUrl: resolve("."), typeRoots: [resolve("node_modules")] });
}

describe("registry types", () => {
  it("infers handler arguments from Zod 4, Valibot, ArkType and a JSON Schema literal", () => {
    const diagnostics = compile(
      "inference",
      `
      mcp.registerTool("zod", { inputSchema: z.object({ a: z.number(), b: z.string().optional() }) }, (args) => {
        expectType<Equal<typeof args, { a: number; b?: string | undefined }>>();
        return { content: [] };
      });
      mcp.registerTool(
        "valibot",
        { inputSchema: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number()) })) },
        (args) => {
          expectType<Equal<typeof args, { city: string; days?: number | undefined }>>();
          return { content: [] };
        },
      );
      mcp.registerTool("arktype", { inputSchema: type({ name: "string", "age?": "number" }) }, (args) => {
        expectType<Equal<typeof args, { name: string; age?: number }>>();
        return { content: [] };
      });
      mcp.registerTool(
        "json",
        {
          inputSchema: {
            type: "object",
            properties: {
              q: { type: "string" },
              n: { type: "integer" },
              tags: { type: "array", items: { type: "string" } },
              mode: { enum: ["fast", "slow"] },
              where: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] },
            },
            required: ["q"],
          },
        },
        (args) => {
          expectType<
            Equal<
              typeof args,
              { q: string; n?: number; tags?: string[]; mode?: "fast" | "slow"; where?: { lat: number } }
            >
          >();
          return { content: [] };
        },
      );
      mcp.registerTool("none", {}, (args) => {
        expectType<Equal<typeof args, {}>>();
        return { content: [] };
      });
      `,
    );
    expect(diagnostics).toEqual([]);
  });

  it("types structured content by the output schema, and content may then be left out", () => {
    const diagnostics = compile(
      "output",
      `
      mcp.registerTool("zod", { outputSchema: z.object({ sum: z.number() }) }, () => ({ structuredContent: { sum: 1 } }));
      mcp.registerTool(
        "json",
        { outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
        () => ({ structuredContent: { ok: true } }),
      );
      mcp.registerTool("error", { outputSchema: z.object({ sum: z.number() }) }, () => ({
        isError: true,
        content: [{ type: "text", text: "failed" }],
      }));
      `,
    );
    expect(diagnostics).toEqual([]);
  });

  it("rejects a handler whose structured content does not match the output schema", () => {
    const wrongZod = compile(
      "wrong-zod",
      `mcp.registerTool("t", { outputSchema: z.object({ sum: z.number() }) }, () => ({ structuredContent: { sum: "1" } }));`,
    );
    expect(wrongZod.join("\n")).toMatch(/Type 'string' is not assignable to type 'number'/);
    const wrongJson = compile(
      "wrong-json",
      `mcp.registerTool(
        "t",
        { outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
        () => ({ structuredContent: {} }),
      );`,
    );
    expect(wrongJson.join("\n")).toMatch(/Property 'ok' is missing/);
    const missing = compile(
      "missing-structured",
      `mcp.registerTool("t", { outputSchema: z.object({ sum: z.number() }) }, () => ({ content: [] }));`,
    );
    expect(missing.join("\n")).toMatch(/structuredContent/);
    // Before 2025-06-18 there are no output schemas; a tool without one compiles as everywhere.
    const early = compile(
      "no-output-schemas",
      `mcp.registerTool("t", { outputSchema: z.object({ sum: z.number() }) }, () => ({ content: [] }));
      mcp.registerTool("plain", {}, () => ({ content: [{ type: "text", text: "ok" }] }));`,
      "2025-03-26",
    );
    expect(early).toHaveLength(1);
    expect(early[0]).toMatch(/^no-output-schemas\.ts:\d+: .*not assignable to type 'undefined'/);
  });

  it("requires required prompt arguments and refuses what the schema does not give", () => {
    expect(
      compile(
        "prompt",
        `
        mcp.registerPrompt("review", { argsSchema: z.object({ code: z.string(), language: z.string().optional() }) }, (args) => {
          expectType<Equal<typeof args, { code: string; language?: string | undefined }>>();
          return { messages: [{ role: "user", content: { type: "text", text: args.code } }] };
        });
        `,
      ),
    ).toEqual([]);
    const missing = compile(
      "prompt-missing",
      `mcp.registerPrompt(
        "review",
        { argsSchema: z.object({ code: z.string().optional() }) },
        (args: { code: string }) => ({ messages: [{ role: "user", content: { type: "text", text: args.code } }] }),
      );`,
    );
    // One error, on the handler: the schema may leave `code` out, the handler needs it.
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatch(/^prompt-missing\.ts:\d+: Argument of type '\(args: \{ code: string; \}\) => /);
    expect(missing[0]).toMatch(
      /Type '\{ code\?: string \| undefined; \}' is not assignable to type '\{ code: string; \}'\. +Types of property 'code' are incompatible\. +Type 'string \| undefined' is not assignable to type 'string'/,
    );
    const unknown = compile(
      "prompt-unknown",
      `mcp.registerPrompt("review", { argsSchema: z.object({ code: z.string() }) }, (args) => ({
        messages: [{ role: "user", content: { type: "text", text: args.language } }],
      }));`,
    );
    expect(unknown.join("\n")).toMatch(/Property 'language' does not exist/);
  });

  it("types template variables from the template and completes only those", () => {
    expect(
      compile(
        "template",
        `
        mcp.registerResource("files", "file:///{path}", { complete: { path: () => [] } }, (uri, variables) => {
          expectType<Equal<typeof variables, { path: string }>>();
          return { contents: [{ uri, text: variables.path }] };
        });
        mcp.registerResource("rows", "db://{table}/rows{?limit,order}", {}, (uri, variables) => {
          expectType<Equal<(typeof variables)["table"], string>>();
          expectType<Equal<(typeof variables)["limit"], string | undefined>>();
          return { contents: [{ uri, text: variables.table }] };
        });
        `,
      ),
    ).toEqual([]);
    const wrong = compile(
      "template-wrong",
      `mcp.registerResource("files", "file:///{path}", { complete: { name: () => [] } }, (uri) => ({ contents: [{ uri, text: "" }] }));`,
    );
    expect(wrong.join("\n")).toMatch(/'name' does not exist/);
  });

  it("at 2026-07-28: cache fields are filled in, multi round-trip input is typed", () => {
    expect(
      compile(
        "mrtr",
        `
        mcp.registerTool("ask", {}, (_args, context) => {
          const answer = context.input.response("name", "elicitation/create");
          if (answer?.action !== "accept") return context.input.ask({ name: { method: "roots/list" } }, "round-1");
          return { content: [{ type: "text", text: String(answer.content?.["name"]) }] };
        });
        mcp.registerResource("readme", "file:///readme.md", { cache: { ttlMs: 1000 } }, (uri) => ({
          contents: [{ uri, text: "# readme" }],
        }));
        `,
        "2026-07-28",
      ),
    ).toEqual([]);
  });
});
