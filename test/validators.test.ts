// Generated validators: the official examples, the quality of error reports (one test per
// failure class), message classification, Standard Schema, and hostile input.
import { describe, expect, it } from "vitest";
import * as V2024 from "../generated/2024-11-05/validators.js";
import * as V2025a from "../generated/2025-03-26/validators.js";
import * as V2025b from "../generated/2025-06-18/validators.js";
import * as V2025 from "../generated/2025-11-25/validators.js";
import * as V2026 from "../generated/2026-07-28/validators.js";
import * as Vdraft from "../generated/draft/validators.js";
import { officialExamples } from "./support/spec.js";

type AnyValidators = Record<string, { validate(v: unknown): { ok: boolean; issues?: readonly V2025.Issue[] } }>;

describe.each([
  ["2026-07-28", V2026.validators],
  ["draft", Vdraft.validators],
] as const)("official examples of %s", (revision, validators) => {
  const examples = officialExamples(revision);

  it("are all accepted by the validator of the type their folder names", () => {
    expect(examples.length).toBeGreaterThan(100);
    const rejected = examples
      .map(({ folder, file, value }) => ({
        at: `${folder}/${file}`,
        result: (validators as unknown as AnyValidators)[folder]?.validate(value),
      }))
      .filter(({ result }) => !result?.ok);
    expect(rejected).toEqual([]);
  });
});

/** The issues of a failed validation. */
function issuesOf(result: { ok: boolean; issues?: readonly V2025.Issue[] }): readonly V2025.Issue[] {
  expect(result.ok).toBe(false);
  return result.issues ?? [];
}

