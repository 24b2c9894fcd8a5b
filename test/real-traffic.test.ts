// Real traffic: a session with the reference server `@modelcontextprotocol/server-everything`,
// recorded in this test over stdio (no network) by the official SDK's client, must validate message
// by message with the generated validators of the revision the server negotiated: requests and
// notifications as the method they carry, results as the result type of the request they answer.
// Timings are never asserted.
import { beforeAll, describe, expect, it } from "vitest";
import {
  type EverythingSession,
  type RecordedMessage,
  recordEverythingSession,
  type Sender,
} from "./support/everything-session.js";
import { REVISIONS } from "./support/spec.js";

type RequestId = string | number;

interface Issue {
  readonly path: string;
  readonly expected: string;
  readonly message: string;
}

/** What this test reads of `validateMessage`'s answer (the generated type is per revision). */
interface MessageCheck {
  readonly ok: boolean;
  readonly kind?: "request" | "notification" | "response" | "error" | "batch";
  readonly from?: Sender;
  readonly method?: string;
  readonly id?: RequestId;
  readonly code?: number;
  readonly issues?: readonly Issue[];
}

/** The part of generated/<rev>/validators.ts this test uses. */
interface RevisionValidators {
  validateMessage(
    value: unknown,
    options?: { from?: Sender; requestOf?: (id: RequestId) => { method: string; params?: unknown } | undefined },
  ): MessageCheck;
  validators: Record<string, { validate(value: unknown): { ok: boolean; issues?: readonly Issue[] } }>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const other = (from: Sender): Sender => (from === "client" ? "server" : "client");

/** Every recorded message with its verdict, and the request each response answers. */
interface Checked {
  readonly recorded: RecordedMessage;
  readonly check: MessageCheck;
  /** For a response: the request it answers (sent by the other side), if one was pending. */
  readonly answers?: RecordedMessage;
}

function checkSession(session: EverythingSession, v: RevisionValidators): Checked[] {
  // Pending requests by sender, then id: a response from one side answers the other side's request.
  const pending: Record<Sender, Map<RequestId, RecordedMessage>> = { client: new Map(), server: new Map() };
  return session.messages.map((recorded) => {
    const { from, message } = recorded;
    const id = message.id as RequestId | undefined;
    const isResponse = message.method === undefined && id !== undefined;
    const answers = isResponse ? pending[other(from)].get(id) : undefined;
    const check = v.validateMessage(message, {
      from,
      // The request as sent: its params tell a task-augmented request (answered with a task) apart.
      requestOf: (requestId) => {
        const request = pending[other(from)].get(requestId)?.message;
        return request ? { method: request.method as string, params: request.params } : undefined;
      },
    });
    if (typeof message.method === "string" && id !== undefined) pending[from].set(id, recorded);
    if (isResponse) pending[other(from)].delete(id);
    return { recorded, check, ...(answers ? { answers } : {}) };
  });
}

function describeFailure(c: Checked): string {
  const { seq, from, message } = c.recorded;
  const what = (message.method as string | undefined) ?? `response to ${c.answers?.message.method ?? "?"}`;
  const issues = (c.check.issues ?? []).map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ");
  return `#${seq} ${from} ${what}: code ${c.check.code}: ${issues}\n  ${JSON.stringify(message).slice(0, 400)}`;
}

/** Methods the scripted session must produce, by sender: every kind of traffic the server offers. */
const EXPECTED_METHODS: Record<Sender, { requests: string[]; notifications: string[] }> = {
  client: {
    requests: [
      "initialize",
      "ping",
      "logging/setLevel",
      "tools/list",
      "tools/call",
      "prompts/list",
      "prompts/get",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "completion/complete",
      "tasks/get",
      "tasks/list",
      "tasks/cancel",
    ],
    notifications: ["notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed"],
  },
  server: {
    requests: ["roots/list", "sampling/createMessage", "elicitation/create"],
    notifications: [
      "notifications/message",
      "notifications/progress",
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
      "notifications/resources/updated",
      "notifications/tasks/status",
    ],
  },
};

describe("real traffic: a recorded session with @modelcontextprotocol/server-everything (stdio)", () => {
  let session: EverythingSession;
  let v: RevisionValidators;
  let checked: Checked[];

  beforeAll(async () => {
    session = await recordEverythingSession();
    const rev = session.protocolVersion;
    if (!REVISIONS.includes(rev)) throw new Error(`the server negotiated ${rev}, a revision mcp-gen does not generate`);
    v = (await import(/* @vite-ignore */ `../generated/${rev}/validators.ts`)) as RevisionValidators;
    checked = checkSession(session, v);
  });

  it("negotiates a revision we generate, and ends cleanly with no child left behind", () => {
    expect(REVISIONS).toContain(session.protocolVersion);
    expect(session.serverInfo?.name).toBe("mcp-servers/everything");
    expect(session.transportErrors).toEqual([]);
    expect(session.pid).toBeTypeOf("number");
    expect(session.childExited).toBe(true);
  });

  it("records a substantial session in both directions", () => {
    const seen = (from: Sender, kind: "request" | "notification") =>
      new Set(
        session.messages
          .filter((m) => m.from === from && typeof m.message.method === "string")
          .filter((m) => (m.message.id !== undefined) === (kind === "request"))
          .map((m) => m.message.method as string),
      );
    for (const from of ["client", "server"] as const) {
      expect([...seen(from, "request")].sort(), `${from} requests`).toEqual(
        expect.arrayContaining(EXPECTED_METHODS[from].requests),
      );
      expect([...seen(from, "notification")].sort(), `${from} notifications`).toEqual(
        expect.arrayContaining(EXPECTED_METHODS[from].notifications),
      );
    }
    const distinct = new Set(session.messages.map((m) => `${m.from} ${String(m.message.method ?? "")}`));
    expect(distinct.size).toBeGreaterThanOrEqual(25);
    // Results in both directions, and error responses (unknown prompt and resource, URL elicitation required).
    const results = checked.filter((c) => c.answers !== undefined && isObject(c.recorded.message.result));
    expect(new Set(results.map((c) => c.recorded.from))).toEqual(new Set(["client", "server"]));
    expect(checked.filter((c) => "error" in c.recorded.message).length).toBeGreaterThanOrEqual(3);
    expect(session.messages.length).toBeGreaterThanOrEqual(100);
    // Tool results with every content block type the server has, and structured content.
    const toolResults = results
      .filter((c) => c.answers?.message.method === "tools/call")
      .map((c) => c.recorded.message.result as { content?: { type: string }[]; structuredContent?: unknown });
    const blockTypes = new Set(toolResults.flatMap((r) => (r.content ?? []).map((b) => b.type)));
    expect([...blockTypes].sort()).toEqual(["image", "resource", "resource_link", "text"]);
    expect(toolResults.some((r) => isObject(r.structuredContent))).toBe(true);
    expect(toolResults.some((r) => (r as { isError?: unknown }).isError === true)).toBe(true);
  });

  it("every message validates as its method's message for the negotiated revision", () => {
    const failures = checked.filter((c) => !c.check.ok).map(describeFailure);
    expect(failures).toEqual([]);
  });

  it("requests and notifications resolve to the method they carry, results to the method they answer", () => {
    for (const c of checked) {
      if (!c.check.ok) continue;
      const { seq, from, message } = c.recorded;
      const where = `#${seq} ${from} ${JSON.stringify(message).slice(0, 200)}`;
      if (typeof message.method === "string") {
        expect(c.check.kind, where).toBe(message.id === undefined ? "notification" : "request");
        expect(c.check.method, where).toBe(message.method);
        expect(c.check.from, where).toBe(from);
      } else if ("result" in message) {
        // requestOf knew the id, so the result was checked against that method's result type.
        expect(c.answers, `${where}: answers no pending request`).toBeDefined();
        expect(c.check.kind, where).toBe("response");
        expect(c.check.method, where).toBe(c.answers?.message.method);
        expect(c.check.from, where).toBe(from);
        expect(c.check.id, where).toBe(message.id);
      } else {
        expect(c.check.kind, where).toBe("error");
        expect(c.answers, `${where}: answers no pending request`).toBeDefined();
      }
    }
  });
});
