// `mcp-gen tools` against two published servers, spawned over stdio (devDependencies, no
// network): @modelcontextprotocol/server-everything and @modelcontextprotocol/server-filesystem
// (given a temporary directory). The generated modules compile under the strictest options; a
// fixture written against them calls every tool that runs offline through the typed wrappers,
// and is compiled first, so its results are typed; misspelt, mistyped and missing arguments fail
// to compile with the right errors and, made through a cast, are refused before anything is sent.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolsCommand } from "../generators/tools/command.js";
import type { Client } from "../generated/2025-11-25/index.js";
import { createClient } from "../generated/2025-11-25/index.js";
import { createServer as createServer0618, type ListToolsResult } from "../generated/2025-06-18/index.js";
import { createStreamableHttpHandler, serveStreamableHttp } from "../runtime/http/server/server.js";
import { StdioClientTransport } from "../runtime/stdio.js";
import { cli, nodeCommandLine, serverEntry, workDir, type CliResult } from "./fixtures/tools/harness.js";
import { compile } from "./support/compile.js";

const work = workDir("tools-live");
const root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-gen-tools-fs-")));
afterAll(() => {
  work.remove();
  rmSync(root, { recursive: true, force: true });
});

const everything = serverEntry("@modelcontextprotocol/server-everything");
const filesystem = serverEntry("@modelcontextprotocol/server-filesystem");
const file = (name: string) => join(work.dir, name);
const GZIP_TEXT = "hello, gzip\n".repeat(8);
/** 1×1 transparent PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const imports = (extra = "") =>
  [
    `import type { Client } from ${JSON.stringify(resolve("generated", "2025-11-25", "index.js"))};`,
    `import { createPrompts, createTools } from "./everything.js";`,
    `import { createTools as createFsTools } from "./filesystem.js";`,
    extra,
  ].join("\n");

/** Typed calls of every tool that runs offline; compiled before it runs, so the results are typed. */
const CALLS = `${imports()}

const text = (r: { content: unknown[] }) =>
  r.content.map((c) => (c as { type: string; text?: string }).text ?? "").join("\\n");

export async function callEverything(client: Client) {
  const tools = createTools(client);
  const prompts = createPrompts(client);
  const weather = await tools.getStructuredContent({ location: "Chicago" });
  const temperature: number | undefined = weather.isError ? undefined : weather.structuredContent.temperature;
  const image = (await tools.getTinyImage()).content.find((c) => c.type === "image");
  const links = (await tools.getResourceLinks({ count: 3 })).content.filter((c) => c.type === "resource_link");
  const reference = (await tools.getResourceReference({ resourceType: "Text", resourceId: 1 })).content;
  const gzip = await tools.gzipFileAsResource({
    name: "greeting.txt.gz",
    data: "data:text/plain;base64,${Buffer.from(GZIP_TEXT).toString("base64")}",
    outputType: "resourceLink",
  });
  const research = await tools.simulateResearchQuery({ topic: "tides" }).then(
    (r) => (r.isError ? "tool error: " + text(r) : "answered: " + text(r)),
    (error: Error) => error.name,
  );
  const report = await prompts.argsPrompt({ city: "Oslo", state: "Oslo" });
  return {
    echo: text(await tools.echo({ message: "typed" })),
    sum: text(await tools.getSum({ a: 2, b: 40 })),
    annotated: (await tools.getAnnotatedMessage({ messageType: "success", includeImage: false })).content.length,
    env: (await tools.getEnv()).isError,
    temperature: typeof temperature,
    conditions: weather.isError ? undefined : weather.structuredContent.conditions,
    image: image?.type === "image" ? image.mimeType : undefined,
    links: links.length,
    reference: reference.map((c) => c.type),
    gzip: gzip.content.find((c) => c.type === "resource_link")?.type,
    logging: [text(await tools.toggleSimulatedLogging()), text(await tools.toggleSimulatedLogging())],
    updates: [text(await tools.toggleSubscriberUpdates()), text(await tools.toggleSubscriberUpdates())],
    longRunning: text(await tools.triggerLongRunningOperation({ duration: 0.2, steps: 2 })),
    research,
    prompt: report.messages[0]?.role,
    simplePrompt: (await prompts.simplePrompt()).messages.length,
  };
}

export async function callFilesystem(client: Client, root: string) {
  const fs = createFsTools(client);
  const content = (r: { isError: boolean; structuredContent?: unknown }) =>
    r.isError ? "error: " : (r.structuredContent as { content: unknown }).content;
  const written = await fs.writeFile({ path: root + "/notes.txt", content: "one\\ntwo\\nthree" });
  const read = await fs.readTextFile({ path: root + "/notes.txt", head: 2 });
  const readText: string | undefined = read.isError ? undefined : read.structuredContent.content;
  return {
    written: content(written),
    read: readText,
    legacyRead: content(await fs.readFile({ path: root + "/notes.txt", tail: 1 })),
    media: (await fs.readMediaFile({ path: root + "/pixel.png" })).content.map((c) => c.type),
    multiple: content(await fs.readMultipleFiles({ paths: [root + "/notes.txt", root + "/pixel.png"] })),
    edit: content(await fs.editFile({ path: root + "/notes.txt", edits: [{ oldText: "two", newText: "2" }], dryRun: true })),
    mkdir: content(await fs.createDirectory({ path: root + "/sub" })),
    list: content(await fs.listDirectory({ path: root })),
    sizes: content(await fs.listDirectoryWithSizes({ path: root, sortBy: "size" })),
    tree: content(await fs.directoryTree({ path: root, excludePatterns: ["*.png"] })),
    move: content(await fs.moveFile({ source: root + "/notes.txt", destination: root + "/sub/notes.txt" })),
    search: content(await fs.searchFiles({ path: root, pattern: "**/*.txt" })),
    info: content(await fs.getFileInfo({ path: root + "/sub/notes.txt" })),
    allowed: content(await fs.listAllowedDirectories()),
  };
}
`;