describe("error reports name the exact path, the expected fact and the chosen union member", () => {
  const call = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
  const toolResult = (content: unknown[]) => ({ jsonrpc: "2.0", id: 7, result: { content } });
  const methodOf = () => "tools/call";

  it("a non-object where an object is expected", () => {
    const result = V2025.validateMessage(call({ name: "echo", arguments: 5 }));
    expect(result).toMatchObject({ ok: false, code: -32602, method: "tools/call", id: 1 });
    expect(issuesOf(result)).toEqual([
      { path: "/params/arguments", expected: "object", message: "expected object, got number" },
    ]);
  });

  it("an unknown member of a discriminated union, naming the union", () => {
    const result = V2025.validateMessage(
      toolResult([
        { type: "text", text: "a" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "video" },
      ]),
      {
        methodOf,
      },
    );
    const [issue] = issuesOf(result);
    expect(issue?.path).toBe("/result/content/2/type");
    expect(issue?.expected).toBe('"text" | "image" | "audio" | "resource_link" | "resource"');
    expect(issue?.message).toBe(
      'unknown string "video": expected one of "text" | "image" | "audio" | "resource_link" | "resource" (TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource)',
    );
  });

  it("a wrong value inside the chosen member names that member", () => {
    const result = V2025.validateMessage(toolResult([{ type: "text", text: 5 }]), { methodOf });
    expect(issuesOf(result)).toEqual([
      { path: "/result/content/0/text", expected: "string", message: "TextContent: expected string, got number" },
    ]);
  });

  it("a missing required property points at the property", () => {
    expect(issuesOf(V2025.validateTool({ inputSchema: { type: "object" } }))).toEqual([
      { path: "/name", expected: "required property", message: 'missing required property "name"' },
    ]);
  });

  it("a wrong literal", () => {
    expect(issuesOf(V2025.validateCallToolRequest({ ...call({ name: "x" }), method: "tools/cal" }))).toEqual([
      { path: "/method", expected: '"tools/call"', message: 'expected "tools/call", got string "tools/cal"' },
    ]);
  });

  it("an integer where the schema wants one, a number where @TJS-type says number", () => {
    const base = { messages: [], maxTokens: 10 };
    expect(issuesOf(V2025.validateCreateMessageRequestParams({ ...base, maxTokens: 1.5 }))).toEqual([
      { path: "/maxTokens", expected: "integer", message: "expected integer, got number 1.5" },
    ]);
    expect(V2025.validateCreateMessageRequestParams({ ...base, temperature: 0.7 }).ok).toBe(true);
    expect(issuesOf(V2025.validateCreateMessageRequestParams({ ...base, temperature: "hot" }))[0]?.path).toBe(
      "/temperature",
    );
  });

  it("any JSON number in JSON values and elicitation answers, in every revision with them; ids and counts stay integers", () => {
    // schema.ts says `number` in both; schema.json's integer comes from its build's default.
    const answer = { action: "accept", content: { name: "a", age: 3.14, agree: true } };
    for (const v of [V2025b, V2025, V2026, Vdraft]) expect(v.validateElicitResult(answer).ok).toBe(true);
    for (const v of [V2026, Vdraft]) {
      expect(v.validateJSONValue(3.14).ok).toBe(true);
      expect(v.validateJSONArray([0.5, { a: -1e-7 }]).ok).toBe(true);
      expect(v.validateClientCapabilities({ experimental: { x: { ratio: 0.25, nested: [1.5] } } }).ok).toBe(true);
      expect(issuesOf(v.validateJSONValue(NaN))[0]?.expected).toBe(
        "string | number | boolean | null | JSONObject | JSONArray",
      );
      expect(issuesOf(v.validateRequestId(1.5))[0]?.expected).toBe("string | integer");
      expect(issuesOf(v.validateCreateMessageRequestParams({ messages: [], maxTokens: 1.5 }))).toEqual([
        { path: "/maxTokens", expected: "integer", message: "expected integer, got number 1.5" },
      ]);
    }
    expect(issuesOf(V2025b.validateElicitResult({ action: "accept", content: { age: Infinity } }))[0]?.path).toBe(
      "/content/age",
    );
  });

  it("a number out of range", () => {
    expect(issuesOf(V2025.validateAnnotations({ priority: 2 }))).toEqual([
      { path: "/priority", expected: "<= 1 (maximum)", message: "expected <= 1 (maximum), got number 2" },
    ]);
    expect(issuesOf(V2025.validateModelPreferences({ costPriority: -0.5 }))[0]?.expected).toBe(">= 0 (minimum)");
  });

  it("a string that breaks its format", () => {
    expect(issuesOf(V2024.validateResource({ uri: "not a uri", name: "r" }))).toEqual([
      { path: "/uri", expected: "uri (format)", message: 'expected uri (format), got string "not a uri"' },
    ]);
    expect(
      issuesOf(V2024.validateImageContent({ type: "image", data: "abc", mimeType: "image/png" }))[0]?.expected,
    ).toBe("byte (format)");
  });

  it("too many items", () => {
    const values = Array.from({ length: 101 }, (_, i) => String(i));
    expect(issuesOf(V2026.validateCompleteResult({ resultType: "complete", completion: { values } }))).toEqual([
      {
        path: "/completion/values",
        expected: "maxItems 100",
        message: "expected maxItems 100, got array (length 101)",
      },
    ]);
  });

  it("an index signature value, with the key escaped as a JSON Pointer", () => {
    const result = V2025.validateGetPromptRequestParams({ name: "p", arguments: { "a/b~c": 1 } });
    expect(issuesOf(result)).toEqual([
      { path: "/arguments/a~1b~0c", expected: "string", message: "expected string, got number" },
    ]);
  });

  it("a map's key with several characters to escape, the same in the first issue and in every issue", () => {
    const value = { extensions: { "a/b~c~/": 5 } };
    const path = "/extensions/a~1b~0c~0~1";
    expect(issuesOf(V2026.validateClientCapabilities(value))[0]?.path).toBe(path);
    expect(issuesOf(V2026.validateClientCapabilities(value, { all: true })).map((i) => i.path)).toEqual([path]);
  });

  it("a message quotes the value only where its kind is one the check admits, in both modes", () => {
    const level = (value: unknown) => V2025.validateSetLevelRequestParams({ level: value });
    const token = (value: unknown) => V2025.validateProgressNotificationParams({ progressToken: value, progress: 1 });
    const cases: [V2025.ValidationResult<unknown>, string][] = [
      // A string where only some strings are valid: the string is what is wrong.
      [level("verbose"), 'got string "verbose"'],
      // Another kind: the kind is what is wrong (a boolean, null, an object read the same either way).
      [level(5), "got number"],
      [level([1]), "got array"],
      [level({}), "got object"],
      [level(null), "got null"],
      [level(true), "got boolean true"],
      // `string | integer`: a number is admitted, so 1.5 is quoted; an array is not.
      [token(1.5), "got number 1.5"],
      [token([]), "got array"],
    ];
    for (const [result, got] of cases) {
      const [issue] = issuesOf(result);
      expect(issue?.message.endsWith(`, ${got}`), `${issue?.message} ends with ${got}`).toBe(true);
    }
    const all = issuesOf(V2025.validateSetLevelRequestParams({ level: 5 }, { all: true }));
    expect(all.map((i) => i.message)).toEqual([issuesOf(level(5))[0]?.message]);
  });

  it("an array item", () => {
    const tools = [{ name: "a", inputSchema: { type: "object" } }, { inputSchema: { type: "object" } }];
    expect(issuesOf(V2025.validateListToolsResult({ tools }))[0]?.path).toBe("/tools/1/name");
  });

  it("a union without a discriminator reports the member the value came closest to", () => {
    const url = { mode: "url", message: "go" };
    expect(issuesOf(V2025.validateElicitRequestParams(url))).toEqual([
      {
        path: "/elicitationId",
        expected: "required property",
        message: 'ElicitRequestURLParams: missing required property "elicitationId"',
      },
    ]);
    expect(issuesOf(V2025.validateElicitRequestParams(url, { all: true }))).toEqual([
      {
        path: "/elicitationId",
        expected: "required property",
        message: 'ElicitRequestURLParams: missing required property "elicitationId"',
      },
      {
        path: "/url",
        expected: "required property",
        message: 'ElicitRequestURLParams: missing required property "url"',
      },
    ]);
    expect(issuesOf(V2025.validateProgressToken(true))).toEqual([
      { path: "", expected: "string | integer", message: "expected string | integer, got boolean true" },
    ]);
  });
});

