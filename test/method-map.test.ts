// The method maps against the spec's own schema.json (an independent oracle) and the
// acceptance facts of the foundation issue.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Direction, Model } from "../generators/model/model.js";
import { paths } from "../generators/paths.js";
import { checkedInModel, officialSchema, REVISIONS, schemaTsPath, type JsonSchema } from "./support/spec.js";

const UNIONS: { union: string; kind: "request" | "notification"; direction: Direction }[] = [
  { union: "ClientRequest", kind: "request", direction: "clientToServer" },
  { union: "ServerRequest", kind: "request", direction: "serverToClient" },
  { union: "ClientNotification", kind: "notification", direction: "clientToServer" },
  { union: "ServerNotification", kind: "notification", direction: "serverToClient" },
];

/** Method names of a union in schema.json, read from each member's `method.const`. */
function unionMethods(revision: string, union: string): string[] | undefined {
  const { defs } = officialSchema(revision);
  const def = defs[union];
  if (!def) return undefined;
  const members = (def.anyOf as JsonSchema[] | undefined) ?? [def];
  return members
    .map((m) => {
      // typescript-json-schema inlines an alias of a single type instead of referring to it.
      const member = typeof m.$ref === "string" ? defs[m.$ref.split("/").pop() as string] : m;
      const method = (member?.properties as Record<string, JsonSchema>).method;
      return String(method?.const);
    })
    .sort();
}

function modelMethods(model: Model, kind: string, direction: Direction, delivery = "message"): string[] {
  return model.methods
    .filter((m) => m.kind === kind && m.direction === direction && m.delivery === delivery)
    .map((m) => m.method)
    .sort();
}

describe.each(REVISIONS)("method map of %s", (revision) => {
  const model = checkedInModel(revision);

  it.each(UNIONS)("lists every member of $union with direction $direction", ({ union, kind, direction }) => {
    const expected = unionMethods(revision, union) ?? [];
    expect(modelMethods(model, kind, direction)).toEqual(expected);
  });

  it("has a params entry for every message and a result for every request", () => {
    for (const m of model.methods) {
      expect(m.params, m.method).not.toBeNull();
      expect(m.kind === "request" ? m.result : undefined, m.method).toEqual(
        m.kind === "request" ? expect.anything() : undefined,
      );
    }
  });

  it("names only capabilities that exist in the revision's capabilities types", () => {
    for (const m of model.methods.filter((e) => e.capability)) {
      const root = model.declarations.find(
        (d) => d.name === `${m.capability?.side === "client" ? "Client" : "Server"}Capabilities`,
      );
      expect(
        root?.resolved?.properties.map((p) => p.name),
        m.method,
      ).toContain(m.capability?.path[0]);
    }
  });

  it("agrees with the generated runtime arrays", async () => {
    const methods = (await import(/* @vite-ignore */ `../generated/${revision}/methods.ts`)) as Record<
      string,
      readonly string[]
    >;
    expect([...(methods.CLIENT_REQUEST_METHODS ?? [])].sort()).toEqual(
      modelMethods(model, "request", "clientToServer"),
    );
    expect([...(methods.SERVER_NOTIFICATION_METHODS ?? [])].sort()).toEqual(
      modelMethods(model, "notification", "serverToClient"),
    );
  });
});

