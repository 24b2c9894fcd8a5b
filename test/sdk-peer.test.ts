// Cross-check of the 2025-11-25 method map against a peer: the official TypeScript SDK
// (@modelcontextprotocol/sdk, which implements 2025-11-25). Its request and notification
// unions give membership and direction; the result schema each of its `request()` calls
// passes gives the request → result pairing.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as sdk from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { Direction } from "../generators/model/model.js";
import { checkedInModel } from "./support/spec.js";

const model = checkedInModel("2025-11-25");
/** The SDK's ES module build (the CommonJS build mangles the calls this test reads). */
const sdkDir = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/types.js")).replace(
    /[\\/]dist[\\/]cjs$/,
    "",
  ),
  "dist",
  "esm",
);

interface ZodUnion {
  options: { shape: { method: { value: string } } }[];
}
const unionMethods = (schema: unknown) => (schema as ZodUnion).options.map((o) => o.shape.method.value).sort();

function ours(kind: "request" | "notification", direction: Direction): string[] {
  return model.methods
    .filter((m) => m.kind === kind && m.direction === direction)
    .map((m) => m.method)
    .sort();
}

/**
 * method → result schema name, from `this.request({ method: '…', … }, XResultSchema, …)` calls in
 * the SDK's compiled sources. A call that passes a variable resolves through its default value.
 */
function sdkResultSchemas(file: string): Map<string, Set<string>> {
  const source = readFileSync(join(sdkDir, file), "utf8");
  const pairs = new Map<string, Set<string>>();
  const call = /\.request(?:Stream)?\(\s*\{\s*method:\s*'([^']+)'[\s\S]*?\}\s*,\s*(\w+)\s*[,)]/g;
  for (const match of source.matchAll(call)) {
    const [, method, argument] = match as unknown as [string, string, string];
    let schema = argument;
    if (!/^[A-Z]\w*Schema$/.test(schema)) {
      const before = source.slice(Math.max(0, (match.index ?? 0) - 600), match.index);
      schema =
        new RegExp(`\\b${argument}\\s*=\\s*(\\w+Schema)\\b`).exec(before)?.[1] ?? `<caller-provided ${argument}>`;
    }
    if (!pairs.has(method)) pairs.set(method, new Set());
    pairs.get(method)?.add(schema);
  }
  return pairs;
}

/** Where the SDK's result schema names differ from the schema's type names, and why. */
const SDK_NAMING: Record<string, string> = {
  // The SDK validates tool-enabled sampling with a stricter variant of the same result type.
  CreateMessageResultWithToolsSchema: "CreateMessageResult",
};
/** Requests whose result schema the SDK leaves to its caller. */
const CALLER_PROVIDED: Record<string, string> = {
  // tasks/result returns the payload of whatever request created the task.
  "tasks/result": "GetTaskPayloadResult",
};

function sdkResultTypes(method: string, schemas: Set<string>): string[] {
  const names = [...schemas].map((s) =>
    s.startsWith("<caller-provided") ? (CALLER_PROVIDED[method] ?? s) : (SDK_NAMING[s] ?? s.replace(/Schema$/, "")),
  );
  return [...new Set(names)];
}

describe("2025-11-25 method map against @modelcontextprotocol/sdk", () => {
  it("uses the SDK built for 2025-11-25", () => {
    expect(sdk.LATEST_PROTOCOL_VERSION).toBe("2025-11-25");
  });

  it.each([
    ["ClientRequestSchema", "request", "clientToServer"],
    ["ServerRequestSchema", "request", "serverToClient"],
    ["ClientNotificationSchema", "notification", "clientToServer"],
    ["ServerNotificationSchema", "notification", "serverToClient"],
  ] as const)("has the members of the SDK's %s", (name, kind, direction) => {
    expect(ours(kind, direction)).toEqual(unionMethods(sdk[name]));
  });

  it.each([
    ["client/index.js", "clientToServer"],
    ["server/index.js", "serverToClient"],
  ] as const)("pairs every request with the result type the SDK's %s expects", (file, direction) => {
    // Task methods are sent from the shared protocol layer, in both directions.
    const sdkPairs = new Map([...sdkResultSchemas(file), ...sdkResultSchemas("shared/protocol.js")]);
    const requests = model.methods.filter((m) => m.kind === "request" && m.direction === direction);
    expect(requests.length).toBeGreaterThan(5);
    for (const m of requests) {
      const schemas = sdkPairs.get(m.method);
      expect(schemas, `the SDK sends no ${m.method} request`).toBeDefined();
      const expected = sdkResultTypes(m.method, schemas as Set<string>);
      expect(m.result?.kind === "ref" ? [m.result.name] : m.result, m.method).toEqual(expected);
    }
  });
});
