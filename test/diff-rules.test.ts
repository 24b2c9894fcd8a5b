// One minimal pair of models per breaking-change rule (as buf keeps a before/after pair per
// rule): the rule fires for the expected item and affects exactly the expected sides. The
// table is a Record over every rule id, so a rule without a test does not compile; the rule
// table in docs/diff-rules.md is checked against the code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FindingKind, Side } from "../generators/diff/rules/findings.js";
import { RULE_IDS, RULES, type RuleId } from "../generators/diff/rules/rules.js";
import { paths } from "../generators/paths.js";
import {
  alias,
  array,
  brief,
  constant,
  diffTiny,
  iface,
  lit,
  num,
  obj,
  prop,
  ref,
  str,
  things,
  union,
  unknown,
  type ModelSpec,
} from "./support/diff-models.js";

interface Case {
  before: ModelSpec;
  after: ModelSpec;
  /** The finding's name. */
  name: string;
  affects: Side[];
  kind?: FindingKind;
}

const CLIENT: Side[] = ["client"];
const SERVER: Side[] = ["server"];
const BOTH: Side[] = ["client", "server"];
const NONE: Side[] = [];

const ping = (extra: object = {}) => ({ method: "things/ping", ...extra });
const note = (extra: object = {}) => ({
  method: "notifications/things/changed",
  kind: "notification" as const,
  ...extra,
});
const level = (...values: string[]) => alias("Level", union(...values.map((v) => lit(v))));
const content = (...members: string[]) => [
  alias("Content", union(...members.map(ref))),
  iface("Text", [prop("text", str)]),
  iface("Image", [prop("data", str)]),
  iface("Audio", [prop("audio", str)]),
];

/** things/get's result type, for tests that give the method a result other than it alone. */
const thingsResult = iface("ThingsGetResult", [prop("thing", ref("Thing"))], ["Result"]);