describe("the first issue by default, every issue on request", () => {
  const tool = (name: unknown) => ({ name, inputSchema: { type: "object" } });
  const tools = [tool("a"), tool(1), tool("c"), { name: "d" }];

  it("validate() and assert() stop at the first issue; { all: true } reports every one", () => {
    expect(issuesOf(V2025.validateListToolsResult({ tools }))).toEqual([
      { path: "/tools/1/name", expected: "string", message: "expected string, got number" },
    ]);
    expect(issuesOf(V2025.validateListToolsResult({ tools }, { all: true }))).toEqual([
      { path: "/tools/1/name", expected: "string", message: "expected string, got number" },
      {
        path: "/tools/3/inputSchema",
        expected: "required property",
        message: 'missing required property "inputSchema"',
      },
    ]);
    const thrown = (options?: { all?: boolean }) => {
      try {
        V2025.assertTool({ name: 1 }, options);
      } catch (error) {
        return (error as V2025.ValidationError).issues.map((i) => i.path);
      }
      return [];
    };
    // A missing required property is found before any value is checked (as ajv's `required`).
    expect(thrown()).toEqual(["/inputSchema"]);
    expect(thrown({ all: true })).toEqual(["/inputSchema", "/name"]);
  });

  it("reports the cheap mistake first: literals, then missing properties, then values, a URI last", () => {
    const first = (value: unknown) => issuesOf(V2026.validateIcon(value)).map((i) => i.path);
    // `sizes` is checked before `src` is scanned as a URI, though `src` comes first in schema.ts.
    expect(first({ src: "not a uri", sizes: [1] })).toEqual(["/sizes/0"]);
    expect(first({ sizes: [1] })).toEqual(["/src"]);
    expect(issuesOf(V2026.validateIcon({ src: "not a uri", sizes: [1] }, { all: true })).map((i) => i.path)).toEqual([
      "/sizes/0",
      "/src",
    ]);
    // A union member's literal still comes before its missing properties: the wrong member is told soonest.
    expect(issuesOf(V2026.validateTextContent({ type: "image" }))).toEqual([
      { path: "/type", expected: '"text"', message: 'expected "text", got string "image"' },
    ]);
  });

  it("validateMessage too, with the same verdict and code either way", () => {
    const message = { jsonrpc: "2.0", id: 1, result: { tools } };
    const options = { from: "server", methodOf: () => "tools/list" } as const;
    const first = V2025.validateMessage(message, options);
    const all = V2025.validateMessage(message, { ...options, all: true });
    expect(first).toMatchObject({ ok: false, code: -32602, kind: "response", method: "tools/list", id: 1 });
    expect(all).toMatchObject({ ok: false, code: -32602, kind: "response", method: "tools/list", id: 1 });
    expect(issuesOf(first).map((i) => i.path)).toEqual(["/result/tools/1/name"]);
    expect(issuesOf(all).map((i) => i.path)).toEqual(["/result/tools/1/name", "/result/tools/3/inputSchema"]);
  });

  it("Standard Schema reports every issue, as other Standard Schema libraries do", () => {
    expect(V2025.validators.Tool["~standard"].validate({ name: 1 })).toEqual({
      issues: [
        { message: 'missing required property "inputSchema"', path: ["inputSchema"] },
        { message: "expected string, got number", path: ["name"] },
      ],
    });
  });
});

