// `mcp-gen tools` on hostile input: names that clash or are not identifiers, schemas with cycles,
// deep nesting, closed objects, odd enum values, no `type`, keywords no check exists for, 5,000
// tools, a 5 MB description; listings and servers that are malformed or die mid-listing. The
// result is valid TypeScript or a one-line error naming the tool, never a crash or a hang.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { FORMATS } from "../generators/emit/validate/formats.js";
import { InputError } from "../generators/errors.js";
import { toolsCommand } from "../generators/tools/command.js";
import { emitToolsModule } from "../generators/tools/emit.js";
import { normalizeListing, type JsonObject, type Listing } from "../generators/tools/listing.js";
import { identifiers, words } from "../generators/tools/naming.js";
import { splitCommandLine } from "../generators/tools/command-line.js";
import { cli, FIXTURES, nodeCommandLine, workDir } from "./fixtures/tools/harness.js";
import { compile } from "./support/compile.js";

const work = workDir("tools-hostile");
afterAll(() => work.remove());

const NAMES = [
  "get_weather",
  "get-weather",
  "get.weather",
  "get/weather",
  "get weather",
  "Get Weather",
  "getWeather2",
  "天気",
  "données",
  "🔥",
  "",
  "123",
  "3d-render",
  "delete",
  "class",
  "constructor",
  "then",
  "toString",
  "__proto__",
  "HTTPRequest",
  "a\nb",
  "a\u2028b",
];

const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: "object",
  properties,
  ...extra,
});

function nested(levels: number): JsonObject {
  let schema: JsonObject = { type: "string" };
  for (let i = 0; i < levels; i++) schema = object({ n: schema }, { required: ["n"] });
  return schema;
}

const ODD = ["", 'a"b', "line\nbreak", "*/", "${x}", "`tick`", "\u2028", "é", "__proto__", "constructor", "\\"];

/** One listing with every hostile shape at once; each tool is named for what it holds. */
const HOSTILE: Listing = normalizeListing(
  {
    tools: [
      ...NAMES.map((name) => ({ name, inputSchema: object({ x: { type: "string" } }) })),
      {
        name: "cycles",
        inputSchema: {
          type: "object",
          $defs: {
            a: object({ b: { $ref: "#/$defs/b" } }),
            b: object({ a: { $ref: "#/$defs/a" }, leaf: { type: "integer" } }),
          },
          properties: {
            root: { $ref: "#/$defs/a" },
            self: { $ref: "#" },
            items: { type: "array", items: { $ref: "#/properties/root" } },
          },
        },
        outputSchema: {
          definitions: { node: object({ next: { $ref: "#/definitions/node" } }) },
          $ref: "#/definitions/node",
        },
      },
      { name: "deep", inputSchema: object({ top: nested(200) }, { required: ["top"] }) },
      {
        name: "closed",
        inputSchema: object(
          { inner: object({ a: { type: "number" } }, { additionalProperties: false }) },
          { additionalProperties: false },
        ),
        outputSchema: object({}, { additionalProperties: { type: "integer" } }),
      },
      {
        name: "odd-enums",
        inputSchema: object({ e: { enum: [...ODD, 1, true, null] }, c: { const: "*/ evil() /*" } }),
      },
      {
        name: "untyped",
        inputSchema: {
          properties: { any: {}, min: { minimum: 3 }, list: { items: { type: "string" } } },
          required: ["any"],
        },
        outputSchema: {},
      },
      {
        name: "formats",
        inputSchema: object(
          { email: { type: "string", format: "email" }, when: { type: "string", format: "date-time" } },
          { required: ["email"] },
        ),
        outputSchema: object({ id: { type: "string", format: "uuid" }, host: { type: "string", format: "ipv6" } }),
      },
      {
        name: "unchecked",
        description: "*/ export const pwned = 1; /* \u2028 `${x}`",
        inputSchema: object({
          reference: { type: "string", format: "uri-reference" },
          not: { not: { type: "string" } },
          remote: { $ref: "https://example.com/schema.json" },
          dangling: { $ref: "#/$defs/missing" },
          injected: { tsType: "any; export const pwned = 2", type: "string" },
          titled: { title: "Issue", type: "object", properties: { p: { type: "string" } } },
        }),
      },
    ],
    prompts: [
      {
        name: "review",
        arguments: [{ name: "__proto__", required: true }, { name: "a-b" }, { name: "class", required: true }],
      },
      { name: "Review" },
      { name: "then", arguments: [] },
    ],
  },
  "hostile",
);

