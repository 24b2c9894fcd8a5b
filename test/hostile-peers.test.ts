// Bad input: the generated server (2025-11-25) gets 10,000 malformed or hostile messages, generated
// deterministically with fast-check (fixed seeds): over an in-memory transport as objects (an
// initialized server, and one that never saw `initialize`) and over the stdio line protocol as raw
// text (StdioServerTransport on PassThrough streams), plus a fixed set of huge (MBs) and deep
// (100,000 levels) messages. The expected answer of every message is computed from its kind:
// every request with a usable id gets exactly one response with the right JSON-RPC error code (or
// its result); messages without a usable id get an id-less error (parse error, invalid request) or
// nothing (notifications, responses), as JSON-RPC prescribes. No unhandled rejection, no crash, and
// the server still answers a valid request afterwards.
//
// The same for the client: a generated client against a fake server (the other end of an in-memory
// pair, driven by this test) that answers `initialize` and then sends garbage: responses with unknown
// ids, malformed results and error objects for pending calls, unknown and malformed notifications,
// server→client requests with bad params, non-objects; and over stdio, a child process that writes
// unparsable, huge and deep lines. Every pending call settles with its value or a typed error.
//
// Timings are never asserted; waits are bounded and checked afterwards.
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLIENT_REQUEST_METHODS,
  type Client,
  type ClientHandlers,
  createClient,
  createServer,
  SERVER_REQUEST_METHODS,
  type Server,
} from "../generated/2025-11-25/index.js";
import {
  createInMemoryTransportPair,
  ErrorCode,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
  ResultValidationError,
  RpcError,
  type Transport,
} from "../runtime/index.js";
import { StdioClientTransport, StdioServerTransport } from "../runtime/stdio.js";

const { ParseError: PARSE_ERROR, InvalidRequest: INVALID_REQUEST } = ErrorCode;
const { MethodNotFound: METHOD_NOT_FOUND, InvalidParams: INVALID_PARAMS, InternalError: INTERNAL_ERROR } = ErrorCode;

const MB = 1024 * 1024;
const DEEP = 100_000;

// ---------------------------------------------------------------------------------------------
// Process-wide guards

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();
let prototypeBefore: string[] = [];

beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
  prototypeBefore = prototypeKeys();
});

afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
});

/** After a test: no unhandled rejection happened, and no `__proto__` key polluted Object.prototype. */
async function expectNoFallout(): Promise<void> {
  await new Promise((r) => setTimeout(r, 10)); // let rejections surface
  expect(unhandled).toEqual([]);
  expect(prototypeKeys()).toEqual(prototypeBefore);
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const isObject = (v: unknown): v is { [key: string]: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isRequestId = (v: unknown): v is RequestId =>
  typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
const keyOf = (id: RequestId) => `${typeof id}:${String(id)}`;
const short = (v: unknown) => {
  const s =
    typeof v === "string"
      ? v
      : (() => {
          try {
            return JSON.stringify(v);
          } catch {
            return String(v);
          }
        })();
  return s === undefined ? String(v) : s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** Resolves when `predicate` holds, or after `ms`; the caller asserts afterwards. */
async function until(predicate: () => boolean, ms = 20_000): Promise<void> {
  const started = Date.now();
  while (!predicate() && Date.now() - started < ms) await new Promise((r) => setTimeout(r, 5));
}

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Nested one-element arrays, `depth` levels (no recursion, so no stack). */
function nestArrays(depth: number, leaf: unknown = "x"): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
function nestObjects(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
const deepArraysText = (depth: number) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;
const deepObjectsText = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

const request = (id: unknown, method: unknown, params?: unknown): JsonObject =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

// ---------------------------------------------------------------------------------------------
// What must come back: a ledger of expectations, checked against every response received

type ResultCheck = (result: unknown) => string | undefined;

type Expectation =
  /** Exactly one result response with this id. `gated`: only after the test opens the gate. */
  | { kind: "result"; id: RequestId; gated?: boolean; check?: ResultCheck }
  /** Exactly one error response with this id and code. */
  | { kind: "error"; id: RequestId; code: number; detail?: "issues" | "internal" }
  /** One error response without an id, with this code. */
  | { kind: "idless"; code: number }
  /** Nothing may answer this id (a request inside a batch, a cancelled request). */
  | { kind: "silent"; id: RequestId };

class Ledger {
  private readonly byId = new Map<string, Expectation[]>();
  private readonly idless: number[] = [];
  private readonly silent = new Map<string, RequestId>();
  expected = 0;
  gated = 0;

  add(e: Expectation): void {
    if (e.kind === "idless") {
      this.idless.push(e.code);
      this.expected++;
      return;
    }
    const key = keyOf(e.id);
    if (e.kind === "silent") {
      this.silent.set(key, e.id);
      return;
    }
    const list = this.byId.get(key) ?? [];
    list.push(e);
    this.byId.set(key, list);
    this.expected++;
    if (e.kind === "result" && e.gated) this.gated++;
  }

  /** Every mismatch between the expectations and the responses (messages without `method`). */
  check(received: readonly unknown[]): string[] {
    const problems: string[] = [];
    const open = new Map([...this.byId].map(([k, v]) => [k, [...v]]));
    const idless: number[] = [];
    for (const message of received) {
      if (isObject(message) && message["method"] !== undefined) continue; // the peer's own requests
      if (!isObject(message) || message["jsonrpc"] !== "2.0") {
        problems.push(`not a JSON-RPC response: ${short(message)}`);
        continue;
      }
      const error = message["error"];
      if (error !== undefined) {
        if (!isObject(error) || !Number.isInteger(error["code"]) || typeof error["message"] !== "string") {
          problems.push(`malformed error object: ${short(message)}`);
          continue;
        }
        if (/\n\s+at /.test(JSON.stringify(error))) problems.push(`a stack trace leaked: ${short(message)}`);
      } else if (!isObject(message["result"])) {
        problems.push(`a response with neither error nor an object result: ${short(message)}`);
        continue;
      }
      const id = message["id"];
      if (id === undefined || id === null) {
        if (error === undefined) problems.push(`a result without id: ${short(message)}`);
        else idless.push((error as { code: number }).code);
        continue;
      }
      if (!isRequestId(id)) {
        problems.push(`a response with an invalid id: ${short(message)}`);
        continue;
      }
      const key = keyOf(id);
      if (this.silent.has(key)) {
        problems.push(`an answer to ${short(id)}, which must get none: ${short(message)}`);
        continue;
      }
      const candidates = open.get(key) ?? [];
      const index = candidates.findIndex((e) =>
        error === undefined ? e.kind === "result" : e.kind === "error" && e.code === (error as { code: number }).code,
      );
      const match = candidates[index];
      if (match === undefined) {
        const wanted = candidates.map((e) => (e.kind === "error" ? `error ${e.code}` : e.kind)).join(" or ");
        problems.push(`unexpected response for id ${short(id)} (expected ${wanted || "nothing"}): ${short(message)}`);
        continue;
      }
      candidates.splice(index, 1);
      const detail = this.detail(match, message);
      if (detail !== undefined) problems.push(`id ${short(id)}: ${detail}: ${short(message)}`);
    }
    for (const [key, list] of open) {
      for (const e of list) {
        const what = e.kind === "error" ? `error ${e.code}` : e.kind;
        problems.push(`no response for id ${key.slice(0, 80)} (expected ${what})`);
      }
    }
    const sorted = (a: number[]) => [...a].sort((x, y) => x - y).join(",");
    if (sorted(idless) !== sorted(this.idless)) {
      const count = (a: number[]) =>
        JSON.stringify(a.reduce<Record<number, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {}));
      problems.push(`id-less errors by code: got ${count(idless)}, expected ${count(this.idless)}`);
    }
    return problems.length > 40 ? [...problems.slice(0, 40), `... and ${problems.length - 40} more`] : problems;
  }

  /** How many of each kind of answer the ledger expects (to check that a barrage covers them all). */
  summary(): { [kind: string]: number } {
    const out: { [kind: string]: number } = {};
    const count = (kind: string) => (out[kind] = (out[kind] ?? 0) + 1);
    for (const list of this.byId.values())
      for (const e of list)
        count(e.kind === "error" ? `error ${e.code}` : e.kind === "result" && e.gated ? "gated result" : e.kind);
    for (const code of this.idless) count(`idless ${code}`);
    for (let i = 0; i < this.silent.size; i++) count("silent");
    return out;
  }

  private detail(e: Expectation, message: { [key: string]: unknown }): string | undefined {
    if (e.kind === "result") return e.check?.(message["result"]);
    if (e.kind !== "error") return undefined;
    const error = message["error"] as { message: string; data?: unknown };
    if (e.detail === "issues") {
      const issues = isObject(error.data) ? error.data["issues"] : undefined;
      const ok =
        Array.isArray(issues) &&
        issues.length > 0 &&
        issues.every(
          (i) =>
            isObject(i) &&
            typeof i["path"] === "string" &&
            typeof i["expected"] === "string" &&
            typeof i["message"] === "string",
        );
      if (!ok) return "expected data.issues with path, expected and message";
    }
    // The request named, what the handler threw kept on the server.
    if (e.detail === "internal" && (!/ failed: Internal error$/.test(error.message) || error.data !== undefined))
      return 'expected "… failed: Internal error" without data';
    return undefined;
  }
}

const responsesIn = (received: readonly unknown[]) =>
  received.filter((m) => !(isObject(m) && m["method"] !== undefined)).length;

// ---------------------------------------------------------------------------------------------
// The test's end of a connection

/** One write: a value (sent as is in memory, as one JSON line on stdio) or raw bytes (stdio only). */
interface Outgoing {
  readonly value?: unknown;
  readonly raw?: string | Uint8Array;
}

interface Wire {
  readonly received: unknown[];
  send(o: Outgoing): void;
  close(): Promise<void>;
}

/** An in-memory pair: objects go across as they are, including non-JSON-RPC values. */
async function memoryWire(connect: (t: Transport) => Promise<void>): Promise<Wire> {
  const [mine, theirs] = createInMemoryTransportPair();
  const received: unknown[] = [];
  mine.onmessage = (m) => received.push(m);
  await mine.start();
  await connect(theirs);
  return {
    received,
    send(o) {
      if (!("value" in o)) throw new Error("raw text needs the stdio wire");
      mine.send(o.value as JsonRpcMessage).catch((e: unknown) => received.push({ sendFailed: String(e) }));
    },
    close: () => mine.close(),
  };
}

/** StdioServerTransport on PassThrough streams: the test writes arbitrary bytes and reads lines. */
async function stdioWire(connect: (t: Transport) => Promise<void>): Promise<Wire & { unparsable: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const received: unknown[] = [];
  const unparsable: string[] = [];
  let buffered = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      try {
        received.push(JSON.parse(line));
      } catch {
        unparsable.push(line);
      }
    }
  });
  await connect(new StdioServerTransport(input, output));
  return {
    received,
    unparsable,
    send: (o) => void input.write(o.raw ?? `${JSON.stringify(o.value)}\n`),
    close: async () => void input.end(),
  };
}