describe("validateMessage classifies JSON-RPC messages", () => {
  it("requests, notifications, results and errors, typed by method and sender", () => {
    const request = V2025.validateMessage({ jsonrpc: "2.0", id: "a", method: "tools/list" }, { from: "client" });
    expect(request).toMatchObject({ ok: true, kind: "request", from: "client", method: "tools/list", id: "a" });
    const notification = V2025.validateMessage({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notification).toMatchObject({
      ok: true,
      kind: "notification",
      from: "client",
      method: "notifications/initialized",
    });
    const roots = V2025.validateMessage({ jsonrpc: "2.0", id: 2, method: "roots/list" });
    expect(roots).toMatchObject({ ok: true, from: "server", method: "roots/list" });
    const result = V2025.validateMessage(
      { jsonrpc: "2.0", id: 2, result: { roots: [] } },
      { from: "client", methodOf: () => "roots/list" },
    );
    expect(result).toMatchObject({ ok: true, kind: "response", from: "client", method: "roots/list", id: 2 });
    const unmatched = V2025.validateMessage({ jsonrpc: "2.0", id: 3, result: {} });
    expect(unmatched).toMatchObject({ ok: true, kind: "response", id: 3 });
    const error = V2025.validateMessage({ jsonrpc: "2.0", id: 4, error: { code: -32601, message: "no" } });
    expect(error).toMatchObject({ ok: true, kind: "error", id: 4 });
  });

  it("respects the sender: a server cannot send tools/call", () => {
    expect(
      V2025.validateMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } }, { from: "server" }),
    ).toMatchObject({
      ok: false,
      code: -32601,
    });
  });

  it("answers each failure with the right JSON-RPC error code", () => {
    expect(V2025.validateMessageText("{not json")).toMatchObject({ ok: false, code: -32700 });
    expect(V2025.validateMessage({ jsonrpc: "1.0", id: 1, method: "ping" })).toMatchObject({
      ok: false,
      code: -32600,
      issues: [{ path: "/jsonrpc", expected: '"2.0"' }],
    });
    expect(V2025.validateMessage({ jsonrpc: "2.0", id: 1, method: "no/such" })).toMatchObject({
      ok: false,
      code: -32601,
      method: "no/such",
      id: 1,
    });
    expect(V2025.validateMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: {} })).toMatchObject({
      ok: false,
      code: -32602,
    });
    expect(V2025.validateMessage("ping")).toMatchObject({ ok: false, code: -32600 });
    expect(V2025.validateMessage({ jsonrpc: "2.0" })).toMatchObject({ ok: false, code: -32600 });
  });

  it("knows each revision's methods", () => {
    expect(
      V2024.validateMessage({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      }).ok,
    ).toBe(true);
    const discover = {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    };
    expect(V2026.validateMessage(discover).ok).toBe(true);
    expect(V2025.validateMessage(discover)).toMatchObject({ ok: false, code: -32601 });
    expect(V2026.validateMessage({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toMatchObject({
      ok: false,
      code: -32601,
    });
    // 2026-07-28 carries sampling inside InputRequiredResult, never as a request of its own.
    expect(
      V2026.validateMessage({
        jsonrpc: "2.0",
        id: 1,
        method: "sampling/createMessage",
        params: { messages: [], maxTokens: 1 },
      }),
    ).toMatchObject({ ok: false, code: -32601 });
  });

  it("validates batches only where the revision has them", () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ];
    expect(V2025a.validateMessage(batch)).toMatchObject({ ok: true, kind: "batch" });
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call" };
    const bad = V2025a.validateMessage([batch[0], call, { ...call, id: 3 }]);
    expect(bad).toMatchObject({ ok: false, kind: "batch", code: -32600 });
    // The first issue of each invalid item.
    expect(issuesOf(bad).map((i) => i.path)).toEqual(["/1/params", "/2/params"]);
    expect(V2025a.validateMessage([])).toMatchObject({ ok: false, kind: "batch" });
    expect(V2025.validateMessage(batch)).toMatchObject({ ok: false, code: -32600, kind: "batch" });
    // A hole in a sparse batch is an invalid item, not a skipped one.
    expect(V2025a.validateMessage([batch[0], , batch[1]])).toMatchObject({ ok: false, kind: "batch" });
  });
});

