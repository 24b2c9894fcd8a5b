// Every elicitation shape, asked by handlers written once against 2025-11-25, of clients of every
// revision (runtime/projection): the SDK 1.x client pinned to each session revision and the SDK v2
// client at 2026-07-28, over one Streamable HTTP endpoint. First the conformance server's
// elicitation tools (examples/multi-revision-server), then one tool per shape. Each client gets
// the elicitation as its revision has it: what the server sent passes the revision oracle (its
// validators, ajv on its schema.json with objects closed) and the client's own checks (it answers),
// hints its revision lacks (a `default`) dropped. What the revision cannot express at all (a
// multi-select before 2025-11-25, elicitation before 2025-06-18) fails for the handler, saying
// what and why, and nothing is sent.
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Transport } from "@modelcontextprotocol/client";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMultiRevisionConformanceServer } from "../examples/multi-revision-server/server.js";
import * as r1105 from "../generated/2024-11-05/index.js";
import * as r0326 from "../generated/2025-03-26/index.js";
import * as r0618 from "../generated/2025-06-18/index.js";
import * as r1125 from "../generated/2025-11-25/index.js";
import * as r2607 from "../generated/2026-07-28/index.js";
import { serveStreamableHttp, type StreamableHttpServer } from "../runtime/http/server/server.js";
import type { StreamableHttpSession } from "../runtime/http/server/server.js";
import {
  createMultiRevisionServer,
  project,
  type Downgrade,
  type MultiRevisionServer,
} from "../runtime/projection/index.js";
import type { SharedRegistrations } from "../runtime/server/index.js";
import { problemsOf, recording, type MessageLog } from "./support/revision-oracle.js";

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];
type Json = { [key: string]: unknown };

/** Why a client of 2025-06-18 is not asked a multi-select: no type of its revision holds one. */
const NO_TYPE = "no type it has holds the value";

/** One form field of each shape, as the handler asks it (2025-11-25), and as a 2025-06-18 client gets it. */
const SHAPES: { [name: string]: { field: Json; at0618?: Json | typeof NO_TYPE } } = {
  string: { field: { type: "string", title: "E-mail", minLength: 3, maxLength: 64, format: "email" } },
  number: { field: { type: "number", description: "Score", minimum: 0, maximum: 10 } },
  integer: { field: { type: "integer", minimum: 1 } },
  boolean: { field: { type: "boolean", title: "Agree?" } },
  untitled_single: { field: { type: "string", enum: ["r", "b"] } },
  titled_single: {
    field: {
      type: "string",
      oneOf: [
        { const: "r", title: "Red" },
        { const: "b", title: "Blue" },
      ],
    },
    at0618: { type: "string", enum: ["r", "b"], enumNames: ["Red", "Blue"] },
  },
  legacy_enum_names: { field: { type: "string", enum: ["r", "b"], enumNames: ["Red", "Blue"] } },
  untitled_multi: {
    field: { type: "array", items: { type: "string", enum: ["r", "b"] }, minItems: 1 },
    at0618: NO_TYPE,
  },
  titled_multi: {
    field: {
      type: "array",
      items: {
        anyOf: [
          { const: "r", title: "Red" },
          { const: "b", title: "Blue" },
        ],
      },
    },
    at0618: NO_TYPE,
  },
  string_default: { field: { type: "string", default: "Ada" }, at0618: { type: "string" } },
  number_default: { field: { type: "number", default: 1.5 }, at0618: { type: "number" } },
  boolean_default: { field: { type: "boolean", default: true } },
  enum_default: {
    field: { type: "string", enum: ["r", "b"], default: "r" },
    at0618: { type: "string", enum: ["r", "b"] },
  },
  titled_default: {
    field: { type: "string", oneOf: [{ const: "r", title: "Red" }], default: "r" },
    at0618: { type: "string", enum: ["r"], enumNames: ["Red"] },
  },
};

/**
 * A 2025-11-25 registry with a tool per shape, asking for one field of it (a refusal is its
 * result, `<code>: <message>`), served to every revision; `downgrades` hears what was dropped.
 */
function shapeTools(downgrades: Downgrade[]) {
  const mcp = r1125.createMcpServer({ serverInfo: { name: "shapes", version: "1.0.0" } });
  for (const [name, { field }] of Object.entries(SHAPES))
    mcp.registerTool(name, {}, async (_args, context) => {
      try {
        const answer = await context.elicit({
          message: `Your ${name}?`,
          requestedSchema: { type: "object", properties: { [name]: field as never } },
        });
        return { content: [{ type: "text", text: answer.action }] };
      } catch (error) {
        const { code, message } = error as { code?: number; message: string };
        return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
      }
    });
  return createMultiRevisionServer({
    server: mcp,
    writtenFor: r1125.PROJECTION,
    alsoServes: [r1105, r0326, r0618].map((r) => ({
      revision: r.PROJECTION,
      create: (registrations: SharedRegistrations) =>
        r.createMcpServer({ serverInfo: { name: "shapes", version: "1.0.0" }, registrations }),
    })),
    stateless: {
      revision: r2607.PROJECTION,
      create: (registrations) =>
        r2607.createMcpServer({ serverInfo: { name: "shapes", version: "1.0.0" }, registrations }),
    },
    onDowngrade: (downgrade) => downgrades.push(downgrade),
  });
}