// ---------------------------------------------------------------------------------------------
// The server under attack

interface Target {
  server: Server;
  errors: Error[];
  slow: ReturnType<typeof gate>;
}

function target(): Target {
  const errors: Error[] = [];
  const slow = gate();
  const server = createServer({
    serverInfo: { name: "hostile-target", version: "1.0.0" },
    handlers: {
      listTools: () => ({
        tools: ["count", "echo-text", "slow", "throw"].map((name) => ({ name, inputSchema: { type: "object" } })),
      }),
      callTool: async (params) => {
        switch (params.name) {
          case "slow":
            await slow.wait;
            return { content: [{ type: "text", text: "slow done" }] };
          case "throw":
            throw new Error("a secret the client must never see");
          case "echo-text":
            return { content: [{ type: "text", text: String(params.arguments?.["text"]) }] };
          default:
            return { content: [{ type: "text", text: `${Object.keys(params.arguments ?? {}).length} argument(s)` }] };
        }
      },
      listPrompts: () => ({ prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }] }),
      getPrompt: (params) => ({
        messages: [{ role: "user", content: { type: "text", text: `hello ${params.arguments?.["who"] ?? ""}` } }],
      }),
    },
    onError: (e) => errors.push(e),
  });
  return { server, errors, slow };
}

const INITIALIZE = {
  protocolVersion: "2025-11-25",
  // Roots, so that the server may ask for them (the rule that it asks only a client that declared them).
  capabilities: { roots: {} },
  clientInfo: { name: "hostile-client", version: "0.0.0" },
};

/** Problems the peer may report through onError without anything being wrong with it. */
function unexpectedReports(errors: readonly Error[]): string[] {
  return errors
    .filter(
      (e) =>
        !(e instanceof SyntaxError) &&
        !(e instanceof RpcError) &&
        !/^a response to no pending request/.test(e.message) &&
        !/^listener fails on purpose/.test(e.message),
    )
    .map((e) => `${e.name}: ${e.message}`);
}

// ---------------------------------------------------------------------------------------------
// Message makers: each builds its messages with fresh ids and says what must come back

interface Env {
  /** Has the server seen `initialize`? */
  readonly initialized: boolean;
  readonly channel: "memory" | "stdio";
  readonly ids: Ids;
}

class Ids {
  private n = 1000;
  num(): number {
    return this.n++;
  }
  str(): string {
    return `s-${this.n++}`;
  }
  any(asString: boolean): RequestId {
    return asString ? this.str() : this.num();
  }
}

interface Built {
  readonly send: readonly Outgoing[];
  readonly expect: readonly Expectation[];
  /** Messages this counts as (default: one per write). */
  readonly messages?: number;
}

/** undefined: the maker does not apply to this channel or server state. */
type Maker = (env: Env) => Built | undefined;

const one = (value: unknown, ...expectations: Expectation[]): Built => ({ send: [{ value }], expect: expectations });

/** A request the target answers when initialized; `outcome` is its result or error code then. */
interface ValidCall {
  readonly method: string;
  readonly params?: JsonObject;
  readonly outcome: "result" | number;
  readonly check?: ResultCheck;
}

const textOf = (result: unknown): string | undefined => {
  const content = isObject(result) ? result["content"] : undefined;
  const first = Array.isArray(content) ? (content[0] as unknown) : undefined;
  return isObject(first) && typeof first["text"] === "string" ? first["text"] : undefined;
};
const textIs =
  (text: string): ResultCheck =>
  (result) =>
    textOf(result) === text ? undefined : `expected text ${short(text)}, got ${short(textOf(result))}`;

const VALID_CALLS: readonly ValidCall[] = [
  { method: "ping", outcome: "result" },
  {
    method: "tools/list",
    outcome: "result",
    check: (r) => (isObject(r) && Array.isArray(r["tools"]) && r["tools"].length === 4 ? undefined : "4 tools"),
  },
  { method: "tools/list", params: { cursor: "page-2" }, outcome: "result" },
  {
    method: "tools/call",
    params: { name: "count", arguments: { a: 1, b: [2], c: { d: null } } },
    outcome: "result",
    check: textIs("3 argument(s)"),
  },
  { method: "tools/call", params: { name: "throw" }, outcome: INTERNAL_ERROR },
  { method: "prompts/list", outcome: "result" },
  { method: "prompts/get", params: { name: "greet", arguments: { who: "you" } }, outcome: "result" },
  { method: "logging/setLevel", params: { level: "warning" }, outcome: "result" },
  { method: "resources/subscribe", params: { uri: "file:///tmp/x" }, outcome: "result" },
  // Methods of the revision this server has no handler for.
  { method: "resources/list", outcome: METHOD_NOT_FOUND },
  {
    method: "completion/complete",
    params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "" } },
    outcome: METHOD_NOT_FOUND,
  },
  { method: "tasks/list", outcome: METHOD_NOT_FOUND },
];

/** What a valid call gets: before `initialize` only `ping` is served, the rest is -32600. */
function validOutcome(call: ValidCall, id: RequestId, env: Env): Expectation {
  const outcome = env.initialized || call.method === "ping" ? call.outcome : INVALID_REQUEST;
  if (outcome === "result") return { kind: "result", id, ...(call.check ? { check: call.check } : {}) };
  return { kind: "error", id, code: outcome, ...(outcome === INTERNAL_ERROR ? { detail: "internal" as const } : {}) };
}

const validCallArb = fc.constantFrom(...VALID_CALLS);
const KNOWN_REQUESTS = new Set<string>(CLIENT_REQUEST_METHODS);

const nonObjectArb: fc.Arbitrary<Maker> = fc
  .oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 12 }),
    fc.boolean(),
    fc.constant(null),
  )
  .map((value) => () => one(value, { kind: "idless", code: INVALID_REQUEST }));

/** Arrays: this revision has no batches; nothing inside one is executed. */
const batchArb: fc.Arbitrary<Maker> = fc
  .array(
    fc.oneof(
      fc.constant({ tag: "request" as const }),
      fc.constant({ tag: "notification" as const }),
      fc.jsonValue({ maxDepth: 2 }).map((v) => ({ tag: "value" as const, v })),
    ),
    { maxLength: 4 },
  )
  .map((items) => (env) => {
    const silent: Expectation[] = [];
    const batch = items.map((item) => {
      if (item.tag === "value") return item.v;
      if (item.tag === "notification") return { jsonrpc: "2.0", method: "notifications/roots/list_changed" };
      const id = env.ids.num();
      silent.push({ kind: "silent", id });
      return request(id, "ping");
    });
    return one(batch, { kind: "idless", code: INVALID_REQUEST }, ...silent);
  });

const MISSING = Symbol("missing");
const wrongJsonrpcArb: fc.Arbitrary<Maker> = fc
  .tuple(
    fc.constantFrom<unknown>(MISSING, "1.0", "2", 2, null, "2.0 ", " 2.0", ["2.0"], {}, true, ""),
    validCallArb,
    fc.boolean(),
  )
  .map(([jsonrpc, call, asString]) => (env) => {
    const id = env.ids.any(asString);
    const m = request(id, call.method, call.params);
    if (jsonrpc === MISSING) delete m["jsonrpc"];
    else m["jsonrpc"] = jsonrpc;
    return one(m, { kind: "error", id, code: INVALID_REQUEST });
  });

/** Ids that are not a string or an integer. A fractional id is echoed (it is a JSON number). */
const badIdArb: fc.Arbitrary<Maker> = fc
  .tuple(fc.constantFrom<unknown>(null, {}, [], true, false, { id: 1 }, [1], "fraction"), validCallArb)
  .map(([bad, call]) => (env) => {
    if (bad === "fraction") {
      const id = env.ids.num() + 0.5;
      return one(request(id, call.method, call.params), { kind: "error", id, code: INVALID_REQUEST });
    }
    return one(request(bad, call.method, call.params), { kind: "idless", code: INVALID_REQUEST });
  });

const unknownMethodArb: fc.Arbitrary<Maker> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(
        "__proto__",
        "constructor",
        "toString",
        "valueOf",
        "hasOwnProperty",
        "tools/lis",
        "TOOLS/LIST",
        "tools/list ",
        "",
        "notifications/initialized",
        "notifications/cancelled",
        "sampling/createMessage",
        "roots/list",
        "elicitation/create",
        "server/discover",
        "rpc.discover",
      ),
      fc.string({ maxLength: 24 }),
    ),
    fc.boolean(),
    fc.boolean(),
  )
  .filter(([method]) => !KNOWN_REQUESTS.has(method))
  .map(([method, withParams, asString]) => (env) => {
    const id = env.ids.any(asString);
    return one(request(id, method, withParams ? {} : undefined), { kind: "error", id, code: METHOD_NOT_FOUND });
  });