const CASES: Record<RuleId, Case> = {
  // A client→server request gated by a server capability, added: nothing breaks.
  REQUEST_ADDED: { before: {}, after: things(), name: "things/get", affects: NONE, kind: "method" },
  // …and ungated: every server must now handle it.
  REQUEST_ADDED_UNGATED: { before: {}, after: { methods: [ping()] }, name: "things/ping", affects: SERVER },
  // Removed: clients that call it break.
  REQUEST_REMOVED: { before: { methods: [ping()] }, after: {}, name: "things/ping", affects: CLIENT },
  NOTIFICATION_ADDED: { before: {}, after: { methods: [note()] }, name: "notifications/things/changed", affects: NONE },
  // Removed client→server notification: servers that wait for it break.
  NOTIFICATION_REMOVED: {
    before: { methods: [note()] },
    after: {},
    name: "notifications/things/changed",
    affects: SERVER,
    kind: "notification",
  },
  METHOD_DIRECTION_CHANGED: {
    before: { methods: [ping()] },
    after: { methods: [ping({ direction: "serverToClient" })] },
    name: "things/ping",
    affects: BOTH,
  },
  METHOD_KIND_CHANGED: {
    before: { methods: [ping()] },
    after: { methods: [ping({ kind: "notification", type: "ThingsPingRequest" })] },
    name: "things/ping",
    affects: BOTH,
  },
  REQUEST_DELIVERY_CHANGED: {
    before: { methods: [ping({ direction: "serverToClient" })] },
    after: { methods: [ping({ direction: "serverToClient", delivery: "inputRequired" })] },
    name: "things/ping",
    affects: BOTH,
  },
  REQUEST_GATED: {
    before: { methods: [ping()] },
    after: { methods: [ping({ capability: "server:things" })] },
    name: "things/ping",
    affects: BOTH,
  },
  REQUEST_UNGATED: {
    before: { methods: [ping({ capability: "server:things" })] },
    after: { methods: [ping()] },
    name: "things/ping",
    affects: SERVER,
  },
  REQUEST_GATE_CHANGED: {
    before: { methods: [ping({ capability: "server:things" })] },
    after: { methods: [ping({ capability: "server:stuff" })] },
    name: "things/ping",
    affects: BOTH,
  },
  NOTIFICATION_GATE_CHANGED: {
    before: { methods: [note()] },
    after: { methods: [note({ capability: "client:things" })] },
    name: "notifications/things/changed",
    affects: BOTH,
  },
  // The result may now be something else as well: clients (callers) must handle it.
  RESULT_WIDENED: {
    before: things(),
    after: things({
      method: { result: union(ref("ThingsGetResult"), ref("Later")) },
      types: [thingsResult, iface("Later", [prop("retryAfter", num)])],
    }),
    name: "things/get",
    affects: CLIENT,
  },
  RESULT_NARROWED: {
    before: things({
      method: { result: union(ref("ThingsGetResult"), ref("Later")) },
      types: [thingsResult, iface("Later", [prop("retryAfter", num)])],
    }),
    after: things({ types: [iface("Later", [prop("retryAfter", num)])] }),
    name: "things/get",
    affects: SERVER,
  },
  RESULT_CHANGED: {
    before: things({ types: [iface("Other", [prop("other", num)])] }),
    after: things({ method: { result: ref("Other") }, types: [iface("Other", [prop("other", num)])] }),
    name: "things/get",
    affects: BOTH,
  },
  RESULT_EQUIVALENT: {
    before: things({ types: [iface("Same", [prop("thing", ref("Thing"))], ["Result"])] }),
    after: things({
      method: { result: ref("Same") },
      types: [iface("Same", [prop("thing", ref("Thing"))], ["Result"])],
    }),
    name: "things/get",
    affects: NONE,
  },
  TYPE_ADDED: { before: things(), after: things({ types: [iface("Extra", [])] }), name: "Extra", affects: NONE },
  TYPE_REMOVED: { before: things({ types: [iface("Extra", [])] }), after: things(), name: "Extra", affects: BOTH },
  // Equal structure and a shared word in the name: one rename, not a removal plus an addition.
  TYPE_RENAMED: {
    before: things({ thing: [prop("ref", ref("ThingRef"))], types: [iface("ThingRef", [prop("uri", str)])] }),
    after: things({
      thing: [prop("ref", ref("ThingReference"))],
      types: [iface("ThingReference", [prop("uri", str)])],
    }),
    name: "ThingReference",
    affects: BOTH,
  },
  // Inline params split out into a named type with the same fields.
  TYPE_EXTRACTED: {
    before: things(),
    after: things({
      method: { params: ref("ThingsGetParams") },
      types: [iface("ThingsGetParams", [prop("query", ref("Query"))])],
    }),
    name: "ThingsGetParams",
    affects: NONE,
  },
  TYPE_INLINED: {
    before: things({
      method: { params: ref("ThingsGetParams") },
      types: [iface("ThingsGetParams", [prop("query", ref("Query"))])],
    }),
    after: things(),
    name: "ThingsGetParams",
    affects: BOTH,
  },
  // An interface that servers send became a union with a new alternative: clients must handle it.
  TYPE_WIDENED: {
    before: things({ thing: [prop("id", str)] }),
    after: things({
      types: [
        alias("Thing", union(ref("OneThing"), ref("ManyThings"))),
        iface("OneThing", [prop("id", str)]),
        iface("ManyThings", [prop("ids", array(str))]),
      ],
    }),
    name: "Thing",
    affects: CLIENT,
  },
  TYPE_NARROWED: {
    before: things({
      types: [
        alias("Thing", union(ref("OneThing"), ref("ManyThings"))),
        iface("OneThing", [prop("id", str)]),
        iface("ManyThings", [prop("ids", array(str))]),
      ],
    }),
    after: things({
      thing: [prop("id", str)],
      types: [iface("OneThing", [prop("id", str)]), iface("ManyThings", [prop("ids", array(str))])],
    }),
    name: "Thing",
    affects: SERVER,
  },
  TYPE_CHANGED: {
    before: things({ thing: [prop("id", ref("Id"))], types: [alias("Id", str)] }),
    after: things({ thing: [prop("id", ref("Id"))], types: [alias("Id", num)] }),
    name: "Id",
    affects: BOTH,
  },
  // Reply was an interface and a member of Outcome next to Failure; now Reply is the union of
  // Success (its old shape) and Failure: Outcome admits exactly what it did, no message changes.
  TYPE_FORM_CHANGED: {
    before: things({
      thing: [prop("outcome", ref("Outcome"))],
      types: [
        alias("Outcome", union(ref("Reply"), ref("Failure"), ref("Pending"))),
        iface("Reply", [prop("ok", lit(true))]),
        iface("Failure", [prop("ok", lit(false))]),
        iface("Pending", [prop("eta", num)]),
      ],
    }),
    after: things({
      thing: [prop("outcome", ref("Outcome"))],
      types: [
        alias("Outcome", union(ref("Reply"), ref("Pending"))),
        alias("Reply", union(ref("Success"), ref("Failure"))),
        iface("Success", [prop("ok", lit(true))]),
        iface("Failure", [prop("ok", lit(false))]),
        iface("Pending", [prop("eta", num)]),
      ],
    }),
    name: "Reply",
    affects: BOTH,
  },
  UNION_MEMBER_ADDED: {
    before: things({ thing: [prop("content", ref("Content"))], types: content("Text", "Image") }),
    after: things({ thing: [prop("content", ref("Content"))], types: content("Text", "Image", "Audio") }),
    name: "Content",
    affects: CLIENT,
  },
  UNION_MEMBER_REMOVED: {
    before: things({ thing: [prop("content", ref("Content"))], types: content("Text", "Image", "Audio") }),
    after: things({ thing: [prop("content", ref("Content"))], types: content("Text", "Image") }),
    name: "Content",
    affects: SERVER,
  },
  // A union nothing refers to (like ClientRequest) only lists types.
  UNREFERENCED_UNION_CHANGED: {
    before: things({ types: content("Text", "Image") }),
    after: things({ types: content("Text", "Image", "Audio") }),
    name: "Content",
    affects: NONE,
  },
  // Clients send the level (request params): servers that switch over it break.
  ENUM_MEMBER_ADDED: {
    before: things({ query: [prop("level", ref("Level"))], types: [level("debug", "info")] }),
    after: things({ query: [prop("level", ref("Level"))], types: [level("debug", "info", "trace")] }),
    name: "Level=trace",
    affects: SERVER,
    kind: "enum-member",
  },
  ENUM_MEMBER_REMOVED: {
    before: things({ query: [prop("level", ref("Level"))], types: [level("debug", "info", "trace")] }),
    after: things({ query: [prop("level", ref("Level"))], types: [level("debug", "info")] }),
    name: "Level=trace",
    affects: CLIENT,
  },
  OPEN_ENUM_MEMBER_ADDED: {
    before: things({ thing: [prop("reason", union(lit("done"), str))] }),
    after: things({ thing: [prop("reason", union(lit("done"), lit("cut"), str))] }),
    name: "Thing.reason=cut",
    affects: NONE,
  },
  OPEN_ENUM_MEMBER_REMOVED: {
    before: things({ thing: [prop("reason", union(lit("done"), lit("cut"), str))] }),
    after: things({ thing: [prop("reason", union(lit("done"), str))] }),
    name: "Thing.reason=cut",
    affects: NONE,
  },
  FIELD_ADDED_OPTIONAL: {
    before: things(),
    after: things({ thing: [prop("id", str), prop("size", num, true)] }),
    name: "Thing.size",
    affects: NONE,
    kind: "field",
  },
  // A required field added to what servers send (a result): servers built on the old revision omit it.
  FIELD_ADDED_REQUIRED: {
    before: things(),
    after: things({ thing: [prop("id", str), prop("size", num)] }),
    name: "Thing.size",
    affects: SERVER,
  },
  FIELD_REMOVED_OPTIONAL: {
    before: things({ thing: [prop("id", str), prop("size", num, true)] }),
    after: things(),
    name: "Thing.size",
    affects: BOTH,
  },
  // Clients read what servers send: a removed required field breaks them.
  FIELD_REMOVED_REQUIRED: {
    before: things({ thing: [prop("id", str), prop("size", num)] }),
    after: things(),
    name: "Thing.size",
    affects: CLIENT,
  },
  // In request params: clients (senders) may omit it.
  FIELD_BECAME_REQUIRED: {
    before: things({ query: [prop("q", str, true)] }),
    after: things({ query: [prop("q", str)] }),
    name: "Query.q",
    affects: CLIENT,
  },
  FIELD_BECAME_OPTIONAL: {
    before: things({ query: [prop("q", str)] }),
    after: things({ query: [prop("q", str, true)] }),
    name: "Query.q",
    affects: SERVER,
  },
  FIELD_TYPE_WIDENED: {
    before: things({ thing: [prop("id", str)] }),
    after: things({ thing: [prop("id", unknown)] }),
    name: "Thing.id",
    affects: CLIENT,
  },
  FIELD_TYPE_NARROWED: {
    before: things({ thing: [prop("id", unknown)] }),
    after: things({ thing: [prop("id", str)] }),
    name: "Thing.id",
    affects: SERVER,
  },
  FIELD_TYPE_CHANGED: {
    before: things({ thing: [prop("id", str)] }),
    after: things({ thing: [prop("id", num)] }),
    name: "Thing.id",
    affects: BOTH,
  },
  FIELD_TYPE_EQUIVALENT: {
    before: things({
      thing: [prop("at", ref("Point"))],
      types: [iface("Point", [prop("x", num)]), iface("Spot", [prop("x", num)])],
    }),
    after: things({
      thing: [prop("at", ref("Spot"))],
      types: [iface("Point", [prop("x", num)]), iface("Spot", [prop("x", num)])],
    }),
    name: "Thing.at",
    affects: NONE,
  },
  // `name` moved from Thing and Query into a new base type: one move, no addition or removal.
  FIELD_MOVED: {
    before: things({ thing: [prop("name", str)], query: [prop("name", str)] }),
    after: things({
      types: [iface("Named", [prop("name", str)]), iface("Thing", [], ["Named"]), iface("Query", [], ["Named"])],
    }),
    name: "Named.name",
    affects: NONE,
  },
  // The message type now extends the JSON-RPC envelope it always travelled in.
  ENVELOPE_FIELD_DECLARED: {
    before: things(),
    after: things({ method: { base: "JSONRPCRequest" } }),
    name: "JSONRPCRequest.id",
    affects: NONE,
  },
  CONSTRAINT_TIGHTENED: {
    before: things({ thing: [prop("score", num)] }),
    after: things({ thing: [prop("score", num, false, { constraints: { maximum: 1 } })] }),
    name: "Thing.score",
    affects: SERVER,
  },
  CONSTRAINT_LOOSENED: {
    before: things({ thing: [prop("score", num, false, { constraints: { maximum: 1 } })] }),
    after: things({ thing: [prop("score", num)] }),
    name: "Thing.score",
    affects: CLIENT,
  },
  CONSTRAINT_CHANGED: {
    before: things({ thing: [prop("at", str, false, { constraints: { format: "uri" } })] }),
    after: things({ thing: [prop("at", str, false, { constraints: { format: "date-time" } })] }),
    name: "Thing.at",
    affects: BOTH,
  },
  CAPABILITY_ADDED: {
    before: things(),
    after: things({
      serverCapabilities: [
        prop("things", obj(prop("listChanged", { kind: "primitive", name: "boolean" }, true)), true),
      ],
    }),
    name: "ServerCapabilities.things",
    affects: NONE,
    kind: "capability",
  },
  CAPABILITY_REMOVED: {
    before: things({ serverCapabilities: [prop("things", obj(), true)] }),
    after: things(),
    name: "ServerCapabilities.things",
    affects: BOTH,
    kind: "capability",
  },
  DEPRECATED: {
    before: things(),
    after: things({ thing: [prop("id", str, false, { deprecated: true })] }),
    name: "Thing.id",
    affects: BOTH,
  },
  UNDEPRECATED: {
    before: things({ method: { deprecated: true } }),
    after: things(),
    name: "things/get",
    affects: NONE,
    kind: "method",
  },
  MADE_INTERNAL: {
    before: things(),
    after: things({ types: [iface("Thing", [prop("id", str)], [], { internal: true })] }),
    name: "Thing",
    affects: NONE,
  },
  MADE_PUBLIC: {
    before: things({ constants: [constant("VERSION_KEY", "v", { internal: true })] }),
    after: things({ constants: [constant("VERSION_KEY", "v")] }),
    name: "VERSION_KEY",
    affects: NONE,
  },
  CONSTANT_ADDED: { before: {}, after: { constants: [constant("MAX", "many")] }, name: "MAX", affects: NONE },
  CONSTANT_REMOVED: { before: { constants: [constant("MAX", "many")] }, after: {}, name: "MAX", affects: BOTH },
  CONSTANT_CHANGED: {
    before: { constants: [constant("JSONRPC_VERSION", "2.0")] },
    after: { constants: [constant("JSONRPC_VERSION", "3.0")] },
    name: "JSONRPC_VERSION",
    affects: BOTH,
  },
  ERROR_CODE_ADDED: { before: {}, after: { constants: [constant("BUSY", -32001)] }, name: "BUSY", affects: NONE },
  ERROR_CODE_REMOVED: { before: { constants: [constant("BUSY", -32001)] }, after: {}, name: "BUSY", affects: BOTH },
  ERROR_CODE_CHANGED: {
    before: { constants: [constant("BUSY", -32001)] },
    after: { constants: [constant("BUSY", -32002)] },
    name: "BUSY",
    affects: BOTH,
  },
  // The tiny models are revisions "old" and "new".
  PROTOCOL_VERSION_CHANGED: {
    before: { constants: [constant("LATEST_PROTOCOL_VERSION", "old")] },
    after: { constants: [constant("LATEST_PROTOCOL_VERSION", "new")] },
    name: "LATEST_PROTOCOL_VERSION",
    affects: BOTH,
  },
};