/** `server` on one loopback endpoint; `logs` gets each session's and each stateless exchange's messages. */
async function serve(
  server: MultiRevisionServer,
  logs: { session?: MessageLog; stateless: MessageLog },
  inSession: (session: StreamableHttpSession) => StreamableHttpSession = (session) => session,
): Promise<StreamableHttpServer> {
  const stateless = server.stateless!;
  return serveStreamableHttp({
    port: 0,
    server: { http: stateless.http, connect: (exchange) => stateless.connect(recording(exchange, logs.stateless)) },
    onSession: (session) => {
      logs.session = { sent: [], received: [] };
      return server.connect(recording(inSession(session), logs.session));
    },
  });
}

/** The elicitations the server sent on `log`: requests to the client, or input requests in a result. */
function elicitations(log: MessageLog): Json[] {
  return (log.sent as Json[]).flatMap((m) => {
    if (m["method"] === "elicitation/create") return [m["params"] as Json];
    const inputs = (m["result"] as { inputRequests?: { [key: string]: Json } } | undefined)?.inputRequests ?? {};
    return Object.values(inputs).flatMap((r) => (r["method"] === "elicitation/create" ? [r["params"] as Json] : []));
  });
}

/** The answer to an elicitation: accepted, each required field a string. */
function accept(params: unknown): { action: "accept"; content: { [key: string]: string } } {
  const required = (params as { requestedSchema?: { required?: string[] } }).requestedSchema?.required ?? [];
  return { action: "accept", content: Object.fromEntries(required.map((key) => [key, "Ada"])) };
}

/** The SDK client for `revision` (1.x pinned to it, v2 at 2026-07-28) on `url`, answering elicitations. */
async function sdkClient(url: string, revision: Revision) {
  const answered: unknown[] = [];
  const answer = (params: unknown) => {
    answered.push(params);
    return accept(params);
  };
  if (revision === "2026-07-28") {
    const client = new SdkV2Client(
      { name: "sdk-v2", version: "2.4.0" },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: "auto" } },
    );
    client.setRequestHandler("elicitation/create", async (request) => answer(request.params));
    await client.connect(new SdkV2Transport(new URL(url)));
    return { client, answered };
  }
  const transport = new StreamableHTTPClientTransport(new URL(url));
  // The SDK offers its newest revision; this client asks for `revision` instead.
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: string; params?: { protocolVersion?: string } };
    if (m.method === "initialize" && m.params) m.params.protocolVersion = revision;
    return send(message, options);
  };
  const client = new SdkClient({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params));
  await client.connect(transport);
  expect(transport.protocolVersion).toBe(revision);
  return { client, answered };
}

/** The log of what the server exchanged with the client of `revision`. */
const logOf = (logs: { session?: MessageLog; stateless: MessageLog }, revision: Revision) =>
  revision === "2026-07-28" ? logs.stateless : logs.session!;