/** Each line is one mistake; the test checks the compiler's error on exactly that line. */
const MISTAKES = `${imports("declare const client: Client;")}
const tools = createTools(client);
const prompts = createPrompts(client);
const fs = createFsTools(client);
export const mistakes = [
  tools.getSum({ a: 1, bb: 2 }),
  tools.getSum({ a: 1, b: "2" }),
  tools.getSum({ a: 1 }),
  prompts.argsPrompt({ state: "NY" }),
  prompts.argsPrompt({ city: 7 }),
  fs.readTextFile({ pathh: "/tmp/x" }),
  tools.getStructuredContent({ location: "Paris" }),
];
`;

type Call = (args?: unknown) => Promise<{ isError: boolean }>;
/** The part of the generated everything.ts these tests use, as vitest imports it (untyped). */
interface EverythingModule {
  createTools(client: unknown): { getSum: Call; getStructuredContent: Call };
  createPrompts(client: unknown): { argsPrompt: Call };
  ValidationError: abstract new (...args: never[]) => Error;
}

let generated: { everything: CliResult; filesystem: CliResult };

beforeAll(async () => {
  mkdirSync(join(root, "data"), { recursive: true });
  writeFileSync(join(root, "pixel.png"), Buffer.from(PNG, "base64"));
  const [e, f] = await Promise.all([
    cli([
      "tools",
      "--stdio",
      nodeCommandLine(everything, "stdio"),
      "--out",
      file("everything.ts"),
      "--save",
      file("everything.json"),
    ]),
    cli([
      "tools",
      "--stdio",
      nodeCommandLine(filesystem, root),
      "--out",
      file("filesystem.ts"),
      "--save",
      file("filesystem.json"),
    ]),
  ]);
  generated = { everything: e, filesystem: f };
  writeFileSync(file("calls.ts"), CALLS);
  writeFileSync(file("mistakes.ts"), MISTAKES);
});

function spawn(entry: string, ...args: string[]): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...args],
    // No secrets of ours for get-env; the gzip tool only ever gets data: URIs.
    env: { PATH: process.env.PATH ?? "", GZIP_ALLOWED_DOMAINS: "example.invalid" },
    stderr: "pipe",
    shutdownGraceMs: 300,
  });
}

async function connected(transport: StdioClientTransport): Promise<Client> {
  const client = createClient({ transport, clientInfo: { name: "mcp-gen-tools-test", version: "1" } });
  await client.connect();
  return client;
}