describe("breaking-change rules, one minimal model pair each", () => {
  for (const id of RULE_IDS) {
    const c = CASES[id];
    it(`${id}: ${c.name} affects ${c.affects.join(" and ") || "nobody"}`, () => {
      const report = diffTiny(c.before, c.after);
      const finding = report.changes.find((f) => f.rule === id && f.name === c.name);
      expect(finding, `findings:\n${brief(report).join("\n")}`).toBeDefined();
      expect(finding?.affects).toEqual(c.affects);
      expect(finding?.severity).toBe(RULES[id].severity);
      expect(finding?.breaking).toBe(RULES[id].severity === "breaking");
      if (c.kind) expect(finding?.kind).toBe(c.kind);
    });
  }

  it("no pair differs from itself", () => {
    for (const id of RULE_IDS) {
      expect(brief(diffTiny(CASES[id].before, CASES[id].before)), id).toEqual([]);
      expect(brief(diffTiny(CASES[id].after, CASES[id].after)), id).toEqual([]);
    }
  });
});

describe("moves and rewrites are reported once, without breaking effect", () => {
  it("a field moved into a new base type is one move, not a removal and an addition", () => {
    const report = diffTiny(CASES.FIELD_MOVED.before, CASES.FIELD_MOVED.after);
    expect(brief(report)).toEqual(["TYPE_ADDED Named []", "FIELD_MOVED Named.name []"]);
    const moved = report.changes.find((f) => f.rule === "FIELD_MOVED");
    expect(moved?.before).toBe("Query.name, Thing.name");
    expect(moved?.inheritedBy).toEqual(["Query", "Thing"]);
  });

  it("inline params split out into a *Params type is one extraction", () => {
    expect(brief(diffTiny(CASES.TYPE_EXTRACTED.before, CASES.TYPE_EXTRACTED.after))).toEqual([
      "TYPE_EXTRACTED ThingsGetParams []",
    ]);
  });

  it("`{ [key: string]: unknown }` rewritten as an equivalent alias is one extraction", () => {
    const before = things({
      thing: [
        prop("meta", {
          kind: "object",
          properties: [],
          indexSignature: { keyName: "key", keyType: "string", type: unknown },
        }),
      ],
    });
    const after = things({
      thing: [prop("meta", ref("MetaObject"))],
      types: [alias("MetaObject", { kind: "record", key: str, value: unknown })],
    });
    expect(brief(diffTiny(before, after))).toEqual(["TYPE_EXTRACTED MetaObject []"]);
  });

  it("`object`, `JSONObject` and `{ [key: string]: JSONValue }` are the same on the wire", () => {
    const json = [
      alias(
        "JSONValue",
        union(
          str,
          num,
          { kind: "primitive", name: "boolean" },
          { kind: "primitive", name: "null" },
          ref("JSONObject"),
          ref("JSONArray"),
        ),
      ),
      alias("JSONObject", {
        kind: "object",
        properties: [],
        indexSignature: { keyName: "key", keyType: "string", type: ref("JSONValue") },
      }),
      alias("JSONArray", array(ref("JSONValue"))),
    ];
    const before = things({ thing: [prop("data", { kind: "primitive", name: "object" }), prop("value", unknown)] });
    const after = things({ thing: [prop("data", ref("JSONObject")), prop("value", ref("JSONValue"))], types: json });
    expect(brief(diffTiny(before, after))).toEqual([
      "TYPE_ADDED JSONArray []",
      "TYPE_EXTRACTED JSONObject []",
      "TYPE_EXTRACTED JSONValue []",
    ]);
  });

  it("an interface that became a union spells out the structural difference", () => {
    const finding = diffTiny(CASES.TYPE_WIDENED.before, CASES.TYPE_WIDENED.after).changes.find(
      (f) => f.name === "Thing",
    );
    expect(finding?.detail).toBe(
      "interface → union of OneThing | ManyThings; the old shape is equal to OneThing; new members: ManyThings",
    );
  });

  it("a near-equal rename lists its differences as field changes of the new type", () => {
    const before = things({
      thing: [prop("ref", ref("ThingRef"))],
      types: [iface("ThingRef", [prop("uri", str), prop("kind", str), prop("label", str)])],
    });
    const after = things({
      thing: [prop("ref", ref("ThingReference"))],
      types: [iface("ThingReference", [prop("uri", str), prop("kind", str), prop("label", str, true)])],
    });
    expect(brief(diffTiny(before, after))).toEqual([
      "TYPE_RENAMED ThingReference [client,server]",
      "FIELD_BECAME_OPTIONAL ThingReference.label [client]",
    ]);
  });

  it("a method in both directions is one finding per change", () => {
    const both = (extra: object = {}) => ({ methods: [ping(extra), ping({ direction: "serverToClient", ...extra })] });
    expect(brief(diffTiny(both(), {}))).toEqual([
      "REQUEST_REMOVED things/ping [client,server]",
      "TYPE_REMOVED ThingsPingRequest [client,server]",
    ]);
    expect(diffTiny(both(), {}).changes[0]?.directions).toEqual(["clientToServer", "serverToClient"]);
  });
});

describe("docs/diff-rules.md", () => {
  const doc = readFileSync(join(paths.root, "docs", "diff-rules.md"), "utf8");
  // Table rows: | `ID` | severity | role | summary |, padded by the formatter.
  const rows = [...doc.matchAll(/^\| `([A-Z_]+)` +\| (\w+) +\| (\w+) +\|/gm)].map((m) => ({
    id: m[1] as string,
    severity: m[2] as string,
    breaks: m[3] as string,
  }));

  it("documents every rule once, with the code's severity and role, in the code's order", () => {
    expect(rows.map((r) => r.id)).toEqual(RULE_IDS);
    for (const row of rows) {
      const rule = RULES[row.id as RuleId];
      expect(row.severity, row.id).toBe(rule.severity);
      expect(row.breaks, row.id).toBe(rule.breaks);
    }
  });
});
