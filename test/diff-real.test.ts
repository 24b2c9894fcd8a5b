// The diff on the six real models: no false changes, nothing left out, the facts every
// upgrade guide must carry, the JSON contract, and determinism.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import AjvModule from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { diffModels } from "../generators/diff/diff.js";
import type { DiffReport, Finding } from "../generators/diff/rules/findings.js";
import { revisionLinks } from "../generators/diff/rules/links.js";
import { RULE_IDS } from "../generators/diff/rules/rules.js";
import type { Declaration, Model } from "../generators/model/model.js";
import { paths } from "../generators/paths.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";
import { checkedInModel, REVISIONS } from "./support/spec.js";

const table = loadRevisionTable();
const models = new Map(REVISIONS.map((r) => [r, checkedInModel(r)]));
const model = (r: string) => models.get(r) as Model;
const diff = (a: string, b: string) =>
  diffModels(model(a), model(b), { before: revisionLinks(table, a), after: revisionLinks(table, b) });
const pairs = REVISIONS.slice(1).map((to, i) => [REVISIONS[i] as string, to] as const);
const reports = new Map(pairs.map(([a, b]) => [`${a}..${b}`, diff(a, b)]));
const report = (a: string, b: string) => reports.get(`${a}..${b}`) as DiffReport;

function find(r: DiffReport, rule: string, name: string): Finding | undefined {
  return r.changes.find((f) => f.rule === rule && f.name === name);
}

/** A declaration without the facts that are not part of its meaning (source line, grouping). */
function meaning(d: Declaration | undefined): string {
  if (!d) return "";
  const { line: _line, category: _category, ...rest } = d;
  return JSON.stringify(rest);
}

/** Every declaration name a finding mentions: its subject, inheritors, and names in before/after. */
function mentioned(r: DiffReport): Set<string> {
  const names = new Set<string>();
  for (const f of r.changes) {
    names.add(f.name.split(/[.=]/)[0] as string);
    for (const n of f.inheritedBy ?? []) names.add(n);
    for (const v of [f.before, f.after]) {
      if (typeof v === "string") for (const m of v.matchAll(/\b([A-Z]\w*)\b/g)) names.add(m[1] as string);
    }
  }
  return names;
}

/**
 * Declarations whose model entry differs without any difference in messages or type names,
 * each with the reason it is not a finding of its own.
 */
const NOT_CHANGES: Record<string, Record<string, string>> = {
  "2024-11-05..2025-03-26": { ServerResult: "only the order of union members changed" },
  "2025-03-26..2025-06-18": {
    JSONRPCRequest: "`params._meta` gained an `unknown` index signature; objects are open on the wire",
    PingRequest: "as JSONRPCRequest (inherited `params`)",
    ListRootsRequest: "as JSONRPCRequest (inherited `params`)",
  },
  "2025-06-18..2025-11-25": {
    JSONRPCMessage: "JSONRPCError moved into JSONRPCResponse: the same messages (reported on JSONRPCResponse)",
  },
  "2025-11-25..2026-07-28": {
    TextResourceContents: "inherits `_meta`, rewritten as the equivalent MetaObject (reported as its extraction)",
    BlobResourceContents: "as TextResourceContents",
    ResourceLink: "inherits `_meta` from Resource, rewritten as MetaObject",
  },
};

describe("no false changes", () => {
  it.each(REVISIONS)("%s against itself has no findings", (r) => {
    expect(diff(r, r).changes).toEqual([]);
  });

  it("2026-07-28 against draft reports exactly what differs between the two model files", () => {
    const strip = (m: Model) => {
      const { revision: _revision, source: _source, ...rest } = m;
      return JSON.stringify({
        ...rest,
        declarations: rest.declarations.map(meaning),
        constants: rest.constants.map((c) => ({ ...c, line: 0 })),
      });
    };
    const same = strip(model("2026-07-28")) === strip(model("draft"));
    const r = report("2026-07-28", "draft");
    if (same) {
      expect(r.changes).toEqual([]);
    } else {
      // A future draft: every declaration that differs is mentioned.
      const touched = mentioned(r);
      const after = new Map(model("draft").declarations.map((d) => [d.name, d]));
      for (const d of model("2026-07-28").declarations) {
        if (meaning(d) !== meaning(after.get(d.name))) expect(touched.has(d.name), d.name).toBe(true);
      }
    }
  });
});

