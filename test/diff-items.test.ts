// Items and highlights: findings of one rule about the same thing (a union's members, a method's
// directions) listed as one item without losing a finding, and the themes a report opens with,
// computed from the items and the models' protocol facts.
import { describe, expect, it } from "vitest";
import { diffModels } from "../generators/diff/diff.js";
import type { DiffReport, Finding, Item, Theme } from "../generators/diff/rules/findings.js";
import { findingsOf } from "../generators/diff/rules/items.js";
import { revisionLinks } from "../generators/diff/rules/links.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";
import { diffTiny, iface, prop, ref, str, things, union } from "./support/diff-models.js";
import { checkedInModel, REVISIONS } from "./support/spec.js";

const table = loadRevisionTable();
const pairs = REVISIONS.slice(1).map((to, i) => [REVISIONS[i] as string, to] as const);
const real = new Map(
  pairs.map(([a, b]) => [
    `${a}..${b}`,
    diffModels(checkedInModel(a), checkedInModel(b), {
      before: revisionLinks(table, a),
      after: revisionLinks(table, b),
    }),
  ]),
);
const report = (a: string, b: string) => real.get(`${a}..${b}`) as DiffReport;

function themeNames(r: DiffReport, theme: Theme): string[] {
  const ids = r.highlights.find((h) => h.theme === theme)?.items ?? [];
  return ids.map((id) => r.items.find((i) => i.id === id)?.name as string);
}