describe("Standard Schema v1 and the helper functions", () => {
  it("implements ~standard with vendor mcp-gen and array paths", () => {
    const standard = V2025.validators.CallToolResult["~standard"];
    expect(standard.version).toBe(1);
    expect(standard.vendor).toBe("mcp-gen");
    expect(standard.validate({ content: [] })).toEqual({ value: { content: [] } });
    expect(standard.validate({ content: [{ type: "text" }] })).toEqual({
      issues: [{ message: 'TextContent: missing required property "text"', path: ["content", "0", "text"] }],
    });
  });

  it("isX narrows, assertX throws a ValidationError with the issue", () => {
    const value: unknown = { name: "t", inputSchema: { type: "object" } };
    expect(V2025.isTool(value)).toBe(true);
    expect(() => V2025.assertTool({})).toThrow(V2025.ValidationError);
    expect(() => V2025.assertTool({ name: 1, inputSchema: { type: "object" } })).toThrow(
      "invalid Tool: /name: expected string, got number",
    );
  });
});

describe("hostile input: never a crash, always a clean verdict", () => {
  it("cycles through recursive types are cut off at MAX_DEPTH", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = V2026.validateJSONObject(cyclic);
    expect(result.ok).toBe(false);
    expect(issuesOf(result).at(-1)?.message).toContain("nested more than 1024 levels deep");
    const list: unknown[] = [];
    list.push(list);
    expect(V2026.validateJSONValue(list).ok).toBe(false);
    // Through an `unknown` position nothing is descended into, so a cycle is no problem.
    const args: Record<string, unknown> = {};
    args.again = args;
    expect(V2025.validateCallToolRequestParams({ name: "x", arguments: args }).ok).toBe(true);
  });

  it("nesting 100,000 levels deep", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(V2026.validateJSONValue(deep).ok).toBe(false);
    expect(V2026.isJSONValue(deep)).toBe(false);
    expect(V2025.validateCallToolRequestParams({ name: "x", arguments: { deep } }).ok).toBe(true);
    const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}}}`;
    // JSON.parse builds the nesting; the validator never descends into `arguments`.
    expect(V2025.validateMessageText(text)).toMatchObject({ ok: true, kind: "request", method: "tools/call" });
  });

  it("50 MB strings, in plain, uri and byte positions", () => {
    const huge = "a".repeat(50 * 1024 * 1024);
    expect(V2025.validateTextContent({ type: "text", text: huge }).ok).toBe(true);
    expect(V2025.validateResource({ uri: `https://example.com/${huge}`, name: "r" }).ok).toBe(true);
    expect(V2025.validateResource({ uri: `${huge} x`, name: "r" }).ok).toBe(false);
    expect(V2025.validateImageContent({ type: "image", data: huge.slice(4), mimeType: "image/png" }).ok).toBe(true);
    const failed = V2025.validateImageContent({ type: "image", data: `${huge}!`, mimeType: "image/png" });
    expect(issuesOf(failed)[0]?.message.length).toBeLessThan(200);
  });

  it("long base64 (checked 32 bytes at a time): every character outside the alphabet, at block and 64 KiB chunk edges", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const valid = (length: number) => Array.from({ length }, (_, i) => alphabet[(i * 7 + (i >> 5)) % 64]).join("");
    const image = (data: string) => V2025.validateImageContent({ type: "image", data, mimeType: "image/png" }).ok;
    // Every UTF-16 unit up to U+0110, lone surrogates, U+2028 and a surrogate pair.
    const others = [...Array.from({ length: 0x110 }, (_, c) => String.fromCharCode(c)), "\ud800", "\udfff", "\u2028"];
    const outside = others.filter((c) => !alphabet.includes(c));
    for (const length of [1024, 4096, 65_536, 65_540, 131_080]) {
      const s = valid(length);
      expect(image(s), `${length}`).toBe(true);
      expect([image(`${s.slice(0, -1)}=`), image(`${s.slice(0, -2)}==`), image(`${s.slice(0, -3)}===`)]).toEqual([
        true,
        true,
        false,
      ]);
      for (const at of [0, 15, 16, 31, 32, 1000, 65_535, 65_536, length - 4, length - 3].filter(
        (i) => i < length - 2,
      )) {
        const accepted = outside.filter((c) => image(s.slice(0, at) + c + s.slice(at + 1)));
        expect(accepted, `length ${length}, at ${at}`).toEqual([]);
        expect(image(`${s.slice(0, at)}\ud83d\ude00${s.slice(at + 2)}`)).toBe(false);
      }
    }
  });

  it("sparse arrays: a hole is a missing item", () => {
    const content = [, { type: "text", text: "a" }];
    expect(issuesOf(V2025.validateCallToolResult({ content }))[0]?.path).toBe("/content/0");
  });

  it("NaN, Infinity, BigInt, functions, symbols and undefined are not JSON numbers, strings or objects", () => {
    for (const bad of [NaN, Infinity, -Infinity, 10n, () => 1, Symbol("s"), undefined]) {
      expect(V2025.validateProgressNotificationParams({ progressToken: 1, progress: bad }).ok, String(bad)).toBe(false);
      expect(V2025.validateTool(bad).ok).toBe(false);
    }
    expect(issuesOf(V2025.validateAnnotations({ priority: NaN }))[0]?.message).toBe(
      "expected number, got non-finite number NaN",
    );
    expect(issuesOf(V2025.validateAnnotations({ priority: 1n }))[0]?.message).toBe("expected number, got bigint");
  });

  it("class instances are objects with their own properties", () => {
    class Icon {
      constructor(readonly src: string) {}
    }
    expect(V2025.validateIcon(new Icon("https://example.com/i.png")).ok).toBe(true);
    expect(V2025.validateTool(new Date()).ok).toBe(false);
    expect(V2025.validateTool(new Map([["name", "x"]])).ok).toBe(false);
  });

  it("__proto__ and constructor keys neither pollute prototypes nor confuse checks", () => {
    const tool = JSON.parse(
      '{"name":"t","inputSchema":{"type":"object"},"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    ) as unknown;
    expect(V2025.validateTool(tool).ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const meta = JSON.parse('{"name":"p","arguments":{"__proto__":1}}') as unknown;
    expect(issuesOf(V2025.validateGetPromptRequestParams(meta))).toEqual([
      { path: "/arguments/__proto__", expected: "string", message: "expected string, got number" },
    ]);
    // Declared properties are read like ajv reads them, through the prototype chain (JSON.parse
    // never makes inherited ones); a null-prototype object is an object like any other.
    const inherited = Object.create({ name: "t" }) as Record<string, unknown>;
    inherited.inputSchema = { type: "object" };
    expect(V2025.validateTool(inherited).ok).toBe(true);
    expect(V2025.validateTool(Object.create(null)).ok).toBe(false);
  });

  it("a value whose getters throw gives a clean failure", () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error("boom");
        },
      },
    );
    expect(V2025.validateTool(trap)).toEqual({
      ok: false,
      issues: [{ path: "", expected: "a value that can be read", message: "the value could not be read: boom" }],
    });
    expect(V2025.isTool(trap)).toBe(false);
    expect(V2025.validateMessage(trap)).toMatchObject({ ok: false, code: -32603 });
    expect(V2025.validateMessageText(42 as unknown as string)).toMatchObject({ ok: false, code: -32700 });
  });
});