describe("nothing left out", () => {
  it.each(pairs)("%s → %s: every declaration, method and constant that differs is reported", (a, b) => {
    const r = report(a, b);
    const touched = mentioned(r);
    const exceptions = NOT_CHANGES[`${a}..${b}`] ?? {};
    const before = new Map(model(a).declarations.map((d) => [d.name, d]));
    const after = new Map(model(b).declarations.map((d) => [d.name, d]));
    const missing = [...new Set([...before.keys(), ...after.keys()])].filter(
      (name) => meaning(before.get(name)) !== meaning(after.get(name)) && !touched.has(name) && !exceptions[name],
    );
    expect(missing).toEqual([]);
    for (const name of Object.keys(exceptions)) {
      expect(meaning(before.get(name)), `${name} no longer differs: drop the exception`).not.toBe(
        meaning(after.get(name)),
      );
    }

    // Params are compared as part of the message type; `resultSource` is how the model found the
    // result type, not a fact about the protocol.
    const methodKey = (m: Model["methods"][number]) => `${m.method} ${m.direction}`;
    const facts = (m: Model["methods"][number]) => JSON.stringify({ ...m, params: 0, resultSource: 0 });
    const methodsA = new Map(model(a).methods.map((m) => [methodKey(m), m]));
    for (const m of model(b).methods) {
      const old = methodsA.get(methodKey(m));
      const differs = !old || facts(old) !== facts(m);
      if (differs) expect(touched.has(m.type) || r.changes.some((f) => f.name === m.method), methodKey(m)).toBe(true);
    }
    for (const m of model(a).methods) {
      if (!model(b).methods.some((n) => methodKey(n) === methodKey(m))) {
        expect(
          r.changes.some((f) => f.name === m.method),
          methodKey(m),
        ).toBe(true);
      }
    }
    const constantsB = new Map(model(b).constants.map((c) => [c.name, c]));
    for (const c of model(a).constants) {
      const n = constantsB.get(c.name);
      if (!n || n.value !== c.value)
        expect(
          r.changes.some((f) => f.kind === "constant" && f.name === c.name),
          c.name,
        ).toBe(true);
    }
  });
});

describe("the facts an upgrade guide must carry", () => {
  it("2024-11-05 → 2025-03-26: the completions capability and audio content", () => {
    const r = report("2024-11-05", "2025-03-26");
    expect(find(r, "CAPABILITY_ADDED", "ServerCapabilities.completions")?.kind).toBe("capability");
    expect(find(r, "TYPE_ADDED", "AudioContent")).toBeDefined();
    expect(find(r, "UNION_MEMBER_ADDED", "CallToolResult.content[]")?.after).toBe("AudioContent");
    expect(find(r, "REQUEST_GATED", "completion/complete")?.after).toBe("server:completions");
    expect(find(r, "UNION_MEMBER_ADDED", "JSONRPCMessage")?.after).toBe("JSONRPCBatchRequest");
  });

  it("2025-03-26 → 2025-06-18: batching removed, structured tool output, elicitation", () => {
    const r = report("2025-03-26", "2025-06-18");
    const batch = find(r, "UNION_MEMBER_REMOVED", "JSONRPCMessage");
    expect(batch?.before).toBe("JSONRPCBatchRequest");
    expect(batch?.affects).toEqual(["client", "server"]);
    expect(find(r, "TYPE_REMOVED", "JSONRPCBatchResponse")).toBeDefined();
    expect(find(r, "FIELD_ADDED_OPTIONAL", "Tool.outputSchema")).toBeDefined();
    expect(find(r, "FIELD_ADDED_OPTIONAL", "CallToolResult.structuredContent")).toBeDefined();
    expect(find(r, "REQUEST_ADDED", "elicitation/create")?.directions).toEqual(["serverToClient"]);
    expect(find(r, "CAPABILITY_ADDED", "ClientCapabilities.elicitation")).toBeDefined();
    expect(find(r, "TYPE_RENAMED", "ResourceTemplateReference")?.before).toBe("ResourceReference");
    // `name` moved into the new BaseMetadata: a move, not seven removals and an addition.
    expect(find(r, "FIELD_MOVED", "BaseMetadata.name")?.inheritedBy).toContain("Tool");
    expect(r.changes.filter((f) => f.rule === "FIELD_REMOVED_REQUIRED")).toEqual([]);
  });

  it("2025-06-18 → 2025-11-25: tasks, icons, URL elicitation; params split out without false changes", () => {
    const r = report("2025-06-18", "2025-11-25");
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
      expect(r.changes.filter((f) => f.rule === "REQUEST_ADDED" && f.name === method)).toHaveLength(2);
    }
    expect(find(r, "FIELD_ADDED_OPTIONAL", "Icons.icons")?.inheritedBy).toContain("Tool");
    expect(find(r, "TYPE_EXTRACTED", "CallToolRequestParams")?.before).toBe("CallToolRequest.params");
    expect(find(r, "TYPE_RENAMED", "JSONRPCErrorResponse")?.before).toBe("JSONRPCError");
    expect(find(r, "FIELD_BECAME_OPTIONAL", "JSONRPCErrorResponse.id")).toBeDefined();
    expect(find(r, "TYPE_FORM_CHANGED", "JSONRPCResponse")?.detail).toContain(
      "the old shape is equal to JSONRPCResultResponse",
    );
    expect(find(r, "ERROR_CODE_ADDED", "URL_ELICITATION_REQUIRED")?.after).toBe(-32042);
    // The message types now extend the JSON-RPC envelope: said differently, not new required fields.
    expect(find(r, "ENVELOPE_FIELD_DECLARED", "JSONRPCRequest.id")?.inheritedBy).toContain("CallToolRequest");
    expect(r.changes.filter((f) => f.rule === "FIELD_ADDED_REQUIRED")).toEqual([]);
  });

  it("2025-11-25 → 2026-07-28: no handshake, discovery and subscriptions, resultType on results", () => {
    const r = report("2025-11-25", "2026-07-28");
    expect(find(r, "REQUEST_REMOVED", "initialize")?.affects).toEqual(["client"]);
    expect(find(r, "REQUEST_REMOVED", "ping")?.affects).toEqual(["client", "server"]);
    expect(find(r, "REQUEST_REMOVED", "logging/setLevel")?.affects).toEqual(["client"]);
    expect(find(r, "NOTIFICATION_REMOVED", "notifications/initialized")?.affects).toEqual(["server"]);
    expect(find(r, "REQUEST_ADDED_UNGATED", "server/discover")?.affects).toEqual(["server"]);
    expect(find(r, "REQUEST_ADDED_UNGATED", "subscriptions/listen")).toBeDefined();
    const resultType = find(r, "FIELD_ADDED_REQUIRED", "Result.resultType");
    expect(resultType?.breaking).toBe(true);
    expect(resultType?.inheritedBy).toContain("CallToolResult");
    expect(find(r, "RESULT_WIDENED", "tools/call")?.after).toBe("CallToolResult | InputRequiredResult");
    expect(find(r, "REQUEST_DELIVERY_CHANGED", "sampling/createMessage")?.after).toBe("inputRequired");
    expect(
      find(r, "FIELD_ADDED_REQUIRED", "RequestMetaObject.io.modelcontextprotocol/protocolVersion")?.affects,
    ).toEqual(["client"]);
    expect(find(r, "CAPABILITY_REMOVED", "ClientCapabilities.tasks")).toBeDefined();
    expect(find(r, "DEPRECATED", "ClientCapabilities.sampling")?.kind).toBe("capability");
  });
});

