// The renderers over one findings list: the Markdown upgrade guide's order and grouping,
// escaping in HTML and Markdown, the JSON format, and the generated/diffs tree.
import { describe, expect, it } from "vitest";
import { buildDiffTree } from "../generators/diff/command/tree.js";
import { RENDERERS } from "../generators/diff/render/renderers.js";
import { revisionLinks } from "../generators/diff/rules/links.js";
import { loadRevisionTable } from "../generators/spec/revisions.js";
import { constant, diffTiny, num, prop, str, things, TINY_LINKS } from "./support/diff-models.js";
import { checkedInModel, REVISIONS } from "./support/spec.js";

const links = { from: TINY_LINKS.before, to: TINY_LINKS.after };

// One change of each audience: breaking for servers, breaking for clients, a warning, an addition.
const report = diffTiny(
  things({ thing: [prop("id", str), prop("gone", num)], query: [prop("q", str)] }),
  things({
    thing: [prop("id", str), prop("size", num), prop("note", str, true)],
    query: [prop("q", str)],
    types: [],
    constants: [constant("MARKER", "<evil>&")],
    methods: [{ method: "things/ping" }],
  }),
);

describe("the Markdown report", () => {
  const md = RENDERERS.md.render(report, { links });

  it("reads as an upgrade guide: highlights, summary, breaking changes by who must act, warnings, additions", () => {
    const headings = md.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual([
      "## Highlights",
      "## Summary",
      "## Breaking: clients must act (1)",
      "## Breaking: servers must act (2)",
      "## Additions (3)",
    ]);
    expect(md).toContain(
      "**3 breaking**: 0 for clients and servers, 1 for clients only, 2 for servers only (so 1 affects clients, 2 affect servers).",
    );
  });

  it("lists every finding once, with its rule and a link to the spec", () => {
    for (const f of report.changes) {
      const lines = md.split("\n").filter((l) => l.includes(`\`${f.rule}\``) && l.includes(`[spec](${f.link})`));
      expect(lines.length, f.rule).toBeGreaterThanOrEqual(1);
    }
    expect(md.match(/^- .*<br>$/gm)).toHaveLength(report.items.length);
  });

  it("puts values in code spans and escapes prose", () => {
    expect(md).toContain("`Thing.size`");
    expect(md).toContain("`<evil>&`");
    expect(md).not.toMatch(/[ \t]+$/m);
  });
});

describe("the HTML report", () => {
  const html = RENDERERS.html.render(report, { links });

  it("escapes every value", () => {
    expect(html).toContain("<code>&lt;evil&gt;&amp;</code>");
    expect(html).not.toContain("<evil>");
  });

  it("has one element per item, with an id to link to and the data the filters read", () => {
    expect(html.match(/<li class="finding /g)).toHaveLength(report.items.length);
    expect(html).toContain(
      'id="field-Thing.size-FIELD_ADDED_REQUIRED" data-item data-breaking="true" data-affects="server"',
    );
  });

  it("needs nothing from the network", () => {
    expect(html).not.toMatch(/<(link|img|iframe)\b|src=|@import|url\(/);
  });
});

describe("the JSON report", () => {
  it("is the report itself", () => {
    expect(JSON.parse(RENDERERS.json.render(report, { links }))).toEqual(report);
  });
});

describe("generated/diffs", () => {
  const table = loadRevisionTable();
  const revisions = REVISIONS.map((revision) => ({
    revision,
    model: checkedInModel(revision),
    links: revisionLinks(table, revision),
  }));
  const pairs = REVISIONS.slice(1).map((to, i) => `${REVISIONS[i]}..${to}`);

  it("has three formats per consecutive pair and an index linking them, the same bytes every time", () => {
    const first = buildDiffTree(revisions);
    expect(buildDiffTree(revisions)).toEqual(first);
    expect([...first.keys()].sort()).toEqual(
      [...pairs.flatMap((p) => ["md", "json", "html"].map((ext) => `${p}.${ext}`)), "index.html"].sort(),
    );
    const index = first.get("index.html") as string;
    for (const p of pairs) expect(index).toContain(`href="${p}.html"`);
    expect(index).not.toMatch(/<(link|img|iframe)\b|src=|@import|url\(/);
  });
});