/** Params of a known method with a wrong type somewhere: -32602, with the validator's issues. */
const WRONG_PARAMS: readonly (readonly [string, JsonObject])[] = [
  ["tools/call", {}],
  ["tools/call", { name: "count", task: { ttl: "long" } }],
  ["tools/list", { _meta: "x" }],
  ["tools/list", { _meta: { progressToken: {} } }],
  ["prompts/get", { name: "greet", arguments: { who: 5 } }],
  ["resources/read", {}],
  ["resources/read", { uri: "not a uri" }],
  ["logging/setLevel", { level: "loudest" }],
  ["logging/setLevel", {}],
  ["initialize", { ...INITIALIZE, protocolVersion: 5 }],
  ["initialize", {}],
  ["completion/complete", { ref: { type: "ref/nope" }, argument: { name: "a", value: "b" } }],
  ["ping", { _meta: [] }],
  ["resources/subscribe", { uri: ["x"] }],
  ["tasks/get", { taskId: 1 }],
];
const wrongTypeArb = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);
const wrongParamsArb: fc.Arbitrary<Maker> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...WRONG_PARAMS),
      wrongTypeArb.map((v) => ["tools/call", { name: v }] as const),
      wrongTypeArb.map((v) => ["prompts/get", { name: v }] as const),
      wrongTypeArb.map((v) => ["resources/read", { uri: v }] as const),
      wrongTypeArb.map((v) => ["tools/list", { cursor: v }] as const),
      wrongTypeArb.filter((v) => !isObject(v)).map((v) => ["tools/call", { name: "count", arguments: v }] as const),
    ),
    fc.boolean(),
  )
  .map(([[method, params], asString]) => (env) => {
    const id = env.ids.any(asString);
    return one(request(id, method, params), { kind: "error", id, code: INVALID_PARAMS, detail: "issues" });
  });

/** `params` that is not an object breaks the message envelope: -32600. */
const paramsNotObjectArb: fc.Arbitrary<Maker> = fc
  .tuple(fc.constantFrom<unknown>(null, [], "x", 5, true, [1, 2]), validCallArb)
  .map(([params, call]) => (env) => {
    const id = env.ids.num();
    return one(request(id, call.method, params), { kind: "error", id, code: INVALID_REQUEST });
  });

const validArb: fc.Arbitrary<Maker> = fc.tuple(validCallArb, fc.boolean()).map(([call, asString]) => (env) => {
  const id = env.ids.any(asString);
  return one(request(id, call.method, call.params), validOutcome(call, id, env));
});

/** Notifications (valid, unknown, malformed) get no answer. Request ids named here never exist. */
const notificationArb: fc.Arbitrary<Maker> = fc
  .oneof(
    fc.string({ maxLength: 24 }).map((method) => ({ jsonrpc: "2.0", method }) as JsonObject),
    fc.constantFrom<JsonObject>(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: {} } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: -1, reason: 5 } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "never-1" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "never", progress: "x" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: -5, progress: 1 } },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { _meta: 5 } },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed", params: [] },
      { jsonrpc: "1.0", method: "notifications/roots/list_changed" },
      { method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ),
  )
  // A bare notifications/initialized would change the state of the server that never saw
  // `initialize` (see the test "a bare notifications/initialized ..." below).
  .map((m) => (env) => (!env.initialized && m["method"] === "notifications/initialized" ? undefined : one(m)));

/** A request method without an id is a notification the server does not know: no answer. */
const missingIdArb: fc.Arbitrary<Maker> = validCallArb.map((call) => () => {
  const m = request(undefined, call.method, call.params);
  delete m["id"];
  return one(m);
});

/** A `method` that is not a string: invalid request; with a usable id, answered with that id. */
const nonStringMethodArb: fc.Arbitrary<Maker> = fc
  .tuple(fc.constantFrom<unknown>(5, null, {}, [], true), fc.boolean())
  .map(([method, withId]) => (env) => {
    if (!withId) return one({ jsonrpc: "2.0", method }, { kind: "idless", code: INVALID_REQUEST });
    const id = env.ids.num();
    return one(request(id, method), { kind: "error", id, code: INVALID_REQUEST });
  });

/** Responses to requests the server never sent: never answered. */
const responseLikeArb: fc.Arbitrary<Maker> = fc
  .tuple(
    fc.oneof(
      fc.integer({ max: -1 }),
      fc.string({ maxLength: 8 }).map((s) => `never-${s}`),
      fc.constant(null),
      fc.constant(MISSING),
    ),
    fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((result) => ({ result })),
      fc.jsonValue({ maxDepth: 2 }).map((error) => ({ error })),
      fc.constant({ error: { code: -32603, message: "you failed" } }),
    ),
  )
  .map(
    ([id, body]) =>
      () =>
        one(id === MISSING ? { jsonrpc: "2.0", ...body } : { jsonrpc: "2.0", id, ...body }),
  );

/** Objects with neither method, result nor error. */
const emptyishArb: fc.Arbitrary<Maker> = fc.constantFrom("{}", "jsonrpc", "id", "params").map((what) => (env) => {
  if (what === "{}") return one({}, { kind: "idless", code: INVALID_REQUEST });
  if (what === "jsonrpc") return one({ jsonrpc: "2.0" }, { kind: "idless", code: INVALID_REQUEST });
  const id = env.ids.num();
  const m: JsonObject = what === "id" ? { jsonrpc: "2.0", id } : { jsonrpc: "2.0", id, params: {} };
  return one(m, { kind: "error", id, code: INVALID_REQUEST });
});

/** `__proto__` (and friends) as own keys, as JSON.parse makes them: read as plain data, never as prototypes. */
const PROTO_CASES: readonly (readonly [string, (id: RequestId, env: Env) => Expectation[]])[] = [
  [
    '{"__proto__":{"jsonrpc":"2.0","id":ID,"method":"ping"}}',
    (id) => [
      { kind: "idless", code: INVALID_REQUEST },
      { kind: "silent", id },
    ],
  ],
  [
    '{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"__proto__":{"name":"count"}}}',
    (id) => [{ kind: "error", id, code: INVALID_PARAMS, detail: "issues" }],
  ],
  [
    '{"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"count","arguments":{"__proto__":{"polluted":true}}}}',
    (id, env) => [validOutcome({ method: "tools/call", outcome: "result", check: textIs("1 argument(s)") }, id, env)],
  ],
  [
    '{"jsonrpc":"2.0","id":ID,"method":"tools/list","params":{"_meta":{"__proto__":{"progressToken":1}}}}',
    (id, env) => [validOutcome({ method: "tools/list", outcome: "result" }, id, env)],
  ],
  ['{"jsonrpc":"2.0","id":ID,"__proto__":{"method":"ping"}}', (id) => [{ kind: "error", id, code: INVALID_REQUEST }]],
  ['{"jsonrpc":"2.0","id":ID,"method":"ping","__proto__":{"jsonrpc":"1.0"}}', (id) => [{ kind: "result", id }]],
  [
    '{"jsonrpc":"2.0","id":ID,"method":"prompts/get","params":{"name":"greet","arguments":{"__proto__":"x","constructor":"y","toString":"z"}}}',
    (id, env) => [validOutcome({ method: "prompts/get", outcome: "result" }, id, env)],
  ],
  [
    '{"jsonrpc":"2.0","id":ID,"method":"constructor","params":{}}',
    (id) => [{ kind: "error", id, code: METHOD_NOT_FOUND }],
  ],
];
const protoArb: fc.Arbitrary<Maker> = fc.constantFrom(...PROTO_CASES).map(([text, expectations]) => (env) => {
  const id = env.ids.num();
  const value: unknown = JSON.parse(text.replace("ID", String(id)));
  return one(value, ...expectations(id, env));
});

/** Two concurrent requests with one id: the second is refused (-32600), the first still answered. */
const duplicateArb: fc.Arbitrary<Maker> = fc.tuple(validCallArb, fc.boolean()).map(([second, asString]) => (env) => {
  if (!env.initialized) return undefined; // the first one must be in flight: the slow tool
  const id = env.ids.any(asString);
  return {
    send: [
      { value: request(id, "tools/call", { name: "slow" }) },
      { value: request(id, second.method, second.params) },
    ],
    expect: [
      { kind: "result", id, gated: true, check: textIs("slow done") },
      { kind: "error", id, code: INVALID_REQUEST },
    ],
  };
});

/** A request the client cancels is not answered. */
const cancelledArb: fc.Arbitrary<Maker> = fc.boolean().map((asString) => (env) => {
  if (!env.initialized) return undefined;
  const id = env.ids.any(asString);
  return {
    send: [
      { value: request(id, "tools/call", { name: "slow" }) },
      { value: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "hostile" } } },
    ],
    expect: [{ kind: "silent", id }],
  };
});

/** 7 and "7" are different ids. */
const stringVsNumberArb: fc.Arbitrary<Maker> = fc.constant((env: Env) => {
  const n = env.ids.num();
  return {
    send: [{ value: request(n, "ping") }, { value: request(String(n), "ping") }],
    expect: [
      { kind: "result", id: n },
      { kind: "result", id: String(n) },
    ],
  };
});

