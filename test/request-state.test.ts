// Sealed request state (runtime/request-state.ts) and the generated 2026-07-28 server applying it:
// what a client sends back opens only if it is what the server gave, unaltered and in time.
import { describe, expect, it } from "vitest";
import * as v2026 from "../generated/2026-07-28/index.js";
import { fromBase64Url, toBase64Url } from "../runtime/encoding.js";
import { createInMemoryTransportPair, createRequestStateSeal, type JsonRpcMessage } from "../runtime/index.js";

describe("base64url", () => {
  it("decodes only canonical text: unused low bits of the last character must be zero", () => {
    for (const bytes of [[], [65], [65, 66], [65, 66, 67], [255, 254, 253, 252]]) {
      const text = toBase64Url(new Uint8Array(bytes));
      expect([...(fromBase64Url(text) ?? [0xbad])]).toEqual(bytes);
    }
    expect(fromBase64Url("QQ")).toEqual(new Uint8Array([65]));
    expect(fromBase64Url("QR")).toBeUndefined(); // 'A' again, with a low bit set
    expect(fromBase64Url("QUI")).toEqual(new Uint8Array([65, 66]));
    expect(fromBase64Url("QUJ")).toBeUndefined();
    for (const junk of ["Q", "QQ==", "Q+Q", "Q/Q", "QQ QQ"]) expect(fromBase64Url(junk)).toBeUndefined();
  });
});

describe("createRequestStateSeal", () => {
  it("opens what it sealed, and nothing altered, forged, expired or malformed", async () => {
    const seal = await createRequestStateSeal();
    const sealed = await seal.seal('{"round":2}');
    expect(await seal.open(sealed)).toBe('{"round":2}');
    const [body = "", mac = ""] = sealed.split(".");
    const flipped = `${body.slice(0, -1)}${body.endsWith("A") ? "B" : "A"}.${mac}`;
    expect(await seal.open(flipped)).toBeUndefined();
    // A last character that differs only in bits base64url leaves unused decodes to the same MAC.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const unused = `${sealed.slice(0, -1)}${alphabet[alphabet.indexOf(sealed.slice(-1)) ^ 1] ?? ""}`;
    expect(unused).not.toBe(sealed);
    expect(await seal.open(unused)).toBeUndefined();
    const other = await createRequestStateSeal();
    expect(await other.open(sealed)).toBeUndefined();
    const expired = await createRequestStateSeal({ ttlMs: -1 });
    expect(await expired.open(await expired.seal("x"))).toBeUndefined();
    for (const junk of ["", ".", "a.b.c", "%%%.%%%", `${body}.`, "x".repeat(10_000)])
      expect(await seal.open(junk)).toBeUndefined();
    await expect(createRequestStateSeal({ key: new Uint8Array(16) })).rejects.toThrow(/32 bytes/);
  });

  it("a shared key lets another node open what one sealed", async () => {
    const key = crypto.getRandomValues(new Uint8Array(32));
    const [a, b] = [await createRequestStateSeal({ key }), await createRequestStateSeal({ key })];
    expect(await b.open(await a.seal("state"))).toBe("state");
  });
});

describe("a generated 2026-07-28 server with a seal", () => {
  it("hands handlers their own state and refuses a tampered one before any handler runs", async () => {
    const seen: (string | undefined)[] = [];
    const server = v2026.createServer({
      serverInfo: { name: "sealed", version: "1.0.0" },
      requestState: await createRequestStateSeal(),
      handlers: {
        callTool: (params) => {
          seen.push(params.requestState);
          if (params.requestState === undefined)
            return {
              resultType: "input_required",
              inputRequests: { r: { method: "roots/list" } },
              requestState: "mine",
            };
          return { content: [] };
        },
      },
    });
    const [clientSide, serverSide] = createInMemoryTransportPair();
    await server.connect(serverSide);
    // Each call's answer, by id, as it arrives.
    const waiting = new Map<number, (message: JsonRpcMessage) => void>();
    clientSide.onmessage = (message) => {
      if ("id" in message && typeof message.id === "number") waiting.get(message.id)?.(message);
    };
    await clientSide.start();
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { roots: {} },
    };
    const call = async (id: number, extra: object) => {
      const answer = new Promise<JsonRpcMessage>((resolve) => waiting.set(id, resolve));
      await clientSide.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", _meta: meta, ...extra } });
      return (await answer) as { result?: { requestState?: string }; error?: { code: number } };
    };
    const first = await call(1, {});
    const sealed = first.result?.requestState ?? "";
    expect(sealed).not.toBe("mine");
    const roots = { r: { roots: [] } };
    expect((await call(2, { inputResponses: roots, requestState: sealed })).result).toBeDefined();
    expect((await call(3, { inputResponses: roots, requestState: `${sealed}x` })).error?.code).toBe(-32602);
    expect((await call(4, { inputResponses: roots, requestState: "mine" })).error?.code).toBe(-32602);
    expect(seen).toEqual([undefined, "mine"]);
    await server.close();
  });
});