describe("revision-specific facts", () => {
  it("2024-11-05 has the initialize handshake and ping", () => {
    const methods = modelMethods(checkedInModel("2024-11-05"), "request", "clientToServer");
    expect(methods).toContain("initialize");
    expect(methods).toContain("ping");
  });

  it.each(["2026-07-28", "draft"])(
    "%s has discovery and subscriptions but no handshake, ping or setLevel",
    (revision) => {
      const model = checkedInModel(revision);
      const client = modelMethods(model, "request", "clientToServer");
      expect(client).toEqual(expect.arrayContaining(["server/discover", "subscriptions/listen"]));
      for (const gone of ["initialize", "ping", "logging/setLevel"]) {
        expect(model.methods.map((m) => m.method)).not.toContain(gone);
      }
    },
  );

  it.each(["2026-07-28", "draft"])("%s carries server→client requests as input requests", (revision) => {
    const model = checkedInModel(revision);
    expect(officialSchema(revision).defs.ServerRequest).toBeUndefined();
    const input = model.methods.filter((m) => m.delivery === "inputRequired");
    expect(input.map((m) => [m.method, m.direction, m.params !== null, m.result])).toEqual([
      ["sampling/createMessage", "serverToClient", true, { kind: "ref", name: "CreateMessageResult" }],
      ["roots/list", "serverToClient", true, { kind: "ref", name: "ListRootsResult" }],
      ["elicitation/create", "serverToClient", true, { kind: "ref", name: "ElicitResult" }],
    ]);
  });

  it.each(["2026-07-28", "draft"])("%s marks cacheable the results the caching page lists", (revision) => {
    const caching = checkedInModel(revision).protocol.caching;
    // server/utilities/caching.mdx, "Cacheable Results".
    expect(caching?.methods.slice().sort()).toEqual(
      [
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
      ].sort(),
    );
    expect(caching).toMatchObject({ ttl: "ttlMs", scope: "cacheScope", shared: "public" });
    expect(checkedInModel(revision).protocol.http).toMatchObject({
      kind: "stateless",
      paramHeaders: { annotation: "x-mcp-header", list: "tools/list", call: "tools/call" },
    });
  });

  it.each(REVISIONS)(
    "%s recognises exactly the string literals of schema.ts's ResultType, where results have a kind",
    (revision) => {
      // Read from the schema's text, not the model: `export type ResultType = "a" | "b" | string;`.
      const union = /export type ResultType =([^;]+);/.exec(readFileSync(schemaTsPath(revision), "utf8"))?.[1];
      const literals = [...(union ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      const protocol = checkedInModel(revision).protocol;
      expect(protocol.resultTypes).toEqual(union === undefined ? undefined : { field: "resultType", values: literals });
      if (union !== undefined) expect(literals).toEqual(expect.arrayContaining(["complete", "input_required"]));
    },
  );

  it.each(REVISIONS.filter((r) => r < "2026"))("%s has no cacheable results", (revision) => {
    expect(checkedInModel(revision).protocol.caching).toBeUndefined();
  });

  it.each(REVISIONS)("%s gates tool use in sampling and URL elicitation where its schema has them", (revision) => {
    const protocol = checkedInModel(revision).protocol;
    const gates = (protocol.paramGates ?? []).map(
      (g) => `${g.method} ${g.field}${g.values ? `=${g.values.join("|")}` : ""} ${g.capability.path.join(".")}`,
    );
    // The sampling page's tool use and the elicitation page's modes arrived in 2025-11-25.
    const since = revision >= "2025-11-25";
    expect(gates).toEqual(
      since
        ? [
            "sampling/createMessage tools sampling.tools",
            "sampling/createMessage toolChoice sampling.tools",
            "sampling/createMessage includeContext=thisServer|allServers sampling.context",
            "elicitation/create mode=form elicitation.form",
            "elicitation/create mode=url elicitation.url",
          ]
        : [],
    );
    expect(protocol.samplingTools === undefined).toBe(!since);
    if (since)
      expect(protocol.samplingTools).toMatchObject({ use: { type: "tool_use" }, result: { type: "tool_result" } });
    // Completion notifications for URL elicitation exist in 2025-11-25 alone.
    expect(protocol.urlElicitation?.complete).toBe(
      revision === "2025-11-25" ? "notifications/elicitation/complete" : undefined,
    );
    expect(protocol.rootUris?.scheme).toBe("file://");
  });

  it("2026-07-28 reads multi-round-trip results from the schema's response types", () => {
    const call = checkedInModel("2026-07-28").methods.find((m) => m.method === "tools/call");
    expect(call?.resultSource).toBe("responseType");
    expect(call?.result).toEqual({
      kind: "union",
      members: [
        { kind: "ref", name: "CallToolResult" },
        { kind: "ref", name: "InputRequiredResult" },
      ],
    });
  });
});

describe("server errors (protocol.serverErrors)", () => {
  it("tool argument failures are tool results from 2025-11-25 on, in every later revision too", () => {
    const from = REVISIONS.indexOf("2025-11-25");
    for (const [i, revision] of REVISIONS.entries())
      expect(checkedInModel(revision).protocol.serverErrors?.toolArguments, revision).toBe(
        i >= from ? "toolResult" : "invalidParams",
      );
  });

  it("an unknown resource is invalid params exactly where schema.ts records -32002 as retired", () => {
    for (const revision of REVISIONS) {
      const retired = /`-32002` \(resource not found/.test(readFileSync(schemaTsPath(revision), "utf8"));
      expect(checkedInModel(revision).protocol.serverErrors?.resourceNotFound, revision).toBe(
        retired ? -32602 : -32002,
      );
    }
  });
});

describe("spec/method-inferences.json", () => {
  const table = JSON.parse(readFileSync(paths.inferences, "utf8")) as {
    capabilities: Record<Direction, Record<string, string | null>>;
  };

  it("has no entry that no revision uses", () => {
    for (const direction of ["clientToServer", "serverToClient"] as const) {
      const used = new Set(
        REVISIONS.flatMap((r) =>
          checkedInModel(r)
            .methods.filter((m) => m.direction === direction)
            .map((m) => m.method),
        ),
      );
      expect(
        Object.keys(table.capabilities[direction]).filter((m) => !used.has(m)),
        direction,
      ).toEqual([]);
    }
  });

  it("is used: every gated method of every revision carries the table's capability", () => {
    for (const revision of REVISIONS) {
      for (const m of checkedInModel(revision).methods) {
        const spec = table.capabilities[m.direction][m.method];
        const actual = m.capability ? `${m.capability.side}:${m.capability.path.join(".")}` : null;
        // A capability missing from an early revision leaves the method ungated there.
        expect([spec, null], `${revision} ${m.method}`).toContain(actual);
      }
    }
  });
});