const objectMakers: fc.Arbitrary<Maker> = fc.oneof(
  { weight: 3, arbitrary: nonObjectArb },
  { weight: 2, arbitrary: batchArb },
  { weight: 4, arbitrary: wrongJsonrpcArb },
  { weight: 3, arbitrary: badIdArb },
  { weight: 5, arbitrary: unknownMethodArb },
  { weight: 8, arbitrary: wrongParamsArb },
  { weight: 3, arbitrary: paramsNotObjectArb },
  { weight: 8, arbitrary: validArb },
  { weight: 4, arbitrary: notificationArb },
  { weight: 1, arbitrary: missingIdArb },
  { weight: 2, arbitrary: nonStringMethodArb },
  { weight: 3, arbitrary: responseLikeArb },
  { weight: 2, arbitrary: emptyishArb },
  { weight: 2, arbitrary: protoArb },
  { weight: 2, arbitrary: duplicateArb },
  { weight: 1, arbitrary: cancelledArb },
  { weight: 1, arbitrary: stringVsNumberArb },
);

// Raw text, for the stdio line protocol only.

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const SAMPLE_LINES = [
  JSON.stringify(request(1, "tools/call", { name: "count", arguments: { a: [1, 2, { b: "c" }] } })),
  JSON.stringify(request("abc", "prompts/get", { name: "greet", arguments: { who: "w" } })),
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
];

/** Unparsable lines: a parse error without id, and the session goes on. */
const badJsonArb: fc.Arbitrary<Maker> = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.tuple(fc.constantFrom(...SAMPLE_LINES), fc.nat()).map(([line, k]) => line.slice(0, k % line.length)),
    fc.constantFrom(
      "{",
      "}",
      "[",
      "{'a':1}",
      '{"jsonrpc":"2.0",}',
      "nul",
      "tru",
      "01",
      "1.",
      "+1",
      ".5",
      "NaN",
      "Infinity",
      "undefined",
      '{"a":1}{"b":2}',
      "\uFEFF{}",
      '"unterminated',
      '{"a" 1}',
      "[1,]",
      "\u0000",
    ),
  )
  .filter((t) => !t.includes("\n") && !t.includes("\r") && t.trim() !== "" && !parses(t))
  .map(
    (text) => (env) =>
      env.channel === "stdio"
        ? { send: [{ raw: `${text}\n` }], expect: [{ kind: "idless", code: PARSE_ERROR }] }
        : undefined,
  );

/** Blank lines are skipped. */
const blankArb: fc.Arbitrary<Maker> = fc
  .constantFrom("", " ", "\t", "  \t ", "\r")
  .map((text) => (env) => (env.channel === "stdio" ? { send: [{ raw: `${text}\n` }], expect: [] } : undefined));

/** CRLF line ends, a byte order mark (not JSON whitespace), several messages in one write. */
const framingArb: fc.Arbitrary<Maker> = fc
  .tuple(fc.constantFrom("crlf", "bom", "together"), fc.array(validCallArb, { minLength: 1, maxLength: 4 }))
  .map(([how, calls]) => (env) => {
    if (env.channel !== "stdio") return undefined;
    const ids = calls.map(() => env.ids.num());
    const lines = calls.map((call, i) => JSON.stringify(request(ids[i], call.method, call.params)));
    if (how === "crlf") {
      const [call] = calls as [ValidCall];
      return { send: [{ raw: `${lines[0]}\r\n` }], expect: [validOutcome(call, ids[0] as number, env)] };
    }
    if (how === "bom") {
      const id = ids[0] as number;
      return {
        send: [{ raw: `\uFEFF${lines[0]}\n` }],
        expect: [
          { kind: "idless", code: PARSE_ERROR },
          { kind: "silent", id },
        ],
      };
    }
    return {
      send: [{ raw: lines.map((l) => `${l}\n`).join("") }],
      expect: calls.map((call, i) => validOutcome(call, ids[i] as number, env)),
      messages: calls.length,
    };
  });

/** One message in many small writes, cut inside multi-byte UTF-8 characters. */
const SPLIT_TEXT = "héllo wörld 🎉 ✓ ありがとう";
const splitArb: fc.Arbitrary<Maker> = fc
  .array(fc.integer({ min: 1, max: 7 }), { minLength: 40, maxLength: 40 })
  .map((sizes) => (env) => {
    if (env.channel !== "stdio" || !env.initialized) return undefined;
    const id = env.ids.num();
    const bytes = Buffer.from(
      `${JSON.stringify(request(id, "tools/call", { name: "echo-text", arguments: { text: SPLIT_TEXT } }))}\n`,
    );
    const send: Outgoing[] = [];
    let at = 0;
    for (let i = 0; at < bytes.length; i++) {
      const size = sizes[i % sizes.length] as number;
      send.push({ raw: bytes.subarray(at, at + size) });
      at += size;
    }
    return { send, expect: [{ kind: "result", id, check: textIs(SPLIT_TEXT) }], messages: 1 };
  });

const textMakers: fc.Arbitrary<Maker> = fc.oneof(
  { weight: 12, arbitrary: objectMakers },
  { weight: 6, arbitrary: badJsonArb },
  { weight: 1, arbitrary: blankArb },
  { weight: 2, arbitrary: framingArb },
  { weight: 1, arbitrary: splitArb },
);

/** `messages` messages from the makers, deterministically (fixed seed). */
function generate(arb: fc.Arbitrary<Maker>, env: Env, messages: number, seed: number): Built[] {
  const out: Built[] = [];
  let count = 0;
  for (const make of fc.sample(arb, { numRuns: messages * 2, seed })) {
    if (count >= messages) break;
    const built = make(env);
    if (built === undefined) continue;
    out.push(built);
    count += built.messages ?? built.send.length;
  }
  if (count < messages) throw new Error(`generated only ${count} of ${messages} messages`);
  return out;
}

/** Huge and deep messages, as values (memory) and as text (stdio, never through JSON.stringify). */
function heavy(env: Env): Built[] {
  const out: Built[] = [];
  const add = (value: unknown, raw: string, ...expectations: Expectation[]) =>
    out.push({ send: [env.channel === "memory" ? { value } : { raw: `${raw}\n` }], expect: expectations });
  const valid = (call: ValidCall, id: RequestId) => validOutcome(call, id, env);
  let id = env.ids.num();
  // A 4 MB string argument.
  const big = "x".repeat(4 * MB);
  const bigCall = request(id, "tools/call", { name: "count", arguments: { blob: big } });
  add(
    bigCall,
    JSON.stringify(bigCall),
    valid({ method: "tools/call", outcome: "result", check: textIs("1 argument(s)") }, id),
  );
  // A 1 MB method name, and a 1 MB string id.
  id = env.ids.num();
  const bigMethod = request(id, "m".repeat(MB));
  add(bigMethod, JSON.stringify(bigMethod), { kind: "error", id, code: METHOD_NOT_FOUND });
  const bigId = `${env.ids.str()}-${"i".repeat(MB)}`;
  add(request(bigId, "ping"), JSON.stringify(request(bigId, "ping")), { kind: "result", id: bigId });
  // 100,000 levels in an untyped position (an argument value, _meta): served.
  id = env.ids.num();
  add(
    request(id, "tools/call", { name: "count", arguments: { deep: nestArrays(DEEP) } }),
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{"deep":${deepArraysText(DEEP)}}}}`,
    valid({ method: "tools/call", outcome: "result", check: textIs("1 argument(s)") }, id),
  );
  id = env.ids.num();
  add(
    request(id, "tools/list", { _meta: { deep: nestObjects(DEEP) } }),
    `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":{"deep":${deepObjectsText(DEEP)}}}}`,
    valid({ method: "tools/list", outcome: "result" }, id),
  );
  // 100,000 levels in typed positions: the tool name, the arguments, the params, the id, the message.
  id = env.ids.num();
  add(
    request(id, "tools/call", { name: nestArrays(DEEP) }),
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${deepArraysText(DEEP)}}}`,
    { kind: "error", id, code: INVALID_PARAMS, detail: "issues" },
  );
  id = env.ids.num();
  add(
    request(id, "tools/call", { name: "count", arguments: nestArrays(DEEP) }),
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":${deepArraysText(DEEP)}}}`,
    { kind: "error", id, code: INVALID_PARAMS, detail: "issues" },
  );
  id = env.ids.num();
  add(
    request(id, "tools/list", nestArrays(DEEP)),
    `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":${deepArraysText(DEEP)}}`,
    { kind: "error", id, code: INVALID_REQUEST },
  );
  add(request(nestArrays(DEEP), "ping"), `{"jsonrpc":"2.0","id":${deepArraysText(DEEP)},"method":"ping"}`, {
    kind: "idless",
    code: INVALID_REQUEST,
  });
  add(nestArrays(DEEP), deepArraysText(DEEP), { kind: "idless", code: INVALID_REQUEST });
  // 100,000 arguments.
  id = env.ids.num();
  const many: JsonObject = {};
  for (let i = 0; i < 100_000; i++) many[`k${i}`] = i;
  const manyCall = request(id, "tools/call", { name: "count", arguments: many });
  add(
    manyCall,
    JSON.stringify(manyCall),
    valid({ method: "tools/call", outcome: "result", check: textIs("100000 argument(s)") }, id),
  );
  // A batch of 10,000 requests: refused as a whole, none of them executed.
  const ids = Array.from({ length: 10_000 }, () => env.ids.num());
  const batch = ids.map((i) => request(i, "ping"));
  add(
    batch,
    JSON.stringify(batch),
    { kind: "idless", code: INVALID_REQUEST },
    ...ids.map((i): Expectation => ({ kind: "silent", id: i })),
  );
  return out;
}

/** Sends everything, opens the slow tool's gate once all other answers are in, and checks. */
async function barrage(wire: Wire, t: Target, built: readonly Built[], kinds: readonly string[]): Promise<string[]> {
  const ledger = new Ledger();
  for (const b of built) {
    for (const o of b.send) wire.send(o);
    for (const e of b.expect) ledger.add(e);
  }
  await until(() => responsesIn(wire.received) >= ledger.expected - ledger.gated);
  t.slow.open();
  await until(() => responsesIn(wire.received) >= ledger.expected);
  await settle();
  // The barrage covers every kind of answer it is meant to (not a vacuous pass).
  expect(Object.keys(ledger.summary()).sort()).toEqual([...kinds].sort());
  return ledger.check(wire.received);
}

