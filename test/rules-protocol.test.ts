// Protocol rules beyond sampling (spec/protocol-rules.json, docs/protocol-rules.md): each rule
// the runtime names, against a raw JSON-RPC peer that breaks it. A message received that breaks
// one gets the prescribed error (-32602 where the page names none) or, for a notification, is
// dropped and reported to onError; this side's own call that would break one fails before
// anything is sent, naming the rule; valid traffic passes untouched. The rules the validators
// hold get one case each too (a request breaking one answered -32602, an answer failing the
// call), and where the official SDK v2 server or client checks less than the page asks, it plays
// the peer that breaks the rule.
import { Client as SdkClient } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer, Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as v2025 from "../generated/2025-11-25/index.js";
import * as v2026 from "../generated/2026-07-28/index.js";
import {
  isExtensionId,
  isMediaType,
  ResultValidationError,
  RpcError,
  RuleViolation,
  type JsonObject,
  type Transport,
} from "../runtime/index.js";
import { RawPeer } from "./support/raw-peer.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const ruleOf = (answer: JsonObject) => ((answer["error"] as JsonObject | undefined)?.["data"] as JsonObject)?.["rule"];

/**
 * A generated client (made by `create` on a raw server's transport, reporting to `errors`), once
 * `open` had the raw server answer the request it opens with (returned as `first`).
 */
async function clientBehindRaw<C extends { connect(): Promise<void>; close(): Promise<void> }>(
  create: (transport: Transport, onError: (error: Error) => void) => C,
  open: (raw: RawPeer) => Promise<JsonObject>,
) {
  const { raw, transport } = await RawPeer.open();
  const errors: Error[] = [];
  const client = create(transport, (error) => errors.push(error));
  cleanups.push(() => client.close());
  const connected = client.connect();
  const first = await open(raw);
  await connected;
  return { raw, client, errors, first };
}

/** A 2025-11-25 client behind a raw server that declared `serverCapabilities`. */
async function clientBehindRawServer(serverCapabilities: JsonObject, options: Partial<v2025.ClientOptions> = {}) {
  const { raw, client, errors, first } = await clientBehindRaw(
    (transport, onError) =>
      v2025.createClient({ transport, clientInfo: { name: "c", version: "1" }, onError, ...options }),
    async (raw) => {
      const init = await raw.nextRequest("initialize");
      await raw.answer(init, {
        protocolVersion: "2025-11-25",
        capabilities: serverCapabilities,
        serverInfo: { name: "raw", version: "1" },
      });
      return init;
    },
  );
  await raw.next((m) => m["method"] === "notifications/initialized");
  return { raw, client, errors, declared: (first["params"] as JsonObject)["capabilities"] as JsonObject };
}

/** The `_meta` every 2026-07-28 request carries, with the client's capabilities for it. */
const meta2026 = (clientCapabilities: JsonObject = {}, extra: JsonObject = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
  ...extra,
});

/** A 2026-07-28 client behind a raw server that answered its discovery with `serverCapabilities`. */
async function client2026BehindRawServer(serverCapabilities: JsonObject, options: Partial<v2026.ClientOptions> = {}) {
  const { raw, client, errors, first } = await clientBehindRaw(
    (transport, onError) =>
      v2026.createClient({ transport, clientInfo: { name: "c", version: "1" }, onError, ...options }),
    async (raw) => {
      const discover = await raw.nextRequest("server/discover");
      await raw.answer(discover, {
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: serverCapabilities,
        ttlMs: 0,
        cacheScope: "private",
      });
      return discover;
    },
  );
  return { raw, client, errors, discover: first };
}

/** A 2026-07-28 server behind a raw client (each request declares its own capabilities). */
async function server2026BehindRawClient(options: Omit<v2026.ServerOptions, "serverInfo" | "onError">) {
  const { raw, transport } = await RawPeer.open();
  const errors: Error[] = [];
  const server = v2026.createServer({
    serverInfo: { name: "s", version: "1" },
    onError: (error) => errors.push(error),
    ...options,
  });
  await server.connect(transport);
  cleanups.push(() => server.close());
  return { raw, errors, server };
}

/** A 2025-11-25 server behind a raw client that declared `clientCapabilities`, after the handshake. */
async function serverBehindRawClient(clientCapabilities: JsonObject, handlers: v2025.ServerHandlers) {
  const { raw, transport } = await RawPeer.open();
  const errors: Error[] = [];
  const server = v2025.createServer({
    serverInfo: { name: "s", version: "1" },
    handlers,
    onError: (error) => errors.push(error),
  });
  await server.connect(transport);
  cleanups.push(() => server.close());
  await raw.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: clientCapabilities,
    clientInfo: { name: "raw", version: "1" },
  });
  await raw.notify("notifications/initialized");
  return { raw, errors };
}

/** Runs `call` inside a tool handler of a server behind a raw client, and returns what it gave or threw. */
async function insideTool(
  clientCapabilities: JsonObject,
  call: (context: v2025.RequestContext) => Promise<unknown>,
  answer?: (raw: RawPeer) => Promise<void>,
) {
  let outcome: unknown;
  const { raw, errors } = await serverBehindRawClient(clientCapabilities, {
    callTool: async (_params, context) => {
      outcome = await call(context).catch((error: unknown) => error);
      return { content: [] };
    },
  });
  const done = raw.request("tools/call", { name: "t", _meta: { progressToken: "p" } });
  await answer?.(raw);
  await done;
  return { raw, outcome, errors };
}

describe("lifecycle (2025-11-25)", () => {
  it("a client opens with initialize at its own version, declares what its handlers answer, then sends initialized (LIFECYCLE_INITIALIZED)", async () => {
    const { raw, transport } = await RawPeer.open();
    const client = v2025.createClient({
      transport,
      clientInfo: { name: "c", version: "1" },
      handlers: {
        listRoots: () => ({ roots: [] }),
        createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "" } }),
        elicit: () => ({ action: "decline" }),
      },
    });
    cleanups.push(() => client.close());
    const connected = client.connect();
    const first = await raw.next(() => true);
    expect(first).toMatchObject({ method: "initialize", params: { protocolVersion: v2025.REVISION } });
    const capabilities = (first["params"] as JsonObject)["capabilities"] as JsonObject;
    expect(Object.keys(capabilities).sort()).toEqual(["elicitation", "roots", "sampling"]);
    expect(raw.received).toEqual([]);
    await raw.answer(first, {
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "raw", version: "1" },
    });
    await connected;
    expect(await raw.next(() => true)).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
  });

  it("a server answers the version asked for when it speaks it, else its own (LIFECYCLE_SERVER_VERSION)", async () => {
    for (const asked of ["2025-11-25", "2024-11-05", "1999-01-01"]) {
      const { raw, transport } = await RawPeer.open();
      const server = v2025.createServer({
        serverInfo: { name: "s", version: "1" },
        handlers: { listTools: () => ({ tools: [] }) },
      });
      await server.connect(transport);
      cleanups.push(() => server.close());
      const answer = await raw.request("initialize", {
        protocolVersion: asked,
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      });
      expect(answer["result"]).toMatchObject({
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "s", version: "1" },
      });
    }
  });
});

describe("capabilities are used only as negotiated", () => {
  it("a client's call to a method the server did not declare fails before sending (CAPABILITY_NEGOTIATED)", async () => {
    const { raw, client } = await clientBehindRawServer({ tools: {} });
    const refused = await client.listPrompts().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RuleViolation);
    expect(refused).toMatchObject({ rule: "CAPABILITY_NEGOTIATED", code: -32603 });
    expect((refused as Error).message).toContain("server capability prompts");
    expect(await raw.sentNothing((m) => m["method"] === "prompts/list")).toBe(true);
    // The declared one goes out as before.
    const listed = client.listTools();
    await raw.answer(await raw.nextRequest("tools/list"), { tools: [] });
    expect(await listed).toEqual({ tools: [] });
  });

  it("a server's notification without its capability is dropped and reported (CAPABILITY_NEGOTIATED)", async () => {
    const { raw, client, errors } = await clientBehindRawServer({ tools: { listChanged: true } });
    const heard: string[] = [];
    client.on("notifications/tools/list_changed", () => void heard.push("tools"));
    client.on("notifications/prompts/list_changed", () => void heard.push("prompts"));
    await raw.notify("notifications/prompts/list_changed");
    await raw.notify("notifications/tools/list_changed");
    await raw.sentNothing(() => false);
    await expect.poll(() => heard).toEqual(["tools"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ rule: "CAPABILITY_NEGOTIATED" });
  });
});