describe("mcp-gen tools against published servers", () => {
  it("generates a module for each, speaking the newest revision each server accepts", () => {
    for (const [name, result] of Object.entries(generated)) {
      expect(result.status, `${name}: ${result.stderr}`).toBe(0);
      expect(result.stderr).toMatch(/wrote .*: \d+ tools, \d+ prompts \(protocol 2025-11-25\)/);
    }
    const listing = JSON.parse(readFileSync(file("everything.json"), "utf8")) as { protocolVersion: string };
    expect(listing.protocolVersion).toBe("2025-11-25");
  });

  it("compiles the modules and the typed calls under the strictest options", () => {
    const files = ["everything.ts", "filesystem.ts", "calls.ts"].map(file);
    expect(compile(files)).toEqual([]);
  });

  it("fails to compile a misspelt, a mistyped or a missing argument, each with its own error", () => {
    const diagnostics = compile([file("mistakes.ts")]);
    const first = MISTAKES.split("\n").findIndex((l) => l.includes("getSum({ a: 1, bb")) + 1;
    const at = (offset: number) => diagnostics.filter((d) => d.startsWith(`mistakes.ts:${first + offset}:`)).join(" ");
    expect(at(0)).toMatch(/'bb' does not exist in type 'GetSumInput'/);
    expect(at(1)).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(at(2)).toMatch(/Property 'b' is missing .* required in type 'GetSumInput'/);
    expect(at(3)).toMatch(/Property 'city' is missing .* required in type 'ArgsPromptArguments'/);
    expect(at(4)).toMatch(/Type 'number' is not assignable to type 'string'/);
    expect(at(5)).toMatch(/'pathh' does not exist in type 'ReadTextFileInput'/);
    expect(at(6)).toMatch(/"Paris"' is not assignable to type '"New York" \| "Chicago" \| "Los Angeles"'/);
    expect(diagnostics).toHaveLength(7);
  });

  it("calls every tool of server-everything that runs offline through the wrappers, with typed results", async () => {
    const { callEverything } = (await import(/* @vite-ignore */ file("calls.ts"))) as {
      callEverything: (client: Client) => Promise<Record<string, unknown>>;
    };
    const transport = spawn(everything, "stdio");
    const client = await connected(transport);
    try {
      const results = await callEverything(client);
      expect(results).toMatchObject({
        echo: "Echo: typed",
        sum: expect.stringContaining("42"),
        annotated: 1,
        env: false,
        temperature: "number",
        conditions: expect.any(String),
        image: "image/png",
        links: 3,
        reference: expect.arrayContaining(["resource"]),
        gzip: "resource_link",
        logging: [expect.stringMatching(/^Started/), expect.stringMatching(/^Stopped/)],
        updates: [expect.stringMatching(/^Started/), expect.stringMatching(/^Stopped/)],
        longRunning: expect.stringContaining("completed"),
        // Task-only: the server refuses a plain call with a tool error, which the wrapper returns.
        research: expect.stringMatching(/^tool error: .*task/),
        prompt: "user",
        simplePrompt: 1,
      });
    } finally {
      await client.close();
    }
  });

  it("calls every tool of server-filesystem through the wrappers; each structured result is checked", async () => {
    const { callFilesystem } = (await import(/* @vite-ignore */ file("calls.ts"))) as {
      callFilesystem: (client: Client, root: string) => Promise<Record<string, unknown>>;
    };
    const client = await connected(spawn(filesystem, root));
    try {
      const results = await callFilesystem(client, root);
      expect(results).toMatchObject({
        written: expect.stringContaining("Successfully wrote"),
        read: "one\ntwo",
        legacyRead: "three",
        media: ["image"],
        multiple: expect.stringContaining("notes.txt"),
        edit: expect.stringContaining("+2"),
        mkdir: expect.stringContaining("Successfully created"),
        list: expect.stringContaining("[FILE] pixel.png"),
        sizes: expect.stringContaining("pixel.png"),
        tree: expect.stringContaining("notes.txt"),
        move: expect.stringContaining("Successfully moved"),
        search: expect.stringContaining("notes.txt"),
        info: expect.stringContaining("size"),
        allowed: expect.stringContaining(root),
      });
    } finally {
      await client.close();
    }
  });

  it("refuses the same mistakes made through a cast at run time, before anything is sent", async () => {
    const module = (await import(/* @vite-ignore */ file("everything.ts"))) as EverythingModule;
    const sent: unknown[] = [];
    const transport = spawn(everything, "stdio");
    const client = await connected(transport);
    const spy = {
      callTool: (params: Parameters<Client["callTool"]>[0]) => (sent.push(params), client.callTool(params)),
      getPrompt: (params: Parameters<Client["getPrompt"]>[0]) => (sent.push(params), client.getPrompt(params)),
    };
    try {
      const tools = module.createTools(spy);
      const prompts = module.createPrompts(spy);
      const refused = async (call: Promise<unknown>, message: RegExp) => {
        const error = await call.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(module.ValidationError);
        expect((error as Error).message).toMatch(message);
      };
      // The first issue only (as ajv by default): the missing "b" comes before the unknown "bb".
      await refused(
        tools.getSum({ a: 1, bb: 2 } as never),
        /arguments of tool "get-sum": \/b: missing required property "b"/,
      );
      await refused(tools.getSum({ a: 1, b: "2" } as never), /\/b: expected number, got string$/);
      await refused(tools.getSum({ a: 1 } as never), /missing required property "b"/);
      await refused(prompts.argsPrompt({ state: "NY" } as never), /arguments of prompt "args-prompt": .*"city"/);
      await refused(tools.getStructuredContent({ location: "Paris" } as never), /\/location/);
      expect(sent).toEqual([]);
      // Right arguments go through, once each.
      await tools.getSum({ a: 1, b: 2 });
      expect(sent).toEqual([{ name: "get-sum", arguments: { a: 1, b: 2 } }]);
    } finally {
      await client.close();
    }
  });

  it("refuses a structured result that does not match the tool's output schema", async () => {
    const module = (await import(/* @vite-ignore */ file("everything.ts"))) as EverythingModule;
    const lying = {
      callTool: async () => ({
        content: [],
        structuredContent: { temperature: "warm", conditions: "sunny", humidity: 1 },
      }),
      getPrompt: async () => ({ messages: [] }),
    };
    const error = await module
      .createTools(lying)
      .getStructuredContent({ location: "Chicago" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as Error).message).toMatch(
      /structuredContent of tool "get-structured-content": \/temperature: expected number/,
    );
    // A tool error carries no structured result, and is returned, not thrown.
    const failing = { ...lying, callTool: async () => ({ content: [], isError: true }) };
    const result = await module.createTools(failing).getStructuredContent({ location: "Chicago" });
    expect(result.isError).toBe(true);
  });

  it("gives the same bytes from the saved listing, and on every run", async () => {
    const again = file("everything-again.ts");
    const log: string[] = [];
    const options = { from: file("everything.json"), out: again, format: "md" as const, timeoutMs: 5000 };
    expect(
      await toolsCommand(
        options,
        (l) => log.push(l),
        () => {},
      ),
    ).toBe(0);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(file("everything.ts"), "utf8"));
    const live = await cli(["tools", "--stdio", nodeCommandLine(everything, "stdio"), "--out", again]);
    expect(live.status).toBe(0);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(file("everything.ts"), "utf8"));
    const check = await cli(["tools", "--stdio", nodeCommandLine(filesystem, root), "--check", file("filesystem.ts")]);
    expect(check.status).toBe(0);
  });
});