const SERVED = ["result", "gated result", "silent", "idless -32600"].concat(
  [INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR].map((c) => `error ${c}`),
);

/** A valid request after the barrage, answered correctly. */
async function stillServes(wire: Wire, id: RequestId): Promise<void> {
  const before = wire.received.length;
  wire.send({ value: request(id, "tools/list") });
  await until(() => wire.received.slice(before).some((m) => isObject(m) && m["id"] === id));
  const answer = wire.received.slice(before).find((m) => isObject(m) && m["id"] === id);
  expect(answer).toEqual({
    jsonrpc: "2.0",
    id,
    result: {
      tools: ["count", "echo-text", "slow", "throw"].map((name) => ({ name, inputSchema: { type: "object" } })),
    },
  });
}

async function initialize(wire: Wire): Promise<void> {
  wire.send({ value: request("init", "initialize", INITIALIZE) });
  wire.send({ value: { jsonrpc: "2.0", method: "notifications/initialized" } });
  await until(() => wire.received.some((m) => isObject(m) && m["id"] === "init"));
  const answer = wire.received.find((m) => isObject(m) && m["id"] === "init");
  expect(answer).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  wire.received.length = 0;
}

// ---------------------------------------------------------------------------------------------
// The server

describe("the generated server under 10,000 hostile messages", () => {
  const counts = { memory: 5_500, uninitialized: 1_000, stdio: 3_500 };

  it("has 10,000 generated messages to send, deterministically", () => {
    expect(counts.memory + counts.uninitialized + counts.stdio).toBe(10_000);
    const env = (): Env => ({ initialized: true, channel: "memory", ids: new Ids() });
    const render = (b: Built[]) => JSON.stringify(b.map((x) => x.send.map((o) => o.value)));
    expect(render(generate(objectMakers, env(), 200, 1))).toBe(render(generate(objectMakers, env(), 200, 1)));
  });

  it("over an in-memory transport: every request gets its one right answer, the rest none", async () => {
    const t = target();
    const wire = await memoryWire((transport) => t.server.connect(transport));
    await initialize(wire);
    const env: Env = { initialized: true, channel: "memory", ids: new Ids() };
    const built = [...generate(objectMakers, env, counts.memory, 0x2025_1125), ...heavy(env)];
    expect(await barrage(wire, t, built, SERVED)).toEqual([]);
    await stillServes(wire, "after-the-barrage");
    expect(unexpectedReports(t.errors)).toEqual([]);
    await expectNoFallout();
    await t.server.close();
  });

  it("before initialize: only ping is served, everything else is refused with the right code", async () => {
    const t = target();
    const wire = await memoryWire((transport) => t.server.connect(transport));
    const env: Env = { initialized: false, channel: "memory", ids: new Ids() };
    const built = [...generate(objectMakers, env, counts.uninitialized, 0x0b00), ...heavy(env)];
    // Nothing reaches a handler, so there is no internal error and nothing waits for the slow tool.
    const refused = SERVED.filter((k) => k !== "gated result" && k !== `error ${INTERNAL_ERROR}`);
    expect(await barrage(wire, t, built, refused)).toEqual([]);
    expect(unexpectedReports(t.errors)).toEqual([]);
    // Still not initialized; then a handshake works.
    wire.received.length = 0;
    wire.send({ value: request("early", "tools/list") });
    await until(() => wire.received.length > 0);
    expect(wire.received).toEqual([
      { jsonrpc: "2.0", id: "early", error: { code: INVALID_REQUEST, message: expect.any(String) } },
    ]);
    wire.received.length = 0;
    await initialize(wire);
    await stillServes(wire, "after-initialize");
    await expectNoFallout();
    await t.server.close();
  });

  it("over the stdio line protocol: raw bad JSON, framing, split writes, huge and deep lines", async () => {
    const t = target();
    const wire = await stdioWire((transport) => t.server.connect(transport));
    await initialize(wire);
    const env: Env = { initialized: true, channel: "stdio", ids: new Ids() };
    const built = [...generate(textMakers, env, counts.stdio, 0x57d10), ...heavy(env)];
    expect(await barrage(wire, t, built, [...SERVED, `idless ${PARSE_ERROR}`])).toEqual([]);
    expect(wire.unparsable).toEqual([]);
    await stillServes(wire, "after-the-barrage");
    expect(unexpectedReports(t.errors)).toEqual([]);
    await expectNoFallout();
    await t.server.close();
  });

  it("a hostile answer to the server's own request rejects it with a typed error, not a crash", async () => {
    const errors: Error[] = [];
    const outcomes: unknown[] = [];
    const server = createServer({
      serverInfo: { name: "asks-back", version: "1.0.0" },
      handlers: {
        callTool: async (_params, context) => {
          try {
            outcomes.push(await context.listRoots());
          } catch (error) {
            outcomes.push(error);
          }
          return { content: [{ type: "text", text: "asked" }] };
        },
      },
      onError: (e) => errors.push(e),
    });
    const wire = await memoryWire((transport) => server.connect(transport));
    await initialize(wire);
    const answers: unknown[] = [
      { roots: "none" }, // malformed result
      42, // not an object
      { roots: [{ uri: 5 }] },
    ];
    for (const [i, answer] of answers.entries()) {
      wire.send({ value: request(`call-${i}`, "tools/call", { name: "any" }) });
      await until(() => wire.received.some((m) => isObject(m) && m["method"] === "roots/list"));
      const asked = wire.received.find((m) => isObject(m) && m["method"] === "roots/list") as JsonObject;
      wire.received.splice(wire.received.indexOf(asked), 1);
      // Noise first: unknown ids, the id as the other type, an id-less error, then the answer.
      wire.send({ value: { jsonrpc: "2.0", id: 99_999, result: { roots: [] } } });
      wire.send({ value: { jsonrpc: "2.0", id: String(asked["id"]), result: { roots: [] } } });
      wire.send({ value: { jsonrpc: "2.0", error: { code: -32700, message: "noise" } } });
      wire.send({ value: { jsonrpc: "2.0", id: asked["id"], result: answer } });
      await until(() => wire.received.some((m) => isObject(m) && m["id"] === `call-${i}`));
    }
    expect(outcomes).toHaveLength(3);
    const paths = outcomes.map((o) => {
      expect(o).toBeInstanceOf(ResultValidationError);
      expect((o as ResultValidationError).method).toBe("roots/list");
      return (o as ResultValidationError).issues.map((i) => i.path);
    });
    expect(paths).toEqual([["/result/roots"], ["/result"], ["/result/roots/0/uri"]]);
    expect(unexpectedReports(errors)).toEqual([]);
    await expectNoFallout();
    await server.close();
  });

  // Lifecycle, serialization and framing edge cases.

  it("a bare notifications/initialized (no initialize request) does not unlock the server", async () => {
    const t = target();
    const wire = await memoryWire((transport) => t.server.connect(transport));
    wire.send({ value: { jsonrpc: "2.0", method: "notifications/initialized" } });
    wire.send({ value: request(1, "tools/list") });
    await until(() => wire.received.length > 0);
    expect(wire.received).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: INVALID_REQUEST, message: expect.any(String) } },
    ]);
    await t.server.close();
  });

  it("a request without its optional params reaches the handler with {}, as the handler's type says", async () => {
    const seen: unknown[] = [];
    const server = createServer({
      serverInfo: { name: "lister", version: "1.0.0" },
      handlers: {
        listTools: (params) => {
          seen.push(params, params.cursor);
          return { tools: [] };
        },
      },
    });
    const wire = await memoryWire((transport) => server.connect(transport));
    await initialize(wire);
    wire.send({ value: { jsonrpc: "2.0", id: "bare", method: "tools/list" } });
    await until(() => wire.received.some((m) => isObject(m) && m["id"] === "bare"));
    expect(wire.received.find((m) => isObject(m) && m["id"] === "bare")).toEqual({
      jsonrpc: "2.0",
      id: "bare",
      result: { tools: [] },
    });
    expect(seen).toEqual([{}, undefined]);
    await server.close();
  });

  it("a request whose answer cannot be serialized still gets an error response on stdio", async () => {
    const server = createServer({
      serverInfo: { name: "echoes", version: "1.0.0" },
      handlers: {
        // Echoes the arguments back as structured content: 100,000 levels cannot be stringified.
        callTool: (params) => ({ content: [], structuredContent: params.arguments ?? {} }),
      },
    });
    const wire = await stdioWire((transport) => server.connect(transport));
    await initialize(wire);
    wire.send({
      raw: `{"jsonrpc":"2.0","id":"deep-echo","method":"tools/call","params":{"name":"e","arguments":{"d":${deepObjectsText(DEEP)}}}}\n`,
    });
    wire.send({ value: request("after", "ping") });
    await until(() => wire.received.some((m) => isObject(m) && m["id"] === "after"));
    await settle(50);
    expect(wire.received.find((m) => isObject(m) && m["id"] === "deep-echo")).toMatchObject({
      error: { code: INTERNAL_ERROR },
    });
    await server.close();
  });

  it("a line over the 64 MiB limit is dropped whole: one parse error, nothing of its tail executed", async () => {
    const t = target();
    const wire = await stdioWire((transport) => t.server.connect(transport));
    await initialize(wire);
    // An over-long line in two writes; its second part happens to be a complete request.
    wire.send({ raw: `{"jsonrpc":"2.0","method":"notifications/x","params":{"s":"${"a".repeat(64 * MB)}` });
    await settle(20);
    wire.send({ raw: `{"jsonrpc":"2.0","id":"smuggled","method":"tools/call","params":{"name":"count"}}\n` });
    wire.send({ value: request("after", "ping") });
    await until(() => wire.received.some((m) => isObject(m) && m["id"] === "after"));
    await settle(20);
    expect(wire.received).toEqual([
      { jsonrpc: "2.0", error: { code: PARSE_ERROR, message: expect.any(String) } },
      { jsonrpc: "2.0", id: "after", result: {} },
    ]);
    await t.server.close();
  });
});