describe("elicitation (2025-11-25)", () => {
  it("a mode the client did not declare gets -32602, and a server's own call fails locally (ELICITATION_MODE_CAPABILITY)", async () => {
    const elicited: JsonObject[] = [];
    const { raw, declared } = await clientBehindRawServer(
      {},
      {
        handlers: {
          elicit: (params) => {
            elicited.push(params as unknown as JsonObject);
            return { action: "decline" };
          },
        },
      },
    );
    expect(declared["elicitation"]).toBeDefined();
    const url = { mode: "url", message: "sign in", url: "https://example.com/a", elicitationId: "e1" };
    const refused = await raw.request("elicitation/create", url);
    expect(refused["error"]).toMatchObject({ code: -32602 });
    expect(ruleOf(refused)).toBe("ELICITATION_MODE_CAPABILITY");
    const form = { message: "name?", requestedSchema: { type: "object", properties: {} } };
    expect((await raw.request("elicitation/create", form))["result"]).toEqual({ action: "decline" });
    expect(elicited).toHaveLength(1);

    const { raw: client, outcome } = await insideTool({ elicitation: { form: {} } }, (context) =>
      context.elicit(url as unknown as v2025.ElicitRequestParams),
    );
    expect(outcome).toBeInstanceOf(RuleViolation);
    expect(outcome).toMatchObject({ rule: "ELICITATION_MODE_CAPABILITY", code: -32603 });
    expect(await client.sentNothing((m) => m["method"] === "elicitation/create")).toBe(true);
  });

  it("a completion for an unknown or already completed elicitation is ignored (ELICITATION_COMPLETE_KNOWN)", async () => {
    const { raw, client, errors } = await clientBehindRawServer(
      {},
      {
        capabilities: { elicitation: { url: {} } },
        handlers: { elicit: () => ({ action: "accept" }) },
      },
    );
    const completed: unknown[] = [];
    client.on("notifications/elicitation/complete", (params) => void completed.push(params.elicitationId));
    const url = { mode: "url", message: "sign in", url: "https://example.com/a", elicitationId: "e1" };
    expect((await raw.request("elicitation/create", url))["result"]).toEqual({ action: "accept" });
    await raw.notify("notifications/elicitation/complete", { elicitationId: "unknown" });
    await raw.notify("notifications/elicitation/complete", { elicitationId: "e1" });
    await raw.notify("notifications/elicitation/complete", { elicitationId: "e1" });
    await raw.sentNothing(() => false);
    await expect.poll(() => completed).toEqual(["e1"]);
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual([
      "ELICITATION_COMPLETE_KNOWN",
      "ELICITATION_COMPLETE_KNOWN",
    ]);
  });

  it("a required-elicitation error must list URL elicitations with their ids (ELICITATION_REQUIRED_ERROR)", async () => {
    const required = (data: JsonObject) => {
      throw new RpcError(v2025.URL_ELICITATION_REQUIRED, "sign in first", data);
    };
    const url = { mode: "url", message: "sign in", url: "https://example.com/a", elicitationId: "e1" };
    const { raw, errors } = await serverBehindRawClient(
      {},
      {
        callTool: (params) => required(params.name === "good" ? { elicitations: [url] } : { elicitations: [] }),
      },
    );
    const good = await raw.request("tools/call", { name: "good" });
    expect(good["error"]).toMatchObject({ code: v2025.URL_ELICITATION_REQUIRED, data: { elicitations: [url] } });
    const bad = await raw.request("tools/call", { name: "bad" });
    expect(bad["error"]).toMatchObject({ code: -32603 });
    expect(ruleOf(bad)).toBe("ELICITATION_REQUIRED_ERROR");
    expect(errors).toHaveLength(1);
  });
});

describe("roots", () => {
  it("roots that are not file URIs are refused both ways (ROOTS_FILE_URI)", async () => {
    let roots = [{ uri: "https://example.com/repo" }];
    const { raw } = await clientBehindRawServer({}, { handlers: { listRoots: () => ({ roots }) } });
    const refused = await raw.request("roots/list");
    expect(ruleOf(refused)).toBe("ROOTS_FILE_URI");
    roots = [{ uri: "file:///home/user/repo" }];
    expect((await raw.request("roots/list"))["result"]).toEqual({ roots });

    const { outcome } = await insideTool(
      { roots: {} },
      (context) => context.listRoots(),
      async (client) => {
        await client.answer(await client.nextRequest("roots/list"), { roots: [{ uri: "http://x/y" }] });
      },
    );
    expect(outcome).toBeInstanceOf(RuleViolation);
    expect(outcome).toMatchObject({ rule: "ROOTS_FILE_URI" });
  });
});

describe("prompts", () => {
  const image = (mimeType: string) => ({ type: "image", data: "aGk=", mimeType });
  const audio = (mimeType: string) => ({ type: "audio", data: "aGk=", mimeType });
  const prompt = (...content: JsonObject[]) => ({ messages: content.map((c) => ({ role: "user", content: c })) });

  it("accepts MIME types by the RFC 6838 grammar, with RFC 9110 parameters (an empty one too), and nothing else", () => {
    for (const good of [
      "image/png",
      "image/svg+xml",
      "audio/wav",
      "application/vnd.api+json",
      "text/plain; charset=utf-8",
      'text/plain;charset="a b"',
      "image/png ;q=1",
      "image/png;",
    ])
      expect(isMediaType(good), good).toBe(true);
    for (const bad of [
      "",
      "png",
      "image/",
      "/png",
      "image/png/x",
      "image png",
      "image/p(n)g",
      "image/png; charset",
      "image/png; a=b c",
      "-image/png",
      `image/${"x".repeat(128)}`,
      7,
    ])
      expect(isMediaType(bad), String(bad)).toBe(false);
  });

  it("a server does not answer a prompt whose image has a malformed MIME type; a client refuses one (PROMPTS_IMAGE_MIME)", async () => {
    let content = [image("image/png"), { type: "text", text: "hi" }, image("png")];
    const { raw, errors } = await serverBehindRawClient(
      {},
      {
        getPrompt: () => prompt(...content) as unknown as v2025.GetPromptResult,
      },
    );
    const refused = await raw.request("prompts/get", { name: "p" });
    expect(refused["error"]).toMatchObject({ code: -32603 });
    expect(ruleOf(refused)).toBe("PROMPTS_IMAGE_MIME");
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["PROMPTS_IMAGE_MIME"]);
    content = [image("image/png"), image("image/svg+xml; charset=utf-8")];
    expect((await raw.request("prompts/get", { name: "p" }))["result"]).toEqual(prompt(...content));

    const { raw: server, client } = await clientBehindRawServer({ prompts: {} });
    const bad = client.getPrompt({ name: "p" }).catch((error: unknown) => error);
    await server.answer(await server.nextRequest("prompts/get"), prompt(image("image/png"), image("image")));
    const outcome = await bad;
    expect(outcome).toBeInstanceOf(RuleViolation);
    expect(outcome).toMatchObject({ rule: "PROMPTS_IMAGE_MIME", code: -32603 });
    const good = client.getPrompt({ name: "p" });
    await server.answer(await server.nextRequest("prompts/get"), prompt(image("image/jpeg")));
    expect(await good).toEqual(prompt(image("image/jpeg")));
  });

  it("audio in a prompt has a well-formed MIME type too, at 2026-07-28 as well (PROMPTS_AUDIO_MIME)", async () => {
    const { raw: server, client } = await clientBehindRawServer({ prompts: {} });
    const bad = client.getPrompt({ name: "p" }).catch((error: unknown) => error);
    await server.answer(await server.nextRequest("prompts/get"), prompt(audio("audio wav")));
    expect(await bad).toMatchObject({ rule: "PROMPTS_AUDIO_MIME", code: -32603 });

    let mimeType = "wav";
    const { raw, errors } = await server2026BehindRawClient({
      handlers: { getPrompt: () => prompt(audio(mimeType)) as unknown as v2026.GetPromptResult },
    });
    const meta = meta2026();
    const refused = await raw.request("prompts/get", { name: "p", _meta: meta });
    expect(ruleOf(refused)).toBe("PROMPTS_AUDIO_MIME");
    mimeType = "audio/wav";
    expect((await raw.request("prompts/get", { name: "p", _meta: meta }))["result"]).toMatchObject(
      prompt(audio("audio/wav")),
    );
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["PROMPTS_AUDIO_MIME"]);
  });
});