describe("mcp-gen tools over Streamable HTTP", () => {
  it("negotiates down to the revision the server speaks and lists every page", async () => {
    const pages: ListToolsResult[] = [
      {
        tools: [{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } } } }],
        nextCursor: "2",
      },
      { tools: [{ name: "sub", inputSchema: { type: "object" } }] },
    ];
    const http = await serveStreamableHttp({
      onSession: (session) =>
        createServer0618({
          serverInfo: { name: "http-example", version: "1.0.0" },
          handlers: {
            listTools: (params) => pages[params.cursor === "2" ? 1 : 0] as ListToolsResult,
            callTool: () => ({ content: [] }),
          },
        }).connect(session),
    });
    try {
      const log: string[] = [];
      const out = file("http.ts");
      const options = { url: http.url, out, format: "md" as const, timeoutMs: 5000 };
      expect(
        await toolsCommand(
          options,
          (l) => log.push(l),
          () => {},
        ),
      ).toBe(0);
      expect(log.at(-1)).toMatch(/^wrote .*http\.ts: 2 tools, 0 prompts \(protocol 2025-06-18\)/);
      expect(readFileSync(out, "utf8")).toMatch(/^\s+add\(args\?: AddInput/m);
    } finally {
      await http.close();
    }
  });

  it("sends --header on every request, and refuses a malformed one or one without --url", async () => {
    const handler = createStreamableHttpHandler({
      onSession: (session) =>
        createServer0618({
          serverInfo: { name: "http-auth", version: "1.0.0" },
          handlers: { listTools: () => ({ tools: [{ name: "whoami", inputSchema: { type: "object" } }] }) },
        }).connect(session),
    });
    const seen: (string | undefined)[] = [];
    const http = createHttpServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== "Bearer s3cret") return void res.writeHead(401).end();
      void handler.handle(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const out = file("auth.ts");
      const run = (headers: string[]) =>
        toolsCommand(
          { url, headers, out, format: "md", timeoutMs: 5000 },
          () => {},
          () => {},
        );
      expect(await run(["Authorization: Bearer s3cret", "X-Trace: 1"])).toBe(0);
      expect(readFileSync(out, "utf8")).toContain("whoami(");
      expect(seen.length).toBeGreaterThan(1);
      expect(new Set(seen)).toEqual(new Set(["Bearer s3cret"]));
      await expect(run(["Authorization Bearer"])).rejects.toThrow('--header: expected "Name: value"');
      await expect(run(["X: a\r\nHost: evil"])).rejects.toThrow("--header");
      await expect(
        toolsCommand(
          { from: out, headers: ["A: b"], out, format: "md", timeoutMs: 5000 },
          () => {},
          () => {},
        ),
      ).rejects.toThrow("--header needs --url");
    } finally {
      await handler.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