describe("identifiers from tool names", () => {
  const ids = identifiers(NAMES, "Tool");

  it("are ASCII identifiers, unique, and the same whatever the order of the names", () => {
    const methods = ids.map((i) => i.method);
    const pascals = ids.map((i) => i.pascal);
    for (const m of methods) expect(m).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    expect(new Set(methods).size).toBe(NAMES.length);
    expect(new Set(pascals).size).toBe(NAMES.length);
    const reversed = identifiers([...NAMES].reverse(), "Tool");
    for (const id of ids) expect(reversed.find((r) => r.name === id.name)).toEqual(id);
  });

  it("follow the documented scheme (docs/tools.md)", () => {
    const method = (name: string) => ids.find((i) => i.name === name)?.method;
    // Colliding names: the first in code-unit order keeps the base, the rest are numbered, skipping taken names.
    expect(
      ["Get Weather", "get weather", "get-weather", "get.weather", "get/weather", "get_weather"].map(method),
    ).toEqual(["getWeather", "getWeather3", "getWeather4", "getWeather5", "getWeather6", "getWeather7"]);
    expect(method("getWeather2")).toBe("getWeather2");
    expect(method("天気")).toBe("u5929U6C17");
    expect(method("données")).toBe("donnees");
    expect([method("🔥"), method("")]).toEqual(["tool2", "tool"]);
    expect([method("123"), method("3d-render")]).toEqual(["_123", "_3DRender"]);
    expect([method("delete"), method("class"), method("__proto__")]).toEqual(["delete", "class", "proto"]);
    expect([method("constructor"), method("then"), method("toString")]).toEqual(["constructor_", "then_", "toString_"]);
    expect(method("HTTPRequest")).toBe("httpRequest");
    expect(words("a\nb")).toEqual(["a", "b"]);
  });
});