// ---------------------------------------------------------------------------------------------
// The client

/** The fake server's end: answers `initialize`, then does what the test says. */
async function fakeServer(handlers: ClientHandlers, extra: { onError(e: Error): void }) {
  const [clientEnd, fakeEnd] = createInMemoryTransportPair();
  const fromClient: unknown[] = [];
  fakeEnd.onmessage = (m) => fromClient.push(m);
  await fakeEnd.start();
  const client = createClient({
    transport: clientEnd,
    clientInfo: { name: "hostile-client-test", version: "1.0.0" },
    handlers,
    timeoutMs: 15_000,
    onError: extra.onError,
  });
  const send = (value: unknown) =>
    fakeEnd.send(value as JsonRpcMessage).catch((e: unknown) => fromClient.push({ sendFailed: String(e) }));
  const connecting = client.connect();
  await until(() => fromClient.some((m) => isObject(m) && m["method"] === "initialize"));
  const init = fromClient.find((m) => isObject(m) && m["method"] === "initialize") as JsonObject;
  void send({
    jsonrpc: "2.0",
    id: init["id"],
    result: {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {}, prompts: {}, resources: {}, logging: {}, completions: {} },
      serverInfo: { name: "fake", version: "0" },
    },
  });
  await connecting;
  fromClient.length = 0;
  return { client, fromClient, send };
}

interface ClientCall {
  readonly method: string;
  readonly call: (c: Client) => Promise<unknown>;
  readonly valid: unknown;
  /** Results that do not match the method's result type, and the path the issue names. */
  readonly malformed: readonly (readonly [unknown, string])[];
}

const CLIENT_CALLS: readonly ClientCall[] = [
  {
    method: "tools/list",
    call: (c) => c.listTools(),
    valid: { tools: [{ name: "t", inputSchema: { type: "object" } }] },
    malformed: [
      [{ tools: "nope" }, "/result/tools"],
      [{ tools: [{ name: 5, inputSchema: { type: "object" } }] }, "/result/tools/0/name"],
      [{ tools: [{ name: "a", inputSchema: { type: "array" } }] }, "/result/tools/0/inputSchema/type"],
    ],
  },
  {
    method: "tools/call",
    call: (c) => c.callTool({ name: "t", arguments: {} }),
    valid: { content: [{ type: "text", text: "ok" }], structuredContent: { any: ["thing", 1, null] } },
    // (An unknown content type is in the focused test below: its diagnostic depends on the union.)
    malformed: [
      [{ content: [{ type: "text" }] }, "/result/content/0/text"],
      [{ content: [{ type: "text", text: 5 }] }, "/result/content/0/text"],
      [{ content: "x" }, "/result/content"],
      [{}, "/result/content"],
    ],
  },
  {
    method: "prompts/get",
    call: (c) => c.getPrompt({ name: "p" }),
    valid: { messages: [{ role: "user", content: { type: "text", text: "hi" } }] },
    malformed: [[{ messages: [{ role: "robot", content: { type: "text", text: "x" } }] }, "/result/messages/0/role"]],
  },
  {
    method: "resources/read",
    call: (c) => c.readResource({ uri: "file:///x" }),
    valid: { contents: [{ uri: "file:///x", text: "x" }] },
    malformed: [
      [{ contents: [{ uri: 5, text: "x" }] }, "/result/contents/0/uri"],
      [{ contents: [{ uri: "file:///x" }] }, "/result/contents/0"],
    ],
  },
  {
    method: "ping",
    call: (c) => c.ping(),
    valid: {},
    malformed: [
      [42, "/result"],
      [null, "/result"],
      [[], "/result"],
      ["x", "/result"],
      [{ _meta: 5 }, "/result/_meta"],
    ],
  },
  {
    method: "completion/complete",
    call: (c) => c.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }),
    valid: { completion: { values: ["a", "b"] } },
    malformed: [
      [{ completion: { values: "x" } }, "/result/completion/values"],
      [{}, "/result/completion"],
    ],
  },
  {
    method: "resources/templates/list",
    call: (c) => c.listResourceTemplates(),
    valid: { resourceTemplates: [{ name: "t", uriTemplate: "file:///{path}" }] },
    malformed: [[{ resourceTemplates: [{ name: "t", uriTemplate: "{" }] }, "/result/resourceTemplates/0/uriTemplate"]],
  },
  {
    method: "resources/list",
    call: (c) => c.listResources(),
    valid: { resources: [{ uri: "file:///x", name: "x" }], nextCursor: "more" },
    malformed: [[{ resources: [{ uri: "not a uri", name: "n" }] }, "/result/resources/0/uri"]],
  },
  {
    method: "logging/setLevel",
    call: (c) => c.setLevel({ level: "info" }),
    valid: {},
    malformed: [[{ _meta: 5 }, "/result/_meta"]],
  },
  {
    method: "prompts/list",
    call: (c) => c.listPrompts(),
    valid: { prompts: [{ name: "p", arguments: [{ name: "a" }] }] },
    malformed: [[{ prompts: [{ name: "p", arguments: [{ name: 1 }] }] }, "/result/prompts/0/arguments/0/name"]],
  },
];

type Reply = "valid" | "malformed" | "rpcError" | "malformedError" | "noiseThenValid" | "twice" | "wrongEnvelope";
const MALFORMED_ERRORS: readonly unknown[] = [
  "boom",
  null,
  5,
  {},
  [],
  { code: "x", message: "m" },
  { code: 1 },
  { message: "m" },
];

interface PlannedCall {
  readonly call: ClientCall;
  readonly reply: Reply;
  readonly pick: number;
}

const plannedCallArb: fc.Arbitrary<PlannedCall> = fc.record({
  call: fc.constantFrom(...CLIENT_CALLS),
  reply: fc.constantFrom<Reply>(
    "valid",
    "malformed",
    "rpcError",
    "malformedError",
    "noiseThenValid",
    "twice",
    "wrongEnvelope",
  ),
  pick: fc.nat(),
});

/** What the fake server sends for one planned call, and the outcome the call must have. */
function reply(
  plan: PlannedCall,
  id: RequestId,
): { send: unknown[]; outcome: (settled: Settled) => string | undefined } {
  const { call, pick } = plan;
  const ok = (settled: Settled) =>
    settled.status === "fulfilled" && JSON.stringify(settled.value) === JSON.stringify(call.valid)
      ? undefined
      : `expected ${short(call.valid)}, got ${describeSettled(settled)}`;
  switch (plan.reply) {
    case "valid":
      return { send: [{ jsonrpc: "2.0", id, result: call.valid }], outcome: ok };
    case "malformed": {
      const [result, path] = call.malformed[pick % call.malformed.length] as readonly [unknown, string];
      return {
        send: [{ jsonrpc: "2.0", id, result }],
        outcome: (s) => {
          const e = s.status === "rejected" ? s.reason : undefined;
          const named =
            e instanceof ResultValidationError &&
            e.method === call.method &&
            e.issues.some((i) => i.path === path || i.path.startsWith(`${path}/`)) &&
            e.message.includes(path);
          return named ? undefined : `expected a ResultValidationError naming ${path}, got ${describeSettled(s)}`;
        },
      };
    }
    case "rpcError": {
      const error = { code: -32000 - (pick % 100), message: `refused ${pick}`, data: { pick } };
      return {
        send: [{ jsonrpc: "2.0", id, error }],
        outcome: (s) => {
          const e = s.status === "rejected" ? s.reason : undefined;
          const same =
            e instanceof RpcError &&
            !(e instanceof ResultValidationError) &&
            e.code === error.code &&
            e.message === error.message &&
            JSON.stringify(e.data) === JSON.stringify(error.data);
          return same ? undefined : `expected RpcError ${error.code}, got ${describeSettled(s)}`;
        },
      };
    }
    case "malformedError": {
      const error = MALFORMED_ERRORS[pick % MALFORMED_ERRORS.length];
      return {
        send: [{ jsonrpc: "2.0", id, error }],
        outcome: (s) => {
          const e = s.status === "rejected" ? s.reason : undefined;
          return e instanceof RpcError && e.code === INTERNAL_ERROR && /malformed error response/.test(e.message)
            ? undefined
            : `expected a malformed-error RpcError, got ${describeSettled(s)}`;
        },
      };
    }
    case "noiseThenValid":
      return {
        send: [
          { jsonrpc: "2.0", id: 900_000 + pick, result: call.valid }, // an id never used
          { jsonrpc: "2.0", id: typeof id === "number" ? String(id) : Number.NaN, result: call.valid }, // the other type
          { jsonrpc: "2.0", error: { code: -32700, message: "noise without id" } },
          { jsonrpc: "2.0", id: null, result: call.valid },
          { jsonrpc: "2.0", id, result: call.valid },
        ],
        outcome: ok,
      };
    case "twice":
      return {
        send: [
          { jsonrpc: "2.0", id, result: call.valid },
          { jsonrpc: "2.0", id, error: { code: -32000, message: "too late" } },
        ],
        outcome: ok,
      };
    case "wrongEnvelope":
      return {
        send: [{ jsonrpc: "1.0", id, result: call.valid }],
        outcome: (s) => {
          const e = s.status === "rejected" ? s.reason : undefined;
          return e instanceof ResultValidationError && e.issues.some((i) => i.path === "/jsonrpc")
            ? undefined
            : `expected a ResultValidationError naming /jsonrpc, got ${describeSettled(s)}`;
        },
      };
  }
}

type Settled =
  { status: "pending" } | { status: "fulfilled"; value: unknown } | { status: "rejected"; reason: unknown };