describe("against the official SDK v2 (@modelcontextprotocol/server 2.4.0) as the server", () => {
  it("a prompt the SDK serves with a malformed image MIME type fails the client's call; a valid one passes (PROMPTS_IMAGE_MIME)", async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const mcp = new McpServer({ name: "sdk-v2", version: "2.4.0" });
    const image = (mimeType: string) => ({ type: "image" as const, data: "aGk=", mimeType });
    mcp.registerPrompt("bad", { title: "bad" }, () => ({
      messages: [{ role: "user" as const, content: image("png") }],
    }));
    mcp.registerPrompt("good", { title: "good" }, () => ({
      messages: [{ role: "user" as const, content: image("image/png") }],
    }));
    await mcp.connect(serverSide);
    const client = v2025.createClient({ transport: clientSide, clientInfo: { name: "c", version: "1" } });
    cleanups.push(
      () => client.close(),
      () => mcp.close(),
    );
    await client.connect();
    const refused = await client.getPrompt({ name: "bad" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RuleViolation);
    expect(refused).toMatchObject({ rule: "PROMPTS_IMAGE_MIME", code: -32603 });
    expect(await client.getPrompt({ name: "good" })).toMatchObject({
      messages: [{ role: "user", content: image("image/png") }],
    });
  });
});

describe("against the official SDK v2 (@modelcontextprotocol/server 2.4.0), whose low-level calls check only top-level capabilities", () => {
  /**
   * The SDK v2's low-level Server declaring exactly `capabilities` (its McpServer adds listChanged),
   * connected to a generated 2025-11-25 client.
   */
  async function sdkServerAndClient(capabilities: JsonObject, options: Partial<v2025.ClientOptions> = {}) {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const sdk = new Server({ name: "sdk-v2", version: "2.4.0" }, { capabilities });
    await sdk.connect(serverSide);
    const errors: Error[] = [];
    const client = v2025.createClient({
      transport: clientSide,
      clientInfo: { name: "c", version: "1" },
      onError: (error) => errors.push(error),
      ...options,
    });
    cleanups.push(
      () => client.close(),
      () => sdk.close(),
    );
    await client.connect();
    return { sdk, client, errors };
  }

  it("the SDK's URL-mode elicitation to a client that declared form mode only gets -32602 (ELICITATION_MODE_CAPABILITY)", async () => {
    const elicited: unknown[] = [];
    const { sdk } = await sdkServerAndClient(
      {},
      { handlers: { elicit: (params) => (elicited.push(params), { action: "decline" }) } },
    );
    const url = { mode: "url", message: "sign in", url: "https://example.com/a", elicitationId: "e1" };
    const refused = await sdk.request({ method: "elicitation/create", params: url } as never).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32602, data: { rule: "ELICITATION_MODE_CAPABILITY" } });
    expect(elicited).toEqual([]);
    const form = { message: "name?", requestedSchema: { type: "object", properties: {} } };
    expect(await sdk.request({ method: "elicitation/create", params: form } as never)).toEqual({ action: "decline" });
  });

  it("the SDK's notifications that need a sub-capability it did not declare are dropped and reported; declared ones pass (CAPABILITY_NEGOTIATED)", async () => {
    // The SDK checks `prompts`, `resources` and `tools` only; listChanged and subscribe are what gate these.
    const { sdk, client, errors } = await sdkServerAndClient({
      prompts: {},
      resources: {},
      tools: { listChanged: true },
    });
    const heard: string[] = [];
    for (const method of [
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
      "notifications/resources/updated",
      "notifications/tools/list_changed",
    ] as const)
      client.on(method, () => void heard.push(method));
    await sdk.notification({ method: "notifications/prompts/list_changed" } as never);
    await sdk.notification({ method: "notifications/resources/list_changed" } as never);
    await sdk.notification({ method: "notifications/resources/updated", params: { uri: "file:///a" } } as never);
    await sdk.notification({ method: "notifications/tools/list_changed" } as never);
    await client.ping();
    expect(heard).toEqual(["notifications/tools/list_changed"]);
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual([
      "CAPABILITY_NEGOTIATED",
      "CAPABILITY_NEGOTIATED",
      "CAPABILITY_NEGOTIATED",
    ]);
  });
});

describe("against the official SDK v2 client (@modelcontextprotocol/client 2.4.0)", () => {
  it("roots the SDK client lists with other URIs than file ones fail the server's listRoots; file ones pass (ROOTS_FILE_URI)", async () => {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const outcomes: unknown[] = [];
    const server = v2025.createServer({
      serverInfo: { name: "s", version: "1" },
      handlers: {
        callTool: async (_params, context) => {
          outcomes.push(await context.listRoots().catch((error: unknown) => error));
          return { content: [] };
        },
      },
    });
    await server.connect(serverSide);
    let roots = [{ uri: "https://example.com/repo" }, { uri: "file:///home/user/repo" }];
    const sdk = new SdkClient(
      { name: "sdk-v2", version: "2.4.0" },
      { capabilities: { roots: {} }, versionNegotiation: { mode: "legacy" } },
    );
    sdk.setRequestHandler("roots/list", async () => ({ roots }));
    cleanups.push(
      () => sdk.close(),
      () => server.close(),
    );
    await sdk.connect(clientSide);
    await sdk.callTool({ name: "t", arguments: {} });
    roots = [{ uri: "file:///home/user/repo" }];
    await sdk.callTool({ name: "t", arguments: {} });
    expect(outcomes[0]).toBeInstanceOf(RuleViolation);
    expect(outcomes[0]).toMatchObject({ rule: "ROOTS_FILE_URI" });
    expect(outcomes[1]).toEqual({ roots });
  });
});

describe("progress", () => {
  it("progress that does not increase is not sent, and ignored when received (PROGRESS_INCREASES)", async () => {
    const { raw, outcome } = await insideTool({}, async (context) => {
      await context.progress({ progress: 1 });
      return context.progress({ progress: 1 }).catch((error: unknown) => error);
    });
    expect(outcome).toBeInstanceOf(RuleViolation);
    expect(outcome).toMatchObject({ rule: "PROGRESS_INCREASES" });
    // The first went out; the second did not.
    expect(raw.received.filter((m) => m["method"] === "notifications/progress")).toHaveLength(1);

    const { raw: server, client, errors } = await clientBehindRawServer({ tools: {} });
    const seen: unknown[] = [];
    const call = client.callTool({ name: "t" }, { onProgress: (p) => void seen.push(p.progress) });
    const request = await server.nextRequest("tools/call");
    const token = ((request["params"] as JsonObject)["_meta"] as JsonObject)["progressToken"];
    for (const progress of [1, 3, 2, 4])
      await server.notify("notifications/progress", { progressToken: token, progress });
    await server.answer(request, { content: [] });
    await call;
    expect(seen).toEqual([1, 3, 4]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ rule: "PROGRESS_INCREASES" });
  });

  it("progress after the answer is not sent (PROGRESS_ACTIVE)", async () => {
    let late: v2025.RequestContext["progress"] | undefined;
    const { raw } = await serverBehindRawClient(
      {},
      {
        callTool: (_params, context) => {
          late = context.progress;
          return { content: [] };
        },
      },
    );
    await raw.request("tools/call", { name: "t", _meta: { progressToken: "p" } });
    const refused = await late?.({ progress: 1 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RuleViolation);
    expect(refused).toMatchObject({ rule: "PROGRESS_ACTIVE" });
    expect(await raw.sentNothing((m) => m["method"] === "notifications/progress")).toBe(true);
  });

  it("a progress token already used by an active request gets -32602 (PROGRESS_TOKEN_UNIQUE)", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { raw } = await serverBehindRawClient(
      {},
      {
        callTool: async () => {
          await held;
          return { content: [] };
        },
      },
    );
    const first = raw.request("tools/call", { name: "t", _meta: { progressToken: "same" } });
    const second = await raw.request("tools/call", { name: "t", _meta: { progressToken: "same" } });
    expect(second["error"]).toMatchObject({ code: -32602 });
    expect(ruleOf(second)).toBe("PROGRESS_TOKEN_UNIQUE");
    release();
    expect((await first)["result"]).toEqual({ content: [] });
    // Once the first is answered, its token is free again.
    expect((await raw.request("tools/call", { name: "t", _meta: { progressToken: "same" } }))["result"]).toEqual({
      content: [],
    });
  });
});