describe("a hostile listing", () => {
  const file = join(work.dir, "hostile.ts");
  const generated = emitToolsModule(HOSTILE, file).then((m) => (writeFileSync(file, m.source), m));

  it("gives a module that compiles under the strictest options", async () => {
    await generated;
    expect(compile([file])).toEqual([]);
  });

  it("an empty listing (no tools, no prompts) also compiles, with wrappers that have no methods", async () => {
    const empty = join(work.dir, "empty.ts");
    writeFileSync(empty, (await emitToolsModule(normalizeListing({ tools: [] }, "empty"), empty)).source);
    expect(compile([empty])).toEqual([]);
    const module = (await import(empty)) as {
      createTools: (c: unknown) => object;
      createPrompts: (c: unknown) => object;
    };
    expect([Object.keys(module.createTools({})), Object.keys(module.createPrompts({}))]).toEqual([[], []]);
  });

  it("lists every keyword its checks cannot enforce, and lets no schema text become code", async () => {
    const { source, unchecked } = await generated;
    expect(unchecked).toEqual([
      // A pointer into the schema other than its root or a definition: typed, not checked.
      'tool "cycles" arguments: $ref #/properties/root at /properties/items/items',
      'tool "unchecked" arguments: $ref #/$defs/missing at /properties/dangling',
      'tool "unchecked" arguments: not at /properties/not',
      'tool "unchecked" arguments: $ref https://example.com/schema.json at /properties/remote',
      'tool "unchecked" arguments: format "uri-reference"',
    ]);
    const header = source.slice(0, source.indexOf("\n\n", source.indexOf("do not enforce")));
    for (const line of unchecked) expect(header).toContain(`// - ${line}`);
    const code = source.slice(0, source.lastIndexOf("/* mcp-gen tools listing"));
    expect(code).not.toMatch(/^export const pwned/m);
    expect(code).not.toContain("any; export");
    // No type takes a name from a schema's title: "Issue" stays the validation API's, which the module passes on.
    expect(source).not.toMatch(/^export (interface|type) Issue\b/m);
    expect(source).toMatch(/^export \{[^}]*\btype Issue,[^}]*\} from "@mcp-gen\/runtime\/validation";$/m);
    // The listing at the end still parses to the same listing.
    const listing = source.slice(source.lastIndexOf("/* mcp-gen tools listing"));
    expect(JSON.parse(listing.slice(listing.indexOf("\n"), listing.lastIndexOf("*/")))).toEqual(
      JSON.parse(JSON.stringify(HOSTILE)),
    );
  });

  it("prints what its checks cannot enforce as warnings when generating", async () => {
    const saved = join(work.dir, "hostile.json");
    writeFileSync(saved, JSON.stringify(HOSTILE));
    const log: string[] = [];
    const out = join(work.dir, "hostile-command.ts");
    const options = { from: saved, out, format: "md" as const, timeoutMs: 1000 };
    expect(
      await toolsCommand(
        options,
        (line) => log.push(line),
        () => {},
      ),
    ).toBe(0);
    const warnings = log.filter((l) => l.startsWith("warning: "));
    expect(warnings).toEqual((await generated).unchecked.map((u) => `warning: not checked at run time: ${u}`));
    expect(readFileSync(out, "utf8")).toBe((await generated).source);
  });

  it("checks what it can: cycles, deep nesting, closed objects, odd enum values, untyped schemas", async () => {
    await generated;
    const { validators } = (await import(/* @vite-ignore */ file)) as {
      validators: Record<string, { validate(v: unknown): { ok: boolean } }>;
    };
    const ok = (type: string, value: unknown) =>
      (validators[type] as { validate(v: unknown): { ok: boolean } }).validate(value).ok;
    expect(ok("CyclesInput", { root: { b: { a: { b: {}, leaf: 1 } } }, self: { self: {} } })).toBe(true);
    expect(ok("CyclesInput", { root: { b: { a: { b: { leaf: 1.5 } } } } })).toBe(false);
    expect(ok("CyclesOutput", { next: { next: {} } })).toBe(true);
    expect(ok("CyclesOutput", { next: 1 })).toBe(false);
    let deep: unknown = "leaf";
    for (let i = 0; i < 200; i++) deep = { n: deep };
    expect(ok("DeepInput", { top: deep })).toBe(true);
    expect(ok("DeepInput", { top: { n: { n: 1 } } })).toBe(false);
    expect(ok("ClosedInput", { inner: { a: 1 } })).toBe(true);
    expect(ok("ClosedInput", { inner: { a: 1, b: 2 } })).toBe(false);
    expect(ok("ClosedOutput", { count: 2 })).toBe(true);
    expect(ok("ClosedOutput", { count: "2" })).toBe(false);
    for (const value of [...ODD, 1, true, null]) expect(ok("OddEnumsInput", { e: value })).toBe(true);
    expect(ok("OddEnumsInput", { e: "other" })).toBe(false);
    expect(ok("UntypedInput", { any: null, min: "not a number, so not constrained" })).toBe(true);
    expect(ok("UntypedInput", { any: 1, min: 2 })).toBe(false);
    expect(ok("UntypedOutput", ["anything"])).toBe(true);
  });

  it("checks formats before sending and after the call", async () => {
    await generated;
    const { createTools } = (await import(/* @vite-ignore */ file)) as {
      createTools(client: unknown): Record<string, (args: unknown) => Promise<unknown>>;
    };
    const sent: unknown[] = [];
    let structuredContent: unknown = { id: "123e4567-e89b-12d3-a456-426614174000", host: "::1" };
    const client = { callTool: async (params: unknown) => (sent.push(params), { content: [], structuredContent }) };
    const call = createTools(client).formats as (args: unknown) => Promise<unknown>;
    await expect(call({ email: "a@example.com", when: "2024-02-29T23:59:60Z" })).resolves.toMatchObject({
      isError: false,
    });
    await expect(call({ email: "a@localhost" })).rejects.toThrow(
      'invalid arguments of tool "formats": /email: expected email (format), got string "a@localhost"',
    );
    await expect(call({ email: "a@example.com", when: "2023-02-29T00:00:00Z" })).rejects.toThrow(
      "/when: expected date-time (format)",
    );
    expect(sent).toHaveLength(1);
    structuredContent = { id: "123e4567-e89b-12d3-a456-426614174000", host: "1::2::3" };
    await expect(call({ email: "a@example.com" })).rejects.toThrow("/host: expected ipv6 (format)");
  });

  it("each checked format alone gives a module that compiles under the strictest options", async () => {
    const files = await Promise.all(
      Object.keys(FORMATS).map(async (format) => {
        const tool = { name: format, inputSchema: object({ value: { type: "string", format } }) };
        const one = join(work.dir, `format-${format}.ts`);
        const { source, unchecked } = await emitToolsModule(normalizeListing({ tools: [tool] }, format), one);
        expect(unchecked).toEqual([]);
        writeFileSync(one, source);
        return one;
      }),
    );
    expect(compile(files)).toEqual([]);
  });

  it("refuses what cannot be generated with one line naming the tool", async () => {
    const attempt = async (tools: unknown[]) => {
      try {
        await emitToolsModule(normalizeListing({ tools }, "listing.json"), join(work.dir, "never.ts"));
        return "generated";
      } catch (error) {
        return error instanceof InputError ? error.message : `crash: ${(error as Error).stack}`;
      }
    };
    expect(await attempt([{ name: "too deep", inputSchema: nested(300) }])).toBe(
      'listing.json: tools[0] ("too deep"): nested more than 512 levels deep',
    );
    expect(await attempt([{ name: "odd type", inputSchema: object({ a: { type: "frobnicate" } }) }])).toMatch(
      /^tool "odd type": its arguments schema cannot be (typed|checked): .*frobnicate/,
    );
    expect(await attempt([{ name: "bad", inputSchema: object({ a: 5 }) }])).toMatch(
      /^tool "bad": its arguments schema/,
    );
    // 400 levels of `items` is deep, but not too deep: it is generated.
    let items: JsonObject = { type: "integer" };
    for (let i = 0; i < 400; i++) items = { type: "array", items };
    expect(await attempt([{ name: "arrays", inputSchema: object({ a: items }) }])).toBe("generated");
  });

  it("refuses malformed listings with one line saying where", () => {
    const refused = (raw: unknown) => {
      try {
        normalizeListing(raw, "listing.json");
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused([])).toBe("listing.json: not a tools/list result (expected an object with a `tools` array)");
    expect(refused({ tools: [{ name: "a" }] })).toBe('listing.json: tools[0] ("a"): `inputSchema` is not an object');
    expect(refused({ tools: [{ name: 1, inputSchema: {} }] })).toBe("listing.json: tools[0]: `name` is not a string");
    const schema = { type: "object" };
    expect(
      refused({
        tools: [
          { name: "a", inputSchema: schema },
          { name: "a", inputSchema: schema },
        ],
      }),
    ).toBe('listing.json: two tools named "a"');
    expect(refused({ tools: [], prompts: [{ name: "p", arguments: [{ name: "x" }, { name: "x" }] }] })).toBe(
      'listing.json: prompts[0] ("p"): two arguments named "x"',
    );
    expect(refused({ tools: [{ name: "deep", inputSchema: nested(600) }] })).toBe(
      'listing.json: tools[0] ("deep"): nested more than 512 levels deep',
    );
  });
});