describe("items", () => {
  it("list a method's two directions as one item that affects both sides", () => {
    const r = diffTiny(
      things({
        methods: [
          // Gated by each receiver's capability: one finding per direction.
          { method: "things/ping", direction: "clientToServer", capability: "server:ping" },
          { method: "things/ping", direction: "serverToClient", capability: "client:ping" },
        ],
      }),
      things(),
    );
    const pings = r.changes.filter((f) => f.name === "things/ping");
    expect(pings.map((f) => f.affects)).toEqual([["client"], ["server"]]);
    const item = r.items.find((i) => i.name === "things/ping");
    expect(item).toMatchObject({
      rule: "REQUEST_REMOVED",
      affects: ["client", "server"],
      directions: ["clientToServer", "serverToClient"],
    });
    expect(findingsOf(item as Item, r.changes)).toEqual(pings);
  });

  /** `Thing.content`, a union of the named content types. */
  const content = (...names: string[]) => ({
    types: [
      iface("Text", [prop("text", str)]),
      iface("Image", [prop("data", str)]),
      iface("Audio", [prop("data", str), prop("mime", str)]),
    ],
    thing: [prop("id", str), prop("content", union(...names.map(ref)))],
  });

  it("list the members a union gained as one item", () => {
    const r = diffTiny(things(content("Text")), things(content("Text", "Image", "Audio")));
    const gained = r.changes.filter((f) => f.rule === "UNION_MEMBER_ADDED");
    expect(gained.map((f) => f.after)).toEqual(["Audio", "Image"]);
    expect(r.items.filter((i) => i.rule === "UNION_MEMBER_ADDED")).toEqual([
      expect.objectContaining({ name: "Thing.content", id: "field-Thing.content-UNION_MEMBER_ADDED" }),
    ]);
  });

  it("never merge findings that disagree on severity: each severity makes an item of its own", () => {
    // The union above gains two members; one of them is judged a warning (as a `select` may).
    const downgraded = (f: Finding): Finding =>
      f.rule === "UNION_MEMBER_ADDED" && f.after === "Image" ? { ...f, severity: "warning", breaking: false } : f;
    const r = diffTiny(things(content("Text")), things(content("Text", "Image", "Audio")), {
      select: (all) => all.map(downgraded),
    });
    const items = r.items.filter((i) => i.rule === "UNION_MEMBER_ADDED");
    expect(items.map((i) => [i.id, i.severity, i.breaking, findingsOf(i, r.changes).map((f) => f.after)])).toEqual([
      ["field-Thing.content-UNION_MEMBER_ADDED", "breaking", true, ["Audio"]],
      ["field-Thing.content-UNION_MEMBER_ADDED-2", "warning", false, ["Image"]],
    ]);
  });

  it.each(pairs)("%s → %s: every finding is in exactly one item, and no two items share subject and rule", (a, b) => {
    const r = report(a, b);
    const positions = r.items.flatMap((i) => i.findings).sort((x, y) => x - y);
    expect(positions).toEqual(r.changes.map((_, i) => i));
    const keys = r.items.map((i) => `${i.kind} ${i.name} ${i.rule}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(r.items.map((i) => i.id)).size).toBe(r.items.length);
    for (const item of r.items) {
      const findings = findingsOf(item, r.changes);
      for (const f of findings)
        expect([f.kind, f.name, f.rule, f.severity]).toEqual([item.kind, item.name, item.rule, item.severity]);
      const sides = new Set(findings.flatMap((f: Finding) => f.affects));
      expect(item.affects).toEqual(["client", "server"].filter((s) => sides.has(s as "client")));
    }
  });

  it("2025-06-18 → 2025-11-25: the tasks methods once each, with both directions; sampling content once", () => {
    const r = report("2025-06-18", "2025-11-25");
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
      const items = r.items.filter((i) => i.name === method);
      expect(items).toHaveLength(1);
      expect(items[0]?.directions).toEqual(["clientToServer", "serverToClient"]);
      expect(items[0]?.findings).toHaveLength(2);
    }
    const content = r.items.filter((i) => i.name === "SamplingMessage.content");
    expect(content).toHaveLength(1);
    expect(findingsOf(content[0] as Item, r.changes).map((f) => f.after)).toEqual([
      "SamplingMessageContentBlock[]",
      "ToolResultContent",
      "ToolUseContent",
    ]);
  });
});

describe("highlights", () => {
  const hello = {
    handshake: { request: "things/hello", notification: "notifications/hi", allowedBefore: [], params: [], result: [] },
  };

  it("name the handshake from the model's protocol facts, and removals apart from it", () => {
    const before = things({
      protocol: hello,
      methods: [{ method: "things/hello" }, { method: "things/drop", capability: "server:things" }],
    });
    const r = diffTiny(before, things({ protocol: {} }));
    expect(themeNames(r, "handshake")).toEqual(["things/hello"]);
    expect(themeNames(r, "removed")).toEqual(["things/drop"]);
    // Every highlighted id is an item, and no item is in two themes.
    const ids = r.highlights.flatMap((h) => h.items);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(r.items.some((i) => i.id === id)).toBe(true);
  });

  it("are empty when nothing changed", () => {
    expect(diffTiny(things(), things()).highlights).toEqual([]);
  });

  it("2025-11-25 → 2026-07-28: the handshake gives way to discovery, requests move into the input-required result", () => {
    const r = report("2025-11-25", "2026-07-28");
    expect(r.highlights[0]?.theme).toBe("handshake");
    expect(themeNames(r, "handshake")).toEqual(
      expect.arrayContaining([
        "initialize",
        "notifications/initialized",
        "server/discover",
        "RequestMetaObject.io.modelcontextprotocol/protocolVersion",
      ]),
    );
    expect(themeNames(r, "delivery")).toEqual(
      expect.arrayContaining(["sampling/createMessage", "elicitation/create", "roots/list", "tools/call"]),
    );
    expect(themeNames(r, "removed")).toEqual(expect.arrayContaining(["ping", "logging/setLevel", "tasks/get"]));
    expect(themeNames(r, "added")).toContain("subscriptions/listen");
    expect(themeNames(r, "shared")).toContain("Result.resultType");
    expect(r.changelog).toBe("https://modelcontextprotocol.io/specification/2026-07-28/changelog");
  });

  it("2025-03-26 → 2025-06-18: batching leaves the JSON-RPC envelope", () => {
    const r = report("2025-03-26", "2025-06-18");
    expect(themeNames(r, "delivery")).toEqual(["JSONRPCMessage"]);
  });

  it.each(pairs)("%s → %s: each report links its target's changelog where the spec has one", (_a, b) => {
    const r = real.get(`${_a}..${b}`) as DiffReport;
    expect(r.changelog).toBe(`https://modelcontextprotocol.io/specification/${b}/changelog`);
  });
});
