// Where `mcp-gen tools` modules import the runtime from (`--runtime`): @mcp-gen/runtime's
// subpaths by default, another package's, or the files of a folder of runtime sources. A module
// written next to a vendored tree imports that tree's runtime, and compiles and runs against it
// with nothing installed; its checks give what the same module importing @mcp-gen/runtime gives.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../generators/errors.js";
import { runtimeSpecifiers } from "../generators/tools/runtime.js";
import { cli, FIXTURES, workDir } from "./fixtures/tools/harness.js";
import { compile } from "./support/compile.js";

const work = workDir("tools-runtime");
afterAll(() => work.remove());
const file = (name: string) => join(work.dir, name);

interface WeatherModule {
  createTools(client: { callTool(params: object): Promise<object> }): {
    getWeather(args: unknown): Promise<{ isError: boolean; structuredContent?: unknown }>;
  };
  ValidationError: new (...args: never[]) => Error;
}

describe("--runtime", () => {
  it("names a package's subpaths, or a folder's files", () => {
    expect(runtimeSpecifiers("@mcp-gen/runtime")).toEqual({
      tools: "@mcp-gen/runtime/tools",
      validation: "@mcp-gen/runtime/validation",
    });
    expect(runtimeSpecifiers("@acme/mcp-runtime/")).toEqual({
      tools: "@acme/mcp-runtime/tools",
      validation: "@acme/mcp-runtime/validation",
    });
    expect(runtimeSpecifiers("./mcp/runtime/")).toEqual({
      tools: "./mcp/runtime/tools.js",
      validation: "./mcp/runtime/validation/index.js",
    });
    expect(runtimeSpecifiers("../vendor/runtime").tools).toBe("../vendor/runtime/tools.js");
    expect(runtimeSpecifiers("/opt/runtime").validation).toBe("/opt/runtime/validation/index.js");
    expect(() => runtimeSpecifiers(" ")).toThrow(InputError);
  });

  it("is a usage error without --out", async () => {
    const check = await cli([
      "tools",
      "--from",
      join(FIXTURES, "weather.json"),
      "--check",
      file("none.ts"),
      "--runtime",
      "./mcp/runtime",
    ]);
    expect(check.status).toBe(2);
    expect(check.stderr).toContain("--runtime needs --out");
  });
});

describe("a module next to a vendored tree", () => {
  beforeAll(async () => {
    const vendored = await cli(["--rev", "2025-11-25", "--out", file("src/mcp")]);
    expect(vendored.status, vendored.stderr).toBe(0);
    for (const [out, runtime] of [
      ["src/weather.ts", ["--runtime", "./mcp/runtime"]],
      ["weather-package.ts", []],
    ] as const) {
      const written = await cli(["tools", "--from", join(FIXTURES, "weather.json"), "--out", file(out), ...runtime]);
      expect(written.status, written.stderr).toBe(0);
    }
    writeFileSync(
      file("src/calls.ts"),
      [
        'import { createClient } from "./mcp/index.js";',
        'import { createInMemoryTransportPair } from "./mcp/runtime/index.js";',
        'import { createTools, ValidationError } from "./weather.js";',
        "",
        'const info = { name: "app", version: "1.0.0" };',
        "const tools = createTools(createClient({ transport: createInMemoryTransportPair()[0], clientInfo: info }));",
        "export async function temperature(): Promise<number | undefined> {",
        '  const result = await tools.getWeather({ city: "Oslo", units: "metric" });',
        "  return result.isError ? undefined : result.structuredContent.temperature;",
        "}",
        "export const isValidationError = (error: unknown) => error instanceof ValidationError;",
      ].join("\n"),
    );
  });

  it("imports the tree's runtime, and compiles with it under the strictest options", () => {
    expect(compile([file("src/calls.ts")])).toEqual([]);
  });

  it("checks calls as the module importing @mcp-gen/runtime does", async () => {
    const load = async (name: string) => (await import(/* @vite-ignore */ file(name))) as WeatherModule;
    for (const module of [await load("src/weather.ts"), await load("weather-package.ts")]) {
      const sent: object[] = [];
      const tools = module.createTools({
        callTool: async (params) => {
          sent.push(params);
          return { content: [], structuredContent: { conditions: "rain", temperature: "cold" } };
        },
      });
      await expect(tools.getWeather({ city: "" })).rejects.toThrow(
        'invalid arguments of tool "get_weather": /city: expected minLength 1, got string ""',
      );
      const error = await tools.getWeather({ city: "Oslo" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(module.ValidationError);
      expect((error as Error).message).toBe(
        'invalid structuredContent of tool "get_weather": /temperature: expected number, got string',
      );
      expect(sent).toEqual([{ name: "get_weather", arguments: { city: "Oslo" } }]);
    }
  });
});