const describeSettled = (s: Settled) =>
  s.status === "fulfilled"
    ? `value ${short(s.value)}`
    : s.status === "rejected"
      ? `${(s.reason as Error)?.name}: ${short((s.reason as Error)?.message ?? s.reason)}`
      : "still pending";

function track(promise: Promise<unknown>): { settled: Settled } {
  const holder: { settled: Settled } = { settled: { status: "pending" } };
  promise.then(
    (value) => (holder.settled = { status: "fulfilled", value }),
    (reason: unknown) => (holder.settled = { status: "rejected", reason }),
  );
  return holder;
}

// Server → client garbage: what the client must answer (its responses go through a Ledger).

const KNOWN_SERVER_REQUESTS = new Set<string>(SERVER_REQUEST_METHODS);
const SAMPLING = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 };
const isCannedSample: ResultCheck = (r) =>
  isObject(r) && r["model"] === "hostile-test-model" ? undefined : "the createMessage handler's answer";

interface ServerCall {
  readonly method: string;
  readonly params?: JsonObject;
  readonly outcome: "result" | number;
  readonly check?: ResultCheck;
}
const SERVER_CALLS: readonly ServerCall[] = [
  { method: "ping", outcome: "result" },
  {
    method: "roots/list",
    outcome: "result",
    check: (r) => (JSON.stringify(r) === JSON.stringify({ roots: [{ uri: "file:///w" }] }) ? undefined : "the roots"),
  },
  { method: "sampling/createMessage", params: SAMPLING, outcome: "result", check: isCannedSample },
  // Requests of the revision this client has no handler for.
  {
    method: "elicitation/create",
    params: { message: "m", requestedSchema: { type: "object", properties: {} } },
    outcome: METHOD_NOT_FOUND,
  },
  { method: "tasks/get", params: { taskId: "t" }, outcome: METHOD_NOT_FOUND },
  { method: "tasks/list", outcome: METHOD_NOT_FOUND },
];
const SERVER_WRONG_PARAMS: readonly (readonly [string, JsonObject])[] = [
  ["sampling/createMessage", {}],
  ["sampling/createMessage", { ...SAMPLING, maxTokens: 1.5 }],
  ["sampling/createMessage", { messages: [{ role: "robot", content: { type: "text", text: "x" } }], maxTokens: 1 }],
  [
    "sampling/createMessage",
    { messages: [{ role: "user", content: { type: "text", text: nestArrays(DEEP) } }], maxTokens: 1 },
  ],
  ["roots/list", { _meta: 1 }],
  ["elicitation/create", { message: 5 }],
  ["ping", { _meta: [] }],
];

interface ClientEnv {
  readonly ids: Ids;
  /** valid notifications/message sent so far (the listener must see each). */
  logs: number;
}
type ServerBuilt = { send: unknown[]; expect: Expectation[] };
type ServerMaker = (env: ClientEnv) => ServerBuilt;

const serverGarbageArb: fc.Arbitrary<ServerMaker> = fc.oneof(
  nonObjectArb.map((m) => (): ServerBuilt => {
    const b = m({ initialized: true, channel: "memory", ids: new Ids() }) as Built;
    return { send: b.send.map((o) => o.value), expect: [...b.expect] };
  }),
  fc.tuple(fc.constantFrom(...SERVER_CALLS), fc.boolean()).map(([call, asString]) => (env: ClientEnv): ServerBuilt => {
    const id = env.ids.any(asString);
    const e: Expectation =
      call.outcome === "result"
        ? { kind: "result", id, ...(call.check ? { check: call.check } : {}) }
        : { kind: "error", id, code: call.outcome };
    return { send: [request(id, call.method, call.params)], expect: [e] };
  }),
  fc.constantFrom(...SERVER_WRONG_PARAMS).map(([method, params]) => (env: ClientEnv): ServerBuilt => {
    const id = env.ids.num();
    return {
      send: [request(id, method, params)],
      expect: [{ kind: "error", id, code: INVALID_PARAMS, detail: "issues" }],
    };
  }),
  fc
    .oneof(
      fc.constantFrom("tools/list", "tools/call", "initialize", "__proto__", "resources/read", "notifications/message"),
      fc.string({ maxLength: 16 }),
    )
    .filter((m) => !KNOWN_SERVER_REQUESTS.has(m))
    .map((method) => (env: ClientEnv): ServerBuilt => {
      const id = env.ids.num();
      return { send: [request(id, method, {})], expect: [{ kind: "error", id, code: METHOD_NOT_FOUND }] };
    }),
  fc.constantFrom<unknown>(MISSING, "1.0", 2, null).map((jsonrpc) => (env: ClientEnv): ServerBuilt => {
    const id = env.ids.num();
    const m = request(id, "ping");
    if (jsonrpc === MISSING) delete m["jsonrpc"];
    else m["jsonrpc"] = jsonrpc;
    return { send: [m], expect: [{ kind: "error", id, code: INVALID_REQUEST }] };
  }),
  fc.constantFrom<unknown>(null, {}, [], true).map((id) => (): ServerBuilt => ({
    send: [request(id, "ping")],
    expect: [{ kind: "idless", code: INVALID_REQUEST }],
  })),
  fc.constantFrom<unknown>(null, [], "x").map((params) => (env: ClientEnv): ServerBuilt => {
    const id = env.ids.num();
    return { send: [request(id, "roots/list", params)], expect: [{ kind: "error", id, code: INVALID_REQUEST }] };
  }),
  // Notifications: valid ones reach the listeners, the rest are dropped silently.
  fc
    .constantFrom<JsonObject>(
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { any: "thing" } } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "loud", data: 1 } },
      { jsonrpc: "2.0", method: "notifications/message", params: {} },
      { jsonrpc: "2.0", method: "notifications/unknown", params: {} },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: -1, progress: 1 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: {}, progress: 1 } },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "never" } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: 5 } },
    )
    .map((m) => (env: ClientEnv): ServerBuilt => {
      if (m["method"] === "notifications/message" && isObject(m["params"]) && m["params"]["level"] === "info")
        env.logs++;
      return { send: [m], expect: [] };
    }),
  // Responses to requests the client never sent.
  fc.tuple(fc.integer({ min: 1_000_000 }), fc.jsonValue({ maxDepth: 2 })).map(([id, result]) => (): ServerBuilt => ({
    send: [
      { jsonrpc: "2.0", id: -id, result },
      { jsonrpc: "2.0", id: `never-${id}`, error: result },
    ],
    expect: [],
  })),
  // Two concurrent requests with one id (the first is held by the slow handler), and a cancelled one.
  fc.boolean().map((cancel) => (env: ClientEnv): ServerBuilt => {
    const id = env.ids.num();
    const slow = request(id, "sampling/createMessage", { ...SAMPLING, systemPrompt: "slow" });
    return cancel
      ? {
          send: [slow, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }],
          expect: [{ kind: "silent", id }],
        }
      : {
          send: [slow, request(id, "ping")],
          expect: [
            { kind: "result", id, gated: true, check: isCannedSample },
            { kind: "error", id, code: INVALID_REQUEST },
          ],
        };
  }),
);