describe("the conformance server's elicitations (examples/multi-revision-server), to the SDK client of each revision", () => {
  const logs: { session?: MessageLog; stateless: MessageLog } = { stateless: { sent: [], received: [] } };
  const { server, inSession } = createMultiRevisionConformanceServer();
  const TOOLS: [string, Json][] = [
    ["test_elicitation", { message: "Who are you?" }],
    ["test_elicitation_sep1034_defaults", {}],
    ["test_elicitation_sep1330_enums", {}],
  ];
  let http: StreamableHttpServer;

  /** Calls each tool as the SDK client of `revision`: each call's text or error, the elicitations sent, and those answered. */
  async function callTools(revision: Revision) {
    logs.stateless = { sent: [], received: [] };
    const { client, answered } = await sdkClient(http.url, revision);
    const outcomes: string[] = [];
    for (const [name, args] of TOOLS)
      outcomes.push(
        await client.callTool({ name, arguments: args }).then(
          (result) => (result as { content: { text: string }[] }).content[0]!.text,
          (error: Error) => error.message,
        ),
      );
    await client.close();
    const log = logOf(logs, revision);
    return { outcomes, sent: elicitations(log), answered, problems: problemsOf(revision, log) };
  }

  /** The handlers' own params: what a 2025-11-25 client, of the revision they are written for, gets. */
  let written: Json[];
  beforeAll(async () => {
    http = await serve(server, logs, inSession);
    written = (await callTools("2025-11-25")).sent;
  });
  afterAll(async () => {
    await http.close();
    await server.close();
  });

  const completed = (content: string) => `Elicitation completed: action=accept, content=${content}`;
  const named = completed('{"username":"Ada","email":"Ada"}');

  it.each(REVISIONS)("at %s", async (revision) => {
    const { outcomes, sent, answered, problems } = await callTools(revision);
    expect(problems).toEqual([]);
    if (revision === "2025-11-25" || revision === "2026-07-28") {
      expect(outcomes).toEqual([named, completed("{}"), completed("{}")]);
      expect(sent).toEqual(written);
    } else if (revision === "2025-06-18") {
      expect(outcomes).toEqual([
        named,
        completed("{}"),
        "MCP error -32602: the client's protocol revision 2025-06-18 cannot express this elicitation/create: " +
          `/requestedSchema/properties/untitledMulti, /requestedSchema/properties/titledMulti (${NO_TYPE})`,
      ]);
      // The defaults 2025-06-18 has no place for are dropped (a boolean's it has).
      const defaults = written[1] as { requestedSchema: Json };
      const properties = {
        name: { type: "string" },
        age: { type: "integer" },
        score: { type: "number" },
        status: { type: "string", enum: ["active", "inactive", "pending"] },
        verified: { type: "boolean", default: true },
      };
      expect(sent).toEqual([written[0], { ...defaults, requestedSchema: { ...defaults.requestedSchema, properties } }]);
    } else {
      const none = `MCP error -32601: the client's protocol revision ${revision} has no elicitation/create`;
      expect(outcomes).toEqual([none, none, none]);
      expect(sent).toEqual([]);
    }
    // The client answered every elicitation it was sent: valid for it by its own checks too.
    expect(answered).toHaveLength(sent.length);
  });
});

describe("one elicitation per shape, to the SDK client of each revision", () => {
  const logs: { session?: MessageLog; stateless: MessageLog } = { stateless: { sent: [], received: [] } };
  const downgrades: Downgrade[] = [];
  const server = shapeTools(downgrades);
  let http: StreamableHttpServer;
  beforeAll(async () => {
    http = await serve(server, logs);
  });
  afterAll(async () => {
    await http.close();
    await server.close();
  });

  it.each(REVISIONS)("at %s", async (revision) => {
    logs.stateless = { sent: [], received: [] };
    const { client, answered } = await sdkClient(http.url, revision);
    for (const [name, { field, at0618 }] of Object.entries(SHAPES)) {
      const before = elicitations(logOf(logs, revision)).length;
      const result = (await client.callTool({ name, arguments: {} })) as { content: { text: string }[] };
      const got = elicitations(logOf(logs, revision)).slice(before);
      const expected = revision === "2025-06-18" ? (at0618 ?? field) : field;
      if (revision === "2024-11-05" || revision === "2025-03-26") {
        expect(result.content[0]!.text).toBe(
          `-32601: the client's protocol revision ${revision} has no elicitation/create`,
        );
        expect(got).toEqual([]);
      } else if (expected === NO_TYPE) {
        expect(result.content[0]!.text).toBe(
          `-32602: the client's protocol revision ${revision} cannot express this elicitation/create: /requestedSchema/properties/${name} (${NO_TYPE})`,
        );
        expect(got).toEqual([]);
      } else {
        expect(result.content[0]!.text, name).toBe("accept");
        expect(got, name).toEqual([
          expect.objectContaining({ requestedSchema: { type: "object", properties: { [name]: expected } } }),
        ]);
      }
    }
    expect(problemsOf(revision, logOf(logs, revision))).toEqual([]);
    expect(answered).toHaveLength(elicitations(logOf(logs, revision)).length);
    if (revision === "2025-06-18")
      expect(downgrades).toContainEqual({
        revision,
        method: "elicitation/create",
        dropped: ["/requestedSchema/properties/titled_default/default"],
        converted: ["/requestedSchema/properties/titled_default titled-enum-as-enum-names"],
      });
    await client.close();
  });
});

describe("the walker", () => {
  it("projects a 2025-11-25 elicitation of every shape onto 2025-11-25 itself unchanged (a union member by its full shape)", () => {
    const own = r1125.PROJECTION;
    const shape = own.requests["elicitation/create"]!;
    for (const [name, { field }] of Object.entries(SHAPES)) {
      const params = { message: "?", requestedSchema: { type: "object", properties: { [name]: field } } };
      expect(project(params, shape, own, own, shape), name).toEqual({
        value: params,
        dropped: [],
        converted: [],
        lost: [],
      });
    }
  });
});