describe("progress of tasks (2025-11-25)", () => {
  const task = (status: string) => ({
    taskId: "t1",
    status,
    createdAt: "2025-11-25T00:00:00Z",
    lastUpdatedAt: "2025-11-25T00:00:00Z",
    ttl: 60_000,
  });

  it("a server's task keeps its token until its terminal status; progress after that is not sent (PROGRESS_TASK_TOKEN)", async () => {
    let progress: v2025.RequestContext["progress"] | undefined;
    const { raw, transport } = await RawPeer.open();
    const server = v2025.createServer({
      serverInfo: { name: "s", version: "1" },
      capabilities: { tasks: { requests: { tools: { call: {} } } } } as v2025.ServerCapabilities,
      handlers: {
        callTool: (_params, context) => {
          progress = context.progress;
          return { task: task("working") } as unknown as v2025.CallToolResult;
        },
        getTask: () => task("completed") as unknown as v2025.GetTaskResult,
      },
    });
    await server.connect(transport);
    cleanups.push(() => server.close());
    await raw.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    await raw.notify("notifications/initialized");
    const created = await raw.request("tools/call", {
      name: "t",
      task: { ttl: 60_000 },
      _meta: { progressToken: "p" },
    });
    expect(created["result"]).toMatchObject({ task: { taskId: "t1" } });
    // While the task runs, its progress goes out and its token is still taken.
    await progress?.({ progress: 1 });
    expect(await raw.next((m) => m["method"] === "notifications/progress")).toMatchObject({
      params: { progressToken: "p", progress: 1 },
    });
    const taken = await raw.request("tools/call", { name: "t", _meta: { progressToken: "p" } });
    expect(ruleOf(taken)).toBe("PROGRESS_TOKEN_UNIQUE");
    expect((await raw.request("tasks/get", { taskId: "t1" }))["result"]).toMatchObject({ status: "completed" });
    const late = await progress?.({ progress: 2 }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(RuleViolation);
    expect(late).toMatchObject({ rule: "PROGRESS_TASK_TOKEN" });
    expect(await raw.sentNothing((m) => m["method"] === "notifications/progress")).toBe(true);
    // The task over, its token is free again (for a task request: a task is no answer to any other).
    const again = await raw.request("tools/call", { name: "t", task: { ttl: 60_000 }, _meta: { progressToken: "p" } });
    expect(again["result"]).toMatchObject({ task: { taskId: "t1" } });
  });

  it("a client routes a task's progress until its terminal status, and drops and reports later progress (PROGRESS_TASK_TOKEN)", async () => {
    const { raw, client, errors } = await clientBehindRawServer({
      tools: {},
      tasks: { requests: { tools: { call: {} } } },
    });
    const seen: unknown[] = [];
    const call = client.callTool({ name: "t", task: { ttl: 60_000 } } as v2025.CallToolRequestParams, {
      onProgress: (p) => void seen.push(p.progress),
    });
    const request = await raw.nextRequest("tools/call");
    const token = ((request["params"] as JsonObject)["_meta"] as JsonObject)["progressToken"];
    await raw.answer(request, { task: task("working") });
    expect(await call).toMatchObject({ task: { taskId: "t1" } });
    await raw.notify("notifications/progress", { progressToken: token, progress: 1 });
    await raw.notify("notifications/tasks/status", task("working"));
    await raw.notify("notifications/progress", { progressToken: token, progress: 2 });
    await raw.notify("notifications/tasks/status", task("failed"));
    await raw.notify("notifications/progress", { progressToken: token, progress: 3 });
    await raw.sentNothing(() => false);
    await expect.poll(() => errors.length).toBe(1);
    expect(seen).toEqual([1, 2]);
    expect(errors[0]).toMatchObject({ rule: "PROGRESS_TASK_TOKEN" });
  });
});

describe("cancellation", () => {
  it("a cancellation of initialize is ignored and reported (CANCEL_HANDSHAKE)", async () => {
    const { raw, transport } = await RawPeer.open();
    const errors: Error[] = [];
    const server = v2025.createServer({
      serverInfo: { name: "s", version: "1" },
      handlers: {},
      onError: (error) => errors.push(error),
    });
    await server.connect(transport);
    cleanups.push(() => server.close());
    const init = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    };
    const sent = raw.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: init });
    await raw.notify("notifications/cancelled", { requestId: "init" });
    await sent;
    const answer = await raw.next((m) => m["id"] === "init");
    expect(answer["result"]).toMatchObject({ protocolVersion: "2025-11-25" });
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["CANCEL_HANDSHAKE"]);
  });
});

describe("cancellation of tasks (2025-11-25)", () => {
  it("a task-augmented call the caller gives up on sends no cancellation notification (CANCEL_TASKS)", async () => {
    const { raw, client } = await clientBehindRawServer({ tools: {}, tasks: { requests: { tools: { call: {} } } } });
    const isCancel = (m: JsonObject) => m["method"] === "notifications/cancelled";
    for (const task of [{ ttl: 60_000 }, undefined]) {
      const controller = new AbortController();
      const params = task ? { name: "t", task } : { name: "t" };
      const call = client.callTool(params as v2025.CallToolRequestParams, { signal: controller.signal });
      await raw.nextRequest("tools/call");
      controller.abort("enough");
      await expect(call).rejects.toBeDefined();
      // A task is cancelled only through tasks/cancel; a plain request by the notification.
      if (task) expect(await raw.sentNothing(isCancel)).toBe(true);
      else expect(await raw.next(isCancel)).toMatchObject({ params: { reason: "enough" } });
    }
  });
});

describe("cancellation by a server (2026-07-28)", () => {
  const meta = meta2026();

  it("a server ending a listen stream cancels its request, then answers it (CANCEL_SERVER_LISTEN_ONLY)", async () => {
    const { raw, server } = await server2026BehindRawClient({
      capabilities: { tools: { listChanged: true } },
      handlers: { listTools: () => ({ tools: [], ttlMs: 0, cacheScope: "private" }) },
    });
    await raw.send({
      jsonrpc: "2.0",
      id: "listen",
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: meta },
    });
    await raw.next((m) => m["method"] === "notifications/subscriptions/acknowledged");
    // Nothing but the stream's end is cancelled: a plain request is answered as usual.
    expect((await raw.request("tools/list", { _meta: meta }))["result"]).toMatchObject({ tools: [] });
    expect(raw.received.some((m) => m["method"] === "notifications/cancelled")).toBe(false);
    await server.close();
    const ends = raw.received.filter((m) => m["id"] === "listen" || m["method"] === "notifications/cancelled");
    expect(ends).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "listen", reason: "the server is closing" },
      },
      expect.objectContaining({ id: "listen", result: expect.objectContaining({ resultType: "complete" }) }),
    ]);
  });

  it("a client ignores and reports a server's cancellation of anything but its listen request (CANCEL_SERVER_LISTEN_ONLY)", async () => {
    const { raw: server, client, errors } = await client2026BehindRawServer({ tools: { listChanged: true } });
    const opened = client.listen({ toolsListChanged: true });
    const listen = await server.nextRequest("subscriptions/listen");
    const tag = { "io.modelcontextprotocol/subscriptionId": listen["id"] };
    await server.notify("notifications/subscriptions/acknowledged", {
      _meta: tag,
      notifications: { toolsListChanged: true },
    });
    const subscription = await opened;
    // A cancellation of a tools/call in progress is not the server's to send: the call goes on.
    const call = client.callTool({ name: "t", arguments: {} });
    const request = await server.nextRequest("tools/call");
    await server.notify("notifications/cancelled", { requestId: request["id"], reason: "no" });
    await server.notify("notifications/cancelled", { requestId: "never-sent" });
    await server.answer(request, { resultType: "complete", content: [] });
    expect(await call).toMatchObject({ content: [] });
    // Ending the listen stream is: accepted, and the closing answer ends the subscription.
    await server.notify("notifications/cancelled", { requestId: listen["id"], reason: "closing" });
    await server.answer(listen, { resultType: "complete", _meta: tag });
    expect(await subscription.ended).toBeUndefined();
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual([
      "CANCEL_SERVER_LISTEN_ONLY",
      "CANCEL_SERVER_LISTEN_ONLY",
    ]);
  });
});