describe("the JSON contract", () => {
  const schema = JSON.parse(readFileSync(join(paths.root, "docs", "diff-report.schema.json"), "utf8")) as {
    properties: { changes: { items: { properties: { rule: { enum: string[] } } } } };
  };
  const ajv = new AjvModule.default({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);

  it.each(pairs)("%s → %s validates against docs/diff-report.schema.json", (a, b) => {
    const ok = validate(JSON.parse(JSON.stringify(report(a, b))));
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([]);
    expect(ok).toBe(true);
  });

  it("the schema lists exactly the rule ids", () => {
    expect(schema.properties.changes.items.properties.rule.enum).toEqual(RULE_IDS);
  });

  it("severity, breaking and affects agree; names follow the contract", () => {
    for (const r of reports.values()) {
      for (const f of r.changes) {
        expect(f.breaking).toBe(f.severity === "breaking");
        if (f.breaking) expect(f.affects.length, f.name).toBeGreaterThan(0);
        if (f.severity === "info") expect(f.affects, f.name).toEqual([]);
        if (f.kind === "enum-member") expect(f.name).toMatch(/^[A-Z]\w*(\.[^=]+)?=./);
        if (f.kind === "field" || f.kind === "capability") expect(f.name).toMatch(/^[A-Z]\w*\./);
        if (f.kind === "capability") expect(f.name).toMatch(/^(Client|Server)Capabilities\./);
        if (f.kind === "method" || f.kind === "notification") expect(f.name).toMatch(/^[a-z]/);
      }
    }
  });

  it("summary counts agree with the findings", () => {
    for (const r of reports.values()) {
      expect(r.summary.total).toBe(r.changes.length);
      expect(r.summary.breaking).toBe(r.changes.filter((f) => f.breaking).length);
      expect(r.summary.breakingFor.client).toBe(
        r.changes.filter((f) => f.breaking && f.affects.includes("client")).length,
      );
    }
  });
});