describe("large listings", () => {
  it("5,000 tools: a module that parses, loads and calls the last tool", async () => {
    // 50 shapes: equal schemas share a validator and a type, as real servers' repeated shapes do.
    const tools = Array.from({ length: 5000 }, (_, i) => ({
      name: `tool ${i}`,
      inputSchema: object({ [`p${i % 50}`]: { type: "integer" } }, { required: [`p${i % 50}`] }),
    }));
    const file = join(work.dir, "many.ts");
    const { source } = await emitToolsModule(normalizeListing({ tools }, "many"), file);
    writeFileSync(file, source);
    expect(syntaxErrors(source)).toEqual([]);
    // Sorted by name, the first tool with the shape of "tool 4999" is "tool 1049".
    expect(source).toContain("export interface Tool4999Input extends Tool1049Input {}");
    const { createTools } = (await import(/* @vite-ignore */ file)) as {
      createTools(client: unknown): Record<string, (args: unknown) => Promise<unknown>>;
    };
    const sent: unknown[] = [];
    const client = { callTool: async (params: unknown) => (sent.push(params), { content: [] }) };
    const last = createTools(client).tool4999 as (args: unknown) => Promise<unknown>;
    await last({ p49: 1 });
    await expect(last({ p48: 1 })).rejects.toThrow(/arguments of tool "tool 4999": .*"p49"/);
    expect(sent).toEqual([{ name: "tool 4999", arguments: { p49: 1 } }]);
  });

  it("a 5 MB description: kept whole in the listing, cut in doc comments", async () => {
    const description = "*/ ends a comment; so does \u2028 in a line comment.\n".repeat(100_000);
    const file = join(work.dir, "long.ts");
    const { source } = await emitToolsModule(
      normalizeListing({ tools: [{ name: "long", description, inputSchema: { type: "object" } }] }, "long"),
      file,
    );
    expect(syntaxErrors(source)).toEqual([]);
    expect(source).toContain(`(cut: ${description.length} characters in all)`);
    expect(source.length).toBeGreaterThan(description.length);
    expect(source.length).toBeLessThan(description.length * 1.2);
  });
});