describe("input-required results (2026-07-28)", () => {
  const meta = meta2026({ roots: {} });

  it("an input-required result only on requests that may, with requests or state (INPUT_REQUIRED_METHODS, INPUT_REQUIRED_CONTENT)", async () => {
    const asking = { resultType: "input_required" };
    const { raw, errors } = await server2026BehindRawClient({
      handlers: {
        listPrompts: () => ({ ...asking, requestState: "s" }) as unknown as v2026.ListPromptsResult,
        callTool: (params) =>
          (params.name === "empty"
            ? asking
            : { ...asking, inputRequests: { r: { method: "roots/list" } } }) as unknown as v2026.CallToolResult,
      },
    });
    const methods = await raw.request("prompts/list", { _meta: meta });
    expect(methods["error"]).toMatchObject({ code: -32603 });
    expect(ruleOf(methods)).toBe("INPUT_REQUIRED_METHODS");
    const empty = await raw.request("tools/call", { name: "empty", _meta: meta });
    expect(ruleOf(empty)).toBe("INPUT_REQUIRED_CONTENT");
    const valid = await raw.request("tools/call", { name: "roots", _meta: meta });
    expect(valid["result"]).toMatchObject({
      resultType: "input_required",
      inputRequests: { r: { method: "roots/list" } },
    });
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["INPUT_REQUIRED_METHODS", "INPUT_REQUIRED_CONTENT"]);
  });
});

describe("pagination", () => {
  it("an empty-string cursor is a cursor: the pages go on, the cursor passed back unchanged (PAGINATION_CURSOR_OPAQUE)", async () => {
    const { raw, client } = await clientBehindRawServer({ tools: {} });
    const names: string[] = [];
    const listed = (async () => {
      for await (const page of client.listToolsPages()) names.push(...page.tools.map((t) => t.name));
    })();
    const first = await raw.nextRequest("tools/list");
    expect((first["params"] as JsonObject | undefined)?.["cursor"]).toBeUndefined();
    await raw.answer(first, { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "" });
    const second = await raw.nextRequest("tools/list");
    expect((second["params"] as JsonObject)["cursor"]).toBe("");
    await raw.answer(second, { tools: [{ name: "b", inputSchema: { type: "object" } }], nextCursor: "opaque+/=" });
    const third = await raw.nextRequest("tools/list");
    expect((third["params"] as JsonObject)["cursor"]).toBe("opaque+/=");
    await raw.answer(third, { tools: [{ name: "c", inputSchema: { type: "object" } }] });
    await listed;
    expect(names).toEqual(["a", "b", "c"]);
  });
});

describe("rules the validators hold, against a raw peer breaking them (2025-11-25)", () => {
  /** The paths a refused answer's validation issues name, in one string. */
  const pathsOf = (error: unknown) => (error as ResultValidationError).issues.map((i) => i.path).join();

  it("a progress token neither a string nor an integer gets -32602 and reaches no handler (PROGRESS_TOKEN_TYPE)", async () => {
    let calls = 0;
    const { raw } = await serverBehindRawClient({}, { callTool: () => (calls++, { content: [] }) });
    for (const progressToken of [1.5, true, { id: 1 }, null]) {
      const refused = await raw.request("tools/call", { name: "t", _meta: { progressToken } });
      expect(refused["error"], JSON.stringify(progressToken)).toMatchObject({ code: -32602 });
    }
    expect(calls).toBe(0);
    for (const progressToken of ["p", 7])
      expect((await raw.request("tools/call", { name: "t", _meta: { progressToken } }))["result"]).toEqual({
        content: [],
      });
    expect(calls).toBe(2);
  });

  it("an elicitation without its message, schema, valid URL or id gets -32602 and reaches no handler (ELICITATION_REQUEST_PARAMS)", async () => {
    const elicited: unknown[] = [];
    const { raw } = await clientBehindRawServer(
      {},
      {
        capabilities: { elicitation: { form: {}, url: {} } },
        handlers: { elicit: (params) => (elicited.push(params), { action: "decline" }) },
      },
    );
    const form = { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } };
    const url = { mode: "url", message: "sign in", url: "https://example.com/a", elicitationId: "e1" };
    const { message: _m, ...formWithoutMessage } = form;
    const { requestedSchema: _s, ...formWithoutSchema } = form;
    const { elicitationId: _i, ...urlWithoutId } = url;
    for (const params of [formWithoutMessage, formWithoutSchema, urlWithoutId, { ...url, url: "not a url" }]) {
      const refused = await raw.request("elicitation/create", params);
      expect(refused["error"], JSON.stringify(params)).toMatchObject({ code: -32602 });
    }
    expect(elicited).toEqual([]);
    for (const params of [form, url])
      expect((await raw.request("elicitation/create", params))["result"]).toEqual({ action: "decline" });
    expect(elicited).toHaveLength(2);
  });

  it("a tool listed with an input schema that is not an object schema fails the client's call (TOOLS_INPUT_SCHEMA_OBJECT)", async () => {
    const { raw, client } = await clientBehindRawServer({ tools: {} });
    for (const inputSchema of [null, { type: "string" }, undefined]) {
      const listed = client.listTools().catch((error: unknown) => error);
      await raw.answer(await raw.nextRequest("tools/list"), { tools: [{ name: "t", inputSchema }] });
      const refused = await listed;
      expect(refused, JSON.stringify(inputSchema)).toBeInstanceOf(ResultValidationError);
      expect(pathsOf(refused)).toContain("/result/tools/0/inputSchema");
    }
    const listed = client.listTools();
    const tools = [{ name: "t", inputSchema: { type: "object", properties: { a: { type: "string" } } } }];
    await raw.answer(await raw.nextRequest("tools/list"), { tools });
    expect(await listed).toEqual({ tools });
  });

  it("a resource whose URI does not follow RFC 3986 fails the client's call; a custom scheme passes (RESOURCES_URI_SYNTAX)", async () => {
    const { raw, client } = await clientBehindRawServer({ resources: {} });
    for (const uri of ["no scheme at all", "file:///a b", "1x://host/path"]) {
      const listed = client.listResources().catch((error: unknown) => error);
      await raw.answer(await raw.nextRequest("resources/list"), { resources: [{ uri, name: "r" }] });
      const refused = await listed;
      expect(refused, uri).toBeInstanceOf(ResultValidationError);
      expect(pathsOf(refused)).toContain("/result/resources/0/uri");
    }
    const listed = client.listResources();
    const resources = [{ uri: "custom-scheme+v1://host/a?b#c", name: "r" }];
    await raw.answer(await raw.nextRequest("resources/list"), { resources });
    expect(await listed).toEqual({ resources });
  });

  it("binary resource contents or prompt images that are not base64 fail the client's call (RESOURCES_BLOB_BASE64)", async () => {
    const { raw, client } = await clientBehindRawServer({ resources: {}, prompts: {} });
    const read = client.readResource({ uri: "file:///a" }).catch((error: unknown) => error);
    await raw.answer(await raw.nextRequest("resources/read"), {
      contents: [{ uri: "file:///a", blob: "not base64!" }],
    });
    // Neither member of the contents union takes it: the text one is named first.
    expect(pathsOf(await read)).toContain("/result/contents/0");
    const got = client.getPrompt({ name: "p" }).catch((error: unknown) => error);
    const image = { type: "image", data: "%%%", mimeType: "image/png" };
    await raw.answer(await raw.nextRequest("prompts/get"), { messages: [{ role: "user", content: image }] });
    expect(pathsOf(await got)).toContain("/result/messages/0/content");
    const good = client.readResource({ uri: "file:///a" });
    await raw.answer(await raw.nextRequest("resources/read"), { contents: [{ uri: "file:///a", blob: "aGk=" }] });
    expect(await good).toEqual({ contents: [{ uri: "file:///a", blob: "aGk=" }] });
  });

  it("an embedded resource without a URI, or without text or blob, fails the client's call (PROMPTS_EMBEDDED_RESOURCE)", async () => {
    const { raw, client } = await clientBehindRawServer({ prompts: {} });
    const embedded = (resource: JsonObject) => ({
      messages: [{ role: "user", content: { type: "resource", resource } }],
    });
    for (const resource of [{ text: "no uri" }, { uri: "file:///a", mimeType: "text/plain" }]) {
      const got = client.getPrompt({ name: "p" }).catch((error: unknown) => error);
      await raw.answer(await raw.nextRequest("prompts/get"), embedded(resource));
      const refused = await got;
      expect(refused, JSON.stringify(resource)).toBeInstanceOf(ResultValidationError);
      expect(pathsOf(refused)).toContain("/result/messages/0/content");
    }
    const got = client.getPrompt({ name: "p" });
    await raw.answer(await raw.nextRequest("prompts/get"), embedded({ uri: "file:///a", text: "hi" }));
    expect(await got).toEqual(embedded({ uri: "file:///a", text: "hi" }));
  });
});