describe("the generated client against a hostile server", () => {
  it("settles every pending call with its value or a typed error, answers the server's garbage right, and keeps working", async () => {
    const errors: Error[] = [];
    const slow = gate();
    let cancelledSeen = 0;
    const { client, fromClient, send } = await fakeServer(
      {
        createMessage: async (params, context) => {
          if (params.systemPrompt === "slow") {
            await slow.wait;
            if (context.signal.aborted) cancelledSeen++;
          }
          return { role: "assistant", content: { type: "text", text: "canned" }, model: "hostile-test-model" };
        },
        listRoots: () => ({ roots: [{ uri: "file:///w" }] }),
      },
      { onError: (e) => errors.push(e) },
    );
    let logged = 0;
    client.on("notifications/message", () => logged++);

    // 300 concurrent calls, each answered its planned way, with 1,700 garbage messages in between.
    const plans = fc.sample(plannedCallArb, { numRuns: 300, seed: 0xc11e });
    const garbage = fc.sample(serverGarbageArb, { numRuns: 1_700, seed: 0x9a7b });
    const calls = plans.map((plan) => ({ plan, tracked: track(plan.call.call(client)) }));
    await until(
      () =>
        fromClient.filter((m) => isObject(m) && m["id"] !== undefined && m["method"] !== undefined).length >=
        plans.length,
    );
    const requests = fromClient.filter(
      (m): m is JsonObject => isObject(m) && m["method"] !== undefined && m["id"] !== undefined,
    );
    expect(requests.map((r) => r["method"])).toEqual(plans.map((p) => p.call.method));
    fromClient.length = 0;

    const ledger = new Ledger();
    const env: ClientEnv = { ids: new Ids(), logs: 0 };
    const outcomes: ((s: Settled) => string | undefined)[] = [];
    let sent = 0;
    for (const [i, plan] of plans.entries()) {
      const r = reply(plan, (requests[i] as JsonObject)["id"] as RequestId);
      outcomes.push(r.outcome);
      for (const m of r.send) void send(m);
      for (const make of garbage.slice(i * 6, i * 6 + 6)) {
        const g = make(env);
        for (const m of g.send) void send(m);
        for (const e of g.expect) ledger.add(e);
        sent += g.send.length;
      }
    }
    for (const make of garbage.slice(plans.length * 6)) {
      const g = make(env);
      for (const m of g.send) void send(m);
      for (const e of g.expect) ledger.add(e);
      sent += g.send.length;
    }
    expect(sent).toBeGreaterThanOrEqual(1_700);

    await until(
      () =>
        calls.every((c) => c.tracked.settled.status !== "pending") &&
        responsesIn(fromClient) >= ledger.expected - ledger.gated,
    );
    slow.open();
    await until(() => responsesIn(fromClient) >= ledger.expected);
    await settle();

    const problems = calls.flatMap(({ plan, tracked }, i) => {
      const problem = (outcomes[i] as (s: Settled) => string | undefined)(tracked.settled);
      return problem === undefined ? [] : [`call ${i} ${plan.call.method} (${plan.reply}): ${problem}`];
    });
    expect(problems).toEqual([]);
    // Every planned way of answering, for every method, and every kind of answer from the client.
    expect(new Set(plans.map((p) => p.reply)).size).toBe(7);
    expect(new Set(plans.map((p) => p.call.method)).size).toBe(CLIENT_CALLS.length);
    expect(Object.keys(ledger.summary()).sort()).toEqual(
      ["result", "gated result", "silent", "idless -32600"]
        .concat([INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS].map((c) => `error ${c}`))
        .sort(),
    );
    expect(ledger.check(fromClient)).toEqual([]);
    expect(logged).toBe(env.logs);
    expect(cancelledSeen).toBeGreaterThan(0);
    expect(unexpectedReports(errors)).toEqual([]);

    // Still works: a valid exchange.
    const listing = client.listTools();
    await until(() => fromClient.some((m) => isObject(m) && m["method"] === "tools/list"));
    const asked = fromClient.find((m) => isObject(m) && m["method"] === "tools/list") as JsonObject;
    void send({ jsonrpc: "2.0", id: asked["id"], result: { tools: [] } });
    await expect(listing).resolves.toEqual({ tools: [] });
    await client.close();
    await expectNoFallout();
  });

  it("survives a result 100,000 levels deep: rejected in a typed position, kept in an untyped one", async () => {
    const { client, fromClient, send } = await fakeServer({}, { onError: () => undefined });
    const typed = client.callTool({ name: "t" });
    const untyped = client.callTool({ name: "u" });
    await until(() => fromClient.filter((m) => isObject(m) && m["method"] === "tools/call").length === 2);
    const [a, b] = fromClient.filter((m): m is JsonObject => isObject(m) && m["method"] === "tools/call");
    const deep = nestArrays(DEEP);
    void send({ jsonrpc: "2.0", id: a?.["id"], result: { content: [{ type: "text", text: deep }] } });
    void send({ jsonrpc: "2.0", id: b?.["id"], result: { content: [], structuredContent: { deep } } });
    const error = await typed.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResultValidationError);
    expect((error as ResultValidationError).issues.map((i) => i.path)).toEqual(["/result/content/0/text"]);
    expect((await untyped).structuredContent).toEqual({ deep });
    await client.close();
    await expectNoFallout();
  });

  it("a tools/call without `task` is answered by a CallToolResult only, and diagnosed as one", async () => {
    // TaskAugmentedRequestParams: only a request that sets `task` may be answered with CreateTaskResult.
    const { client, fromClient, send } = await fakeServer({}, { onError: () => undefined });
    const task = {
      taskId: "t-1",
      status: "working",
      createdAt: "2025-11-25T00:00:00Z",
      lastUpdatedAt: "2025-11-25T00:00:00Z",
      ttl: null,
    };
    const cases: [unknown, string][] = [
      [{ task }, "/result/content"],
      [{ content: [{ type: "nope" }] }, "/result/content/0/type"],
    ];
    const calls = cases.map(() => client.callTool({ name: "plain" }));
    await until(() => fromClient.filter((m) => isObject(m) && m["method"] === "tools/call").length === cases.length);
    const asked = fromClient.filter((m): m is JsonObject => isObject(m) && m["method"] === "tools/call");
    cases.forEach(([result], i) => void send({ jsonrpc: "2.0", id: asked[i]?.["id"], result }));
    const settled = await Promise.allSettled(calls);
    expect(
      settled.map((s) =>
        s.status === "rejected" && s.reason instanceof ResultValidationError
          ? s.reason.issues.map((i) => i.path)
          : describeSettled(s.status === "fulfilled" ? { status: "fulfilled", value: s.value } : s),
      ),
    ).toEqual(cases.map(([, path]) => [path]));
    await client.close();
  });

  it("a listener that throws does not keep the other listeners from the notification", async () => {
    const errors: Error[] = [];
    const { client, send } = await fakeServer({}, { onError: (e) => errors.push(e) });
    const seen: unknown[] = [];
    client.on("notifications/message", () => {
      throw new Error("listener fails on purpose");
    });
    client.on("notifications/message", (params) => seen.push(params));
    void send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hello" } });
    await until(() => errors.length > 0 && seen.length > 0, 500);
    expect(errors.map((e) => e.message)).toEqual(["listener fails on purpose"]);
    expect(seen).toEqual([{ level: "info", data: "hello" }]);
    await client.close();
    await expectNoFallout();
  });

  it("an error response that its validator rejects is a malformed error, not the server's code", async () => {
    const { client, fromClient, send } = await fakeServer({}, { onError: () => undefined });
    const nonInteger = client.ping();
    const wrongVersion = client.ping();
    await until(() => fromClient.filter((m) => isObject(m) && m["method"] === "ping").length === 2);
    const [a, b] = fromClient.filter((m): m is JsonObject => isObject(m) && m["method"] === "ping");
    void send({ jsonrpc: "2.0", id: a?.["id"], error: { code: 1.5, message: "not an integer code" } });
    void send({ jsonrpc: "1.0", id: b?.["id"], error: { code: -32000, message: "wrong jsonrpc" } });
    const settled = await Promise.allSettled([nonInteger, wrongVersion]);
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      const error = s.status === "rejected" ? (s.reason as unknown) : undefined;
      expect(error).toBeInstanceOf(RpcError);
      expect(error).toMatchObject({
        code: INTERNAL_ERROR,
        message: expect.stringContaining("malformed error response"),
      });
    }
    await client.close();
  });
});

// ---------------------------------------------------------------------------------------------
// The client over stdio: a child process that writes garbage lines

/**
 * A fake server (CommonJS, run with `node -e`): answers the handshake, writes garbage lines, and
 * reports in each ping result what the client sent back.
 */
const GARBAGE_SERVER = String.raw`
const readline = require("node:readline");
const out = (line) => process.stdout.write(line + "\n");
const got = [];
readline.createInterface({ input: process.stdin })
  .on("line", (line) => {
    let m;
    try { m = JSON.parse(line); } catch { got.push({ unparsable: line.slice(0, 80) }); return; }
    if (m.method === "initialize") {
      out(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25", capabilities: { logging: {} }, serverInfo: { name: "garbage", version: "0" } } }));
    } else if (m.method === "notifications/initialized") {
      garbage();
    } else if (m.method === "ping") {
      out(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { _meta: { got } } }));
    } else {
      got.push(m);
    }
  })
  .on("close", () => process.exit(0));
function garbage() {
  const N = 100000;
  for (const line of [
    "{bad json",
    "",
    "   ",
    "42",
    "[]",
    "\uFEFF{}",
    '{"jsonrpc":"2.0","id":"g1","method":"sampling/createMessage","params":{}}',
    '{"jsonrpc":"2.0","id":"g2","method":"no/such"}',
    '{"jsonrpc":"2.0","id":987654,"result":{}}',
    "[".repeat(N) + "]".repeat(N),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(5 * 1024 * 1024) } }),
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":' + '{"a":'.repeat(N) + "1" + "}".repeat(N) + "}}",
  ]) out(line);
  const split = JSON.stringify({ jsonrpc: "2.0", id: "g3", method: "ping" });
  process.stdout.write(split.slice(0, 10));
  setTimeout(() => process.stdout.write(split.slice(10) + "\n"), 20);
}
`;

describe("the generated client over stdio against a server that writes garbage lines", () => {
  it("answers each line as JSON-RPC says, delivers the huge and deep notifications, and keeps working", async () => {
    const errors: Error[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["-e", GARBAGE_SERVER],
      stderr: "pipe",
      shutdownGraceMs: 500,
    });
    const client = createClient({
      transport,
      clientInfo: { name: "stdio-garbage-test", version: "1.0.0" },
      handlers: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }) },
      onError: (e) => errors.push(e),
    });
    const logs: unknown[] = [];
    client.on("notifications/message", (params) => logs.push(params.data));
    await client.connect();
    const pid = transport.pid;

    type Got = { id?: unknown; result?: unknown; error?: { code: number } }[];
    let got: Got = [];
    await until(() => logs.length === 2, 10_000);
    // The server reports what the client sent back; poll until the split line was answered too.
    for (let i = 0; i < 100 && !got.some((m) => m.id === "g3"); i++) {
      const answer = await client.ping();
      got = (answer._meta?.["got"] ?? []) as Got;
      if (!got.some((m) => m.id === "g3")) await settle(10);
    }
    const idless = got.filter((m) => m.id === undefined).map((m) => m.error?.code);
    expect(idless).toEqual([PARSE_ERROR, INVALID_REQUEST, INVALID_REQUEST, PARSE_ERROR, INVALID_REQUEST]);
    expect(got.find((m) => m.id === "g1")?.error?.code).toBe(INVALID_PARAMS);
    expect(got.find((m) => m.id === "g2")?.error?.code).toBe(METHOD_NOT_FOUND);
    expect(got.find((m) => m.id === "g3")).toEqual({ jsonrpc: "2.0", id: "g3", result: {} });
    expect(got.filter((m) => m.id === 987654)).toEqual([]);
    expect(logs[0]).toBe("x".repeat(5 * MB));
    let depth = 0;
    for (let v = logs[1]; isObject(v); v = v["a"]) depth++;
    expect(depth).toBe(DEEP);
    expect(errors.filter((e) => e instanceof SyntaxError)).toHaveLength(2);
    expect(unexpectedReports(errors)).toEqual([]);

    await client.close();
    expect(() => process.kill(pid as number, 0)).toThrow();
    await expectNoFallout();
  });
});
