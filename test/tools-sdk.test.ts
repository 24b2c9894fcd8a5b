// `mcp-gen tools` modules with the official SDK's clients: `createTools(new Client(…))` compiles
// with SDK v1 (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client) as with
// mcp-gen's own client, no casts; each method takes the rest of its client's callTool parameters
// (v1: result schema, then options); structuredContent has exactly the tool's output type. Then
// the same wrappers call @modelcontextprotocol/server-everything through each SDK's stdio client.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, nodeCommandLine, serverEntry, workDir } from "./fixtures/tools/harness.js";
import { compile } from "./support/compile.js";

const work = workDir("tools-sdk");
afterAll(() => work.remove());
const file = (name: string) => join(work.dir, name);
const everything = serverEntry("@modelcontextprotocol/server-everything");

const header = (names: string) =>
  [
    'import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";',
    'import { Client as ClientV2 } from "@modelcontextprotocol/client";',
    `import { createClient } from ${JSON.stringify(resolve("generated", "2025-11-25", "index.js"))};`,
    `import { createInMemoryTransportPair } from ${JSON.stringify(resolve("runtime", "index.js"))};`,
    `import { ${names} } from "./everything.js";`,
    "",
    'const info = { name: "app", version: "1.0.0" };',
    "const v1 = createTools(new ClientV1(info));",
    "const v2 = createTools(new ClientV2(info));",
    "const ours = createTools(createClient({ transport: createInMemoryTransportPair()[0], clientInfo: info }));",
  ].join("\n");

/** Typed calls through each client; compiled (not run: the clients are not connected). */
const CALLS = `${header("createPrompts, createTools")}
export async function calls(): Promise<number[]> {
  const temperatures: number[] = [];
  const w1 = await v1.getStructuredContent({ location: "Chicago" }, undefined, { timeout: 5000 });
  const w2 = await v2.getStructuredContent({ location: "Chicago" }, { timeout: 5000 });
  const w3 = await ours.getStructuredContent({ location: "Chicago" }, { timeoutMs: 5000 });
  for (const w of [w1, w2, w3]) if (!w.isError) temperatures.push(w.structuredContent.temperature);
  const sum = await v1.getSum({ a: 1, b: 2 });
  const kinds: string[] = [...sum.content, ...(await v2.getEnv()).content].map((c) => c.type);
  const prompts = [createPrompts(new ClientV1(info)), createPrompts(new ClientV2(info))];
  for (const p of prompts) kinds.push((await p.argsPrompt({ city: "Oslo" })).messages[0]?.role ?? "");
  return [...temperatures, kinds.length];
}
`;

/** Each line is one mistake; the test checks the compiler's error on exactly that line. */
const MISTAKES = `${header("createTools")}
export async function mistakes() {
  const w1 = await v1.getStructuredContent({ location: "Chicago" });
  const w2 = await v2.getStructuredContent({ location: "Chicago" });
  const w3 = await ours.getStructuredContent({ location: "Chicago" });
  if (!w1.isError) return w1.structuredContent.temprature;
  if (!w2.isError) return w2.structuredContent.temprature;
  if (!w3.isError) return w3.structuredContent.temprature;
  await v2.getSum({ a: 1, b: 2 }, { timeoutMs: 5000 });
  await v1.getSum({ a: 1, b: 2 }, { timeout: 5000 });
  return undefined;
}
`;

type Text = { content: { type: string; text?: string }[] };
type Call = (args?: unknown, ...rest: unknown[]) => Promise<{ isError: boolean; structuredContent?: unknown } & Text>;
/** The part of the generated everything.ts these tests use, as vitest imports it (untyped). */
interface EverythingModule {
  createTools(client: unknown): { getSum: Call; getStructuredContent: Call; echo: Call };
  createPrompts(client: unknown): { argsPrompt: (args: unknown) => Promise<{ messages: unknown[] }> };
  ValidationError: abstract new (...args: never[]) => Error;
}

beforeAll(async () => {
  const generated = await cli([
    "tools",
    "--stdio",
    nodeCommandLine(everything, "stdio"),
    "--out",
    file("everything.ts"),
  ]);
  expect(generated.status, generated.stderr).toBe(0);
  writeFileSync(file("calls.ts"), CALLS);
  writeFileSync(file("mistakes.ts"), MISTAKES);
});

describe("mcp-gen tools with the official SDK's clients", () => {
  it("createTools and createPrompts take SDK v1 and v2 clients without casts, typed as with mcp-gen's client", () => {
    expect(compile([file("everything.ts"), file("calls.ts")])).toEqual([]);
  });

  it("types structuredContent exactly and each client's own call options", () => {
    const diagnostics = compile([file("mistakes.ts")]);
    const first = MISTAKES.split("\n").findIndex((l) => l.includes("w1.structuredContent.temprature")) + 1;
    const at = (offset: number) => diagnostics.filter((d) => d.startsWith(`mistakes.ts:${first + offset}:`)).join(" ");
    for (const offset of [0, 1, 2]) {
      expect(at(offset)).toMatch(/'temprature' does not exist on type 'GetStructuredContentOutput'/);
    }
    expect(at(3)).toMatch(/'timeoutMs' does not exist in type 'CallToolRequestOptions'/);
    // SDK v1's second parameter is the result schema; its options come third.
    expect(at(4)).toMatch(/'timeout' does not exist in type/);
    expect(diagnostics, diagnostics.join("\n")).toHaveLength(5);
  });

  const clients = {
    "SDK v1": async () => {
      const client = new ClientV1({ name: "tools-sdk-test", version: "1" });
      await client.connect(new StdioV1({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
      return { client, options: [undefined, { timeout: 30_000 }], close: () => client.close() };
    },
    "SDK v2": async () => {
      const client = new ClientV2({ name: "tools-sdk-test", version: "1" });
      await client.connect(new StdioV2({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
      return { client, options: [{ timeout: 30_000 }], close: () => client.close() };
    },
  };

  for (const [name, connect] of Object.entries(clients)) {
    it(`calls server-everything through the wrappers over ${name}, options passed on, results checked`, async () => {
      const module = (await import(/* @vite-ignore */ file("everything.ts"))) as EverythingModule;
      const { client, options, close } = await connect();
      try {
        const tools = module.createTools(client);
        const sum = await tools.getSum({ a: 2, b: 40 }, ...options);
        expect(sum.isError).toBe(false);
        expect(sum.content.map((c) => c.text).join("")).toContain("42");
        const weather = await tools.getStructuredContent({ location: "Chicago" }, ...options);
        expect(weather.isError).toBe(false);
        expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) });
        // A mistake made through a cast is refused before anything is sent.
        await expect(tools.getSum({ a: 2, b: "40" })).rejects.toBeInstanceOf(module.ValidationError);
        const prompt = await module.createPrompts(client).argsPrompt({ city: "Oslo" });
        expect(prompt.messages.length).toBeGreaterThan(0);
      } finally {
        await close();
      }
    });
  }
});