describe("rules the validators hold, against a raw peer breaking them (2026-07-28)", () => {
  /** Answers the client's tool call by asking for `inputRequests`; `call`: what the call gives or throws. */
  async function askFor(raw: RawPeer, client: v2026.Client, inputRequests: JsonObject) {
    const call = client.callTool({ name: "t", arguments: {} }).catch((error: unknown) => error);
    await raw.answer(await raw.nextRequest("tools/call"), { resultType: "input_required", inputRequests });
    return { call };
  }

  it("a sampling message whose role is not user or assistant, or that has no content, is refused inside an input-required result (SAMPLING_MESSAGE_ROLE)", async () => {
    const sampled: unknown[] = [];
    const answer = { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
    const { raw, client } = await client2026BehindRawServer(
      { tools: {} },
      {
        handlers: { createMessage: (params) => (sampled.push(params), answer as unknown as v2026.CreateMessageResult) },
      },
    );
    const sampling = (message: JsonObject) => ({
      s: { method: "sampling/createMessage", params: { messages: [message], maxTokens: 10 } },
    });
    for (const message of [{ role: "system", content: { type: "text", text: "x" } }, { role: "user" }]) {
      const { call } = await askFor(raw, client, sampling(message));
      const refused = await call;
      expect(refused, JSON.stringify(message)).toBeInstanceOf(ResultValidationError);
      expect((refused as ResultValidationError).issues.map((i) => i.path).join()).toContain(
        "/inputRequests/s/params/messages/0",
      );
    }
    expect(sampled).toEqual([]);
    expect(await raw.sentNothing((m) => m["method"] === "tools/call")).toBe(true);
    // A user message is asked, answered and the call retried.
    const { call } = await askFor(raw, client, sampling({ role: "user", content: { type: "text", text: "x" } }));
    const retry = await raw.nextRequest("tools/call");
    expect((retry["params"] as JsonObject)["inputResponses"]).toEqual({ s: answer });
    await raw.answer(retry, { resultType: "complete", content: [] });
    expect(await call).toMatchObject({ content: [] });
  });

  it("an input request that is not an elicitation, sampling or roots request is refused, and nothing is retried (MRTR_INPUT_REQUEST_KINDS)", async () => {
    const { raw, client } = await client2026BehindRawServer(
      { tools: {} },
      { handlers: { listRoots: () => ({ roots: [] }) } },
    );
    for (const request of [{ method: "tools/list" }, { method: "ping" }, { params: {} }]) {
      const { call } = await askFor(raw, client, { r: request });
      const refused = await call;
      expect(refused, JSON.stringify(request)).toBeInstanceOf(ResultValidationError);
      expect((refused as ResultValidationError).issues.map((i) => i.path).join()).toContain("/inputRequests/r");
    }
    expect(await raw.sentNothing((m) => m["method"] === "tools/call")).toBe(true);
    const { call } = await askFor(raw, client, { r: { method: "roots/list" } });
    const retry = await raw.nextRequest("tools/call");
    expect((retry["params"] as JsonObject)["inputResponses"]).toEqual({ r: { roots: [] } });
    await raw.answer(retry, { resultType: "complete", content: [] });
    expect(await call).toMatchObject({ content: [] });
  });
});

describe("capabilities declared from handlers", () => {
  const clientHandlers = {
    listRoots: () => ({ roots: [] }),
    createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "" } }),
    elicit: () => ({ action: "decline" }),
  } as const;

  it("a client declares roots, sampling and elicitation exactly when it answers them: in initialize at 2025-11-25, in every request's _meta at 2026-07-28 (ROOTS_CAPABILITY, SAMPLING_CAPABILITY, ELICITATION_CAPABILITY)", async () => {
    const none = await clientBehindRawServer({});
    expect(none.declared).toEqual({});
    const all = await clientBehindRawServer({}, { handlers: clientHandlers as unknown as v2025.ClientHandlers });
    expect(all.declared).toEqual({ roots: {}, sampling: {}, elicitation: {} });

    const capabilitiesOf = (request: JsonObject) =>
      ((request["params"] as JsonObject)["_meta"] as JsonObject)["io.modelcontextprotocol/clientCapabilities"];
    const bare = await client2026BehindRawServer({ tools: {} });
    expect(capabilitiesOf(bare.discover)).toEqual({});
    const full = await client2026BehindRawServer(
      { tools: {} },
      { handlers: clientHandlers as unknown as v2026.ClientHandlers, capabilities: { elicitation: { url: {} } } },
    );
    // An elicitation capability the application gave keeps its modes; one declared for a handler alone is form mode.
    const declared = { roots: {}, sampling: {}, elicitation: { url: {} } };
    expect(capabilitiesOf(full.discover)).toEqual(declared);
    const listed = full.client.listTools();
    const request = await full.raw.nextRequest("tools/list");
    expect(capabilitiesOf(request)).toEqual(declared);
    await full.raw.answer(request, { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "private" });
    await listed;
  });

  it("a server declares tools, resources and prompts exactly when it serves them, in initialize at 2025-11-25 and in server/discover at 2026-07-28 (TOOLS_CAPABILITY, RESOURCES_CAPABILITY, PROMPTS_CAPABILITY)", async () => {
    const served = {
      listTools: () => ({ tools: [] }),
      listResources: () => ({ resources: [] }),
      listPrompts: () => ({ prompts: [] }),
    };
    const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    for (const [handlers, expected] of [
      [{}, {}],
      [{ listTools: served.listTools }, { tools: {} }],
      [served, { tools: {}, resources: {}, prompts: {} }],
    ] as const) {
      const { raw, transport } = await RawPeer.open();
      const server = v2025.createServer({
        serverInfo: { name: "s", version: "1" },
        handlers: handlers as v2025.ServerHandlers,
      });
      await server.connect(transport);
      cleanups.push(() => server.close());
      expect((await raw.request("initialize", initialize))["result"]).toMatchObject({ capabilities: expected });
      const { raw: raw2026 } = await server2026BehindRawClient({
        handlers: handlers as unknown as v2026.ServerHandlers,
      });
      const discovered = (await raw2026.request("server/discover", { _meta: meta2026() }))["result"] as JsonObject;
      expect(discovered["capabilities"]).toEqual(expected);
    }
  });
});

describe("cancellation by a client over stdio (2026-07-28)", () => {
  it("a client giving up on a request sends the cancellation notification naming its id; a late answer settles nothing (CANCEL_STDIO_NOTIFY)", async () => {
    // The in-memory pair is a stdio-like transport: no per-request stream whose closing could cancel.
    const { raw, client, errors } = await client2026BehindRawServer({ tools: {} });
    const controller = new AbortController();
    const call = client.callTool({ name: "t", arguments: {} }, { signal: controller.signal }).catch((e: unknown) => e);
    const request = await raw.nextRequest("tools/call");
    controller.abort("enough");
    expect(await call).toMatchObject({ name: "AbortError", message: "enough" });
    expect(await raw.next((m) => m["method"] === "notifications/cancelled")).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: request["id"], reason: "enough" },
    });
    // An answer that crossed the cancellation settles nothing and is only reported; the client goes on.
    await raw.answer(request, { resultType: "complete", content: [] });
    await raw.sentNothing(() => false);
    expect(errors.map((e) => e.message)).toEqual([
      `a response to no pending request (id ${JSON.stringify(request["id"])})`,
    ]);
    const next = client.callTool({ name: "t", arguments: {} });
    await raw.answer(await raw.nextRequest("tools/call"), { resultType: "complete", content: [] });
    expect(await next).toMatchObject({ content: [] });
  });
});