describe("servers that fail while being listed", () => {
  const server = join(FIXTURES, "misbehaving-server.mjs");
  const run = (mode: string, ...extra: string[]) =>
    cli(["tools", "--stdio", nodeCommandLine(server, mode), "--out", join(work.dir, `${mode}.ts`), ...extra]);

  it("exit 2 with a one-line reason, and write nothing", async () => {
    const [died, malformed, silent] = await Promise.all([
      run("exit-mid-listing"),
      run("malformed"),
      // Long enough for the handshake of a child started on a busy machine; tools/list never comes.
      run("silent", "--timeout", "3"),
    ]);
    for (const result of [died, malformed, silent]) {
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(died.stderr).toMatch(
      /^mcp-gen: error: tools\/list: the server closed the connection .*crashed while listing/,
    );
    expect(malformed.stderr).toMatch(
      /^mcp-gen: error: tools\/list: malformed result: \/result\/tools\/0\/name: expected string/,
    );
    expect(silent.stderr).toMatch(/^mcp-gen: error: tools\/list: no answer within 3 s/);
    expect(() => readFileSync(join(work.dir, "malformed.ts"))).toThrow();
  });

  it("usage errors exit 2", async () => {
    const none = await cli(["tools", "--out", join(work.dir, "x.ts")]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("give exactly one of --stdio, --url and --from");
    const missing = await cli([
      "tools",
      "--stdio",
      "definitely-not-a-command-mcp-gen",
      "--out",
      join(work.dir, "x.ts"),
    ]);
    expect(missing.status).toBe(2);
    // ENOENT, or EACCES when a directory on PATH cannot be searched by this user (another user's).
    expect(missing.stderr).toMatch(/could not connect: spawn definitely-not-a-command-mcp-gen (ENOENT|EACCES)/);
    expect(() => splitCommandLine("node 'unclosed")).toThrow("unclosed '");
    expect(splitCommandLine(`node "a b" 'c d' e\\ f ""`)).toEqual(["node", "a b", "c d", "e f", ""]);
  });
});

function syntaxErrors(source: string): string[] {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, " "),
  );
}