describe("each request stands alone (2026-07-28)", () => {
  it("a server takes the client's capabilities from each request, never from an earlier one (CAPABILITIES_PER_REQUEST)", async () => {
    const seen: unknown[] = [];
    const { raw } = await server2026BehindRawClient({
      handlers: {
        callTool: (_params, context) => {
          seen.push(context.client.clientCapabilities);
          return {
            resultType: "input_required",
            inputRequests: {
              e: {
                method: "elicitation/create",
                params: { message: "name?", requestedSchema: { type: "object", properties: {} } },
              },
            },
          } as unknown as v2026.CallToolResult;
        },
      },
    });
    const asked = await raw.request("tools/call", { name: "t", _meta: meta2026({ elicitation: {} }) });
    expect(asked["result"]).toMatchObject({ resultType: "input_required" });
    // The same connection, a request without the capability: nothing carried over from the one before.
    const refused = await raw.request("tools/call", { name: "t", _meta: meta2026({}) });
    expect(refused["error"]).toMatchObject({
      code: v2026.MISSING_REQUIRED_CLIENT_CAPABILITY,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    expect(seen).toEqual([{ elicitation: {} }, {}]);
  });

  it("a server sends a request's log messages only when the request asked for a level, and only at or above it (LOGGING_LEVEL_OPT_IN)", async () => {
    const { raw } = await server2026BehindRawClient({
      capabilities: { logging: {} },
      handlers: {
        callTool: async (_params, context) => {
          await context.notify("notifications/message", { level: "error", data: "broken" });
          return { content: [] };
        },
      },
    });
    const logs = () => raw.received.filter((m) => m["method"] === "notifications/message").splice(0);
    const level = (logLevel: string) => ({ "io.modelcontextprotocol/logLevel": logLevel });
    await raw.request("tools/call", { name: "t", _meta: meta2026() });
    expect(logs()).toEqual([]);
    await raw.request("tools/call", { name: "t", _meta: meta2026({}, level("critical")) });
    expect(logs()).toEqual([]);
    await raw.request("tools/call", { name: "t", _meta: meta2026({}, level("debug")) });
    expect(raw.received.filter((m) => m["method"] === "notifications/message")).toMatchObject([
      { params: { level: "error", data: "broken" } },
    ]);
  });

  it("a server's results carry resultType, complete where the handler left it out; a client takes a result without one as complete (RESULT_TYPE_SENT)", async () => {
    const { raw } = await server2026BehindRawClient({
      handlers: {
        callTool: () => ({ content: [] }) as unknown as v2026.CallToolResult,
        listPrompts: () => ({ prompts: [], ttlMs: 0, cacheScope: "private" }) as unknown as v2026.ListPromptsResult,
      },
    });
    for (const [method, params] of [
      ["tools/call", { name: "t" }],
      ["prompts/list", {}],
      ["server/discover", {}],
    ] as const)
      expect((await raw.request(method, { ...params, _meta: meta2026() }))["result"], method).toMatchObject({
        resultType: "complete",
      });

    const { raw: server, client } = await client2026BehindRawServer({ tools: {} });
    const call = client.callTool({ name: "t", arguments: {} });
    await server.answer(await server.nextRequest("tools/call"), { content: [{ type: "text", text: "done" }] });
    expect(await call).toEqual({ resultType: "complete", content: [{ type: "text", text: "done" }] });
    expect(await server.sentNothing((m) => m["method"] === "tools/call")).toBe(true);
  });
});

describe("result kinds (2026-07-28)", () => {
  const roots = { handlers: { listRoots: () => ({ roots: [{ uri: "file:///repo" }] }) } };

  it("a result of a kind the client does not recognise fails the call; complete, absent and input_required pass (RESULT_TYPE_RECOGNISED)", async () => {
    // The recognised kinds are the literal members of the schema's ResultType, read from the model.
    expect(v2026.PROTOCOL_RULES.resultTypes).toEqual({ field: "resultType", values: ["complete", "input_required"] });
    const { raw: server, client, errors } = await client2026BehindRawServer({ tools: {} }, roots);
    const unknown = [
      // A task extension's result: of a shape no core kind has, refused for its kind, not its shape.
      { resultType: "task", task: { taskId: "t1", status: "working" } },
      { resultType: "bogus", content: [{ type: "text", text: "looks complete" }] },
    ];
    for (const answer of unknown) {
      const call = client.callTool({ name: "t", arguments: {} });
      await server.answer(await server.nextRequest("tools/call"), answer);
      const error = await call.then(
        (result) => ({ reachedTheCaller: result }),
        (e: unknown) => e,
      );
      expect(error, answer.resultType).toBeInstanceOf(RuleViolation);
      expect(error).toMatchObject({ rule: "RESULT_TYPE_RECOGNISED", code: -32603 });
      expect((error as Error).message).toContain(JSON.stringify(answer.resultType));
      // Nothing is retried or answered: the call is over.
      expect(await server.sentNothing((m) => m["method"] === "tools/call")).toBe(true);
    }
    // A list answered with a task is refused for its kind too, not for the list it lacks.
    const list = client.listTools();
    await server.answer(await server.nextRequest("tools/list"), unknown[0] as JsonObject);
    expect(await list.catch((e: unknown) => e)).toMatchObject({
      name: "RuleViolation",
      rule: "RESULT_TYPE_RECOGNISED",
    });
    expect(errors).toEqual([]);

    const text = [{ type: "text", text: "done" }];
    for (const answer of [{ resultType: "complete", content: text }, { content: text }]) {
      const call = client.callTool({ name: "t", arguments: {} });
      await server.answer(await server.nextRequest("tools/call"), answer);
      expect(await call).toEqual({ resultType: "complete", content: text });
    }
    const asked = client.callTool({ name: "t", arguments: {} });
    await server.answer(await server.nextRequest("tools/call"), {
      resultType: "input_required",
      inputRequests: { r: { method: "roots/list" } },
    });
    const retry = await server.nextRequest("tools/call");
    expect((retry["params"] as JsonObject)["inputResponses"]).toEqual({ r: { roots: [{ uri: "file:///repo" }] } });
    await server.answer(retry, { resultType: "complete", content: text });
    expect(await asked).toEqual({ resultType: "complete", content: text });

    // A client that relaxes the rule (for an extension's kind it reads itself) gets the result, validated as ever.
    const { raw: lenient, client: relaxed } = await client2026BehindRawServer(
      { tools: {} },
      { relaxRules: ["RESULT_TYPE_RECOGNISED"] },
    );
    const call = relaxed.callTool({ name: "t", arguments: {} });
    await lenient.answer(await lenient.nextRequest("tools/call"), unknown[1] as JsonObject);
    expect(await call).toEqual(unknown[1]);
  });

  it("a server does not send a handler's result of a kind no client recognises (RESULT_TYPE_RECOGNISED)", async () => {
    const { raw, errors } = await server2026BehindRawClient({
      handlers: {
        callTool: (params) =>
          (params.name === "task"
            ? { resultType: "task", content: [] }
            : { resultType: "complete", content: [] }) as unknown as v2026.CallToolResult,
      },
    });
    const refused = await raw.request("tools/call", { name: "task", _meta: meta2026() });
    expect(refused["result"]).toBeUndefined();
    expect(refused["error"]).toMatchObject({ code: -32603 });
    expect(ruleOf(refused)).toBe("RESULT_TYPE_RECOGNISED");
    expect((await raw.request("tools/call", { name: "ok", _meta: meta2026() }))["result"]).toEqual({
      resultType: "complete",
      content: [],
    });
    expect(errors.map((e) => (e as RuleViolation).rule)).toEqual(["RESULT_TYPE_RECOGNISED"]);
  });
});

describe("caching (2026-07-28)", () => {
  const fresh = { resultType: "complete", ttlMs: 60_000, cacheScope: "private" };
  const contents = (uri: string, text: string) => ({ ...fresh, contents: [{ uri, text }] });

  it("serves a cached result only to a request of the same method and params; its _meta does not count (CACHE_KEY)", async () => {
    const { raw: server, client } = await client2026BehindRawServer({ resources: {}, tools: {}, prompts: {} });
    const read = client.readResource({ uri: "file:///a" });
    await server.answer(await server.nextRequest("resources/read"), contents("file:///a", "a"));
    expect((await read).contents).toEqual([{ uri: "file:///a", text: "a" }]);
    // Served from the cache: nothing reaches the server (an unanswered request would never settle).
    expect((await client.readResource({ uri: "file:///a", _meta: { "com.example/trace": "1" } })).contents).toEqual([
      { uri: "file:///a", text: "a" },
    ]);
    // Other params: the server is asked.
    const other = client.readResource({ uri: "file:///b" });
    await server.answer(await server.nextRequest("resources/read"), contents("file:///b", "b"));
    expect((await other).contents).toEqual([{ uri: "file:///b", text: "b" }]);

    const list = client.listTools({ cursor: "2" });
    await server.answer(await server.nextRequest("tools/list"), { ...fresh, tools: [] });
    await list;
    // Another cursor, or none, is another page; another method with the same params is another list.
    const first = client.listTools();
    const firstSent = await server.nextRequest("tools/list");
    expect((firstSent["params"] as JsonObject | undefined)?.["cursor"]).toBeUndefined();
    await server.answer(firstSent, { ...fresh, tools: [{ name: "t", inputSchema: { type: "object" } }] });
    expect((await first).tools).toHaveLength(1);
    const prompts = client.listPrompts({ cursor: "2" });
    await server.answer(await server.nextRequest("prompts/list"), { ...fresh, prompts: [] });
    expect((await prompts).prompts).toEqual([]);
    expect((await client.listTools({ cursor: "2" })).tools).toEqual([]);
    expect(await server.sentNothing((m) => m["method"] === "tools/list" || m["method"] === "resources/read")).toBe(
      true,
    );
  });

  it("never keeps the result of a retry carrying input responses or state, nor an interim input-required one (CACHE_RETRIED_NOT_KEPT)", async () => {
    const { raw: server, client } = await client2026BehindRawServer(
      { resources: {} },
      { handlers: { listRoots: () => ({ roots: [{ uri: "file:///repo" }] }) } },
    );
    const uri = "file:///needs-roots";
    const asked = client.readResource({ uri });
    await server.answer(await server.nextRequest("resources/read"), {
      resultType: "input_required",
      inputRequests: { r: { method: "roots/list" } },
      requestState: "s1",
    });
    const retry = await server.nextRequest("resources/read");
    expect(retry["params"]).toMatchObject({ uri, requestState: "s1", inputResponses: { r: expect.anything() } });
    await server.answer(retry, contents(uri, "after input"));
    expect((await asked).contents).toEqual([{ uri, text: "after input" }]);

    // The same request again goes to the server: the retry's fresh-looking answer was not kept.
    const again = client.readResource({ uri });
    const sent = await server.nextRequest("resources/read");
    expect(sent["params"]).not.toHaveProperty("inputResponses");
    await server.answer(sent, contents(uri, "first round"));
    expect((await again).contents).toEqual([{ uri, text: "first round" }]);
    // A complete answer to a first round is kept as usual.
    expect((await client.readResource({ uri })).contents).toEqual([{ uri, text: "first round" }]);
    expect(await server.sentNothing((m) => m["method"] === "resources/read")).toBe(true);
  });

  it("a cacheable result without its hints, or with a negative ttlMs, fails the client's call (CACHE_HINTS, CACHE_TTL_NON_NEGATIVE)", async () => {
    const { raw: server, client } = await client2026BehindRawServer({ tools: {} });
    const paths = (error: unknown) => (error as ResultValidationError).issues.map((i) => i.path).join();
    for (const [answer, path] of [
      [{ resultType: "complete", tools: [], cacheScope: "private" }, "ttlMs"],
      [{ resultType: "complete", tools: [], ttlMs: 0 }, "cacheScope"],
      [{ resultType: "complete", tools: [], ttlMs: -1, cacheScope: "private" }, "ttlMs"],
    ] as const) {
      const call = client.listTools();
      await server.answer(await server.nextRequest("tools/list"), answer);
      const error = await call.catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(ResultValidationError);
      expect(paths(error)).toContain(path);
    }
    const valid = client.listTools();
    await server.answer(await server.nextRequest("tools/list"), {
      resultType: "complete",
      tools: [],
      ttlMs: 0,
      cacheScope: "public",
    });
    expect((await valid).tools).toEqual([]);
  });

  it("a list whose later page changes the first page's cache scope fails before that page reaches the caller (CACHE_PAGE_SCOPE)", async () => {
    const { raw: server, client } = await client2026BehindRawServer({ tools: {} });
    const page = (cacheScope: string, name: string, nextCursor?: string) => ({
      resultType: "complete",
      ttlMs: 0,
      cacheScope,
      tools: [{ name, inputSchema: { type: "object" } }],
      ...(nextCursor === undefined ? {} : { nextCursor }),
    });
    const walk = async () => {
      const names: string[] = [];
      const error = await (async () => {
        for await (const p of client.listToolsPages()) names.push(...p.tools.map((t) => t.name));
      })().catch((e: unknown) => e);
      return { names, error };
    };
    const mixed = walk();
    await server.answer(await server.nextRequest("tools/list"), page("private", "a", "2"));
    await server.answer(await server.nextRequest("tools/list"), page("public", "b", "3"));
    const { names, error } = await mixed;
    expect(names).toEqual(["a"]);
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error).toMatchObject({ rule: "CACHE_PAGE_SCOPE" });
    expect(await server.sentNothing((m) => m["method"] === "tools/list")).toBe(true);

    const same = walk();
    await server.answer(await server.nextRequest("tools/list"), page("public", "a", "2"));
    await server.answer(await server.nextRequest("tools/list"), page("public", "b"));
    expect(await same).toEqual({ names: ["a", "b"], error: undefined });
  });
});

describe("extension identifiers (2026-07-28)", () => {
  it("takes prefixed _meta keys as extension identifiers, and nothing else", () => {
    for (const good of [
      "io.modelcontextprotocol/ui",
      "com.example/",
      "a/b.c-d_e",
      "x1.y-2/z9",
      "com.example.mcp/tasks",
    ])
      expect(isExtensionId(good), good).toBe(true);
    for (const bad of ["ui", "/ui", "1io/x", "io./x", "io-/x", "io..x/a", "io.x/-a", "io.x/a-", "io x/a", "io/x/y", ""])
      expect(isExtensionId(bad), bad).toBe(false);
  });

  it("a side never declares a malformed extension id, and refuses the other side's (EXTENSION_ID_FORMAT)", async () => {
    const malformed = { extensions: { tasks: {} } };
    const declaring = (create: () => unknown) => {
      try {
        create();
        return undefined;
      } catch (error) {
        return error;
      }
    };
    const { transport } = await RawPeer.open();
    expect(
      declaring(() =>
        v2026.createClient({ transport, clientInfo: { name: "c", version: "1" }, capabilities: malformed }),
      ),
    ).toMatchObject({ rule: "EXTENSION_ID_FORMAT", code: -32603 });
    expect(
      declaring(() =>
        v2026.createServer({ serverInfo: { name: "s", version: "1" }, capabilities: malformed, handlers: {} }),
      ),
    ).toMatchObject({ rule: "EXTENSION_ID_FORMAT" });

    // A request declaring one gets -32602 and reaches no handler; a well-formed one passes.
    let calls = 0;
    const { raw } = await server2026BehindRawClient({ handlers: { callTool: () => (calls++, { content: [] }) } });
    const refused = await raw.request("tools/call", { name: "t", _meta: meta2026(malformed) });
    expect(refused["error"]).toMatchObject({ code: -32602, data: { rule: "EXTENSION_ID_FORMAT" } });
    const fine = { extensions: { "io.modelcontextprotocol/tasks": {} } };
    expect((await raw.request("tools/call", { name: "t", _meta: meta2026(fine) }))["result"]).toMatchObject({
      content: [],
    });
    expect(calls).toBe(1);

    // A server declaring one fails the client's connect, which sends nothing more.
    const { raw: server, transport: clientSide } = await RawPeer.open();
    const client = v2026.createClient({ transport: clientSide, clientInfo: { name: "c", version: "1" } });
    cleanups.push(() => client.close());
    const connected = client.connect().catch((error: unknown) => error);
    await server.answer(await server.nextRequest("server/discover"), {
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {}, ...malformed },
      ttlMs: 0,
      cacheScope: "private",
    });
    expect(await connected).toMatchObject({ rule: "EXTENSION_ID_FORMAT" });
    expect(server.received).toEqual([]);
  });
});
