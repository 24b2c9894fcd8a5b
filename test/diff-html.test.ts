// The checked-in HTML pages in a real headless browser (the Chromium that ships in the npm package
// @sparticuz/chromium, driven by playwright-core): they load from file:// without console errors or
// any network request, the breaking-changes filter changes what is visible, and every link between
// pages resolves. Each report opens with its highlights, lists each subject and rule once, lets
// every finding be reached through the filters, and its counts add up as it says. Screenshots of
// index.html and the newest report are left in test-artifacts/ (git-ignored) for people to look at.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import npmChromium from "@sparticuz/chromium";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffReport, Item } from "../generators/diff/rules/findings.js";
import { DIFFS_DIR } from "../generators/diff/command/tree.js";
import { paths } from "../generators/paths.js";
import { REVISIONS } from "./support/spec.js";

// Nothing may reach the network (the test asserts it, and CI has none); no GPU is needed.
// @sparticuz/chromium's own `args` are tuned for AWS Lambda and not used: `--single-process` ends
// the browser when its first page closes, and `--disable-web-security` would hide failures a
// reader's browser shows on a file:// page.
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ARTIFACTS = join(paths.root, "test-artifacts");
const dir = join(paths.root, DIFFS_DIR);
const pages = ["index.html", ...REVISIONS.slice(1).map((to, i) => `${REVISIONS[i]}..${to}.html`)];

let browser: Browser;

function jsonOf(html: string): DiffReport {
  return JSON.parse(readFileSync(join(dir, html.replace(/\.html$/, ".json")), "utf8")) as DiffReport;
}

/** MCP_GEN_CHROMIUM names a local Chromium or Chrome to use instead of the npm package's. */
async function executablePath(): Promise<string> {
  const local = process.env["MCP_GEN_CHROMIUM"];
  if (local === undefined || local === "") return unpackedChromium();
  if (!existsSync(local)) throw new Error(`MCP_GEN_CHROMIUM=${local}: no such file`);
  return local;
}

/**
 * The npm package's Chromium, unpacked once into the repository's .cache/chromium. The package
 * unpacks into the temp directory, where another user's copy (root's, on a shared machine) can be
 * neither run nor replaced: it is pointed at the cache through TMPDIR, for the call only.
 */
async function unpackedChromium(): Promise<string> {
  const cache = join(paths.root, ".cache", "chromium");
  mkdirSync(cache, { recursive: true });
  const saved = process.env["TMPDIR"];
  process.env["TMPDIR"] = cache;
  try {
    return await npmChromium.executablePath();
  } finally {
    if (saved === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = saved;
  }
}

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: await executablePath(), args: ARGS });
});

afterAll(async () => {
  await browser?.close();
});

interface Loaded {
  page: Page;
  errors: string[];
  requests: string[];
}

async function open(file: string): Promise<Loaded> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const loaded: Loaded = { page, errors: [], requests: [] };
  page.on("console", (m) => {
    if (m.type() === "error") loaded.errors.push(m.text());
  });
  page.on("pageerror", (e) => loaded.errors.push(String(e)));
  page.on("request", (r) => loaded.requests.push(r.url()));
  await page.goto(pathToFileURL(join(dir, file)).href);
  return loaded;
}

/** Visible items and what the page's own counter says. */
async function visible(page: Page) {
  const items = page.locator("[data-item]");
  const shown = page.locator("[data-item]:not(.hidden)");
  return {
    total: await items.count(),
    shown: await shown.count(),
    breaking: await page.locator('[data-item][data-breaking="true"]').count(),
    shownBreaking: await page.locator('[data-item][data-breaking="true"]:not(.hidden)').count(),
    counter: (await page.locator("#shown").textContent()) ?? "",
  };
}

describe("generated/diffs pages in chromium", () => {
  it.each(pages)("%s loads from file:// with no console errors and no network request", async (file) => {
    const { page, errors, requests } = await open(file);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith("file://"))).toEqual([]);
    expect(await page.locator("h1").count()).toBe(1);
    await page.close();
  });

  it.each(["index.html", pages[4] as string])(
    "the breaking filter on %s shows exactly the breaking items",
    async (file) => {
      const { page } = await open(file);
      const before = await visible(page);
      expect(before.shown).toBe(before.total);
      expect(before.breaking).toBeGreaterThan(0);
      expect(before.breaking).toBeLessThan(before.total);
      await page.check("input[name=breaking]");
      const after = await visible(page);
      expect(after.shown).toBe(before.breaking);
      expect(after.shownBreaking).toBe(after.shown);
      expect(after.counter).toBe(`${before.breaking} of ${before.total} shown`);
      await page.fill("input[type=search]", "tools/call");
      const searched = await visible(page);
      expect(searched.shown).toBeGreaterThan(0);
      expect(searched.shown).toBeLessThan(after.shown);
      await page.close();
    },
  );

  it("index.html explains every mark its table uses, in its legend", async () => {
    const { page } = await open("index.html");
    const used = await page
      .locator("table.matrix td[class]")
      .evaluateAll((tds) => [...new Set(tds.flatMap((td) => (td.getAttribute("class") ?? "").split(" ")))]);
    const legend = await page
      .locator(".legend .k")
      .evaluateAll((ks) => ks.flatMap((k) => (k.getAttribute("class") ?? "").split(" ")));
    for (const state of used.filter((c) => c !== "" && c !== "absent")) expect(legend, state).toContain(state);
    const words = (await page.locator(".legend").textContent()) ?? "";
    expect(words).toContain("changed; code built on the revision before breaks");
    expect(words).toContain("sent by clients");
    await page.close();
  });

  const reports = pages.filter((p) => p !== "index.html");
  const nonEmpty = reports.filter((p) => jsonOf(p).changes.length > 0);

  it.each(nonEmpty)("%s opens with the highlights, before the counts and the changes", async (file) => {
    const { page } = await open(file);
    const top = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => (el as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top);
    expect(await page.locator("section.highlights").count()).toBe(1);
    expect(await page.locator("section.highlights").isVisible()).toBe(true);
    expect(await page.locator("section.highlights li.theme").count()).toBe(jsonOf(file).highlights.length);
    expect(await top("section.highlights")).toBeLessThan(await top(".overview"));
    expect(await top(".overview")).toBeLessThan(await top("[data-item]"));
    if (jsonOf(file).changelog) {
      expect(await page.locator("section.highlights a", { hasText: "changelog" }).getAttribute("href")).toBe(
        jsonOf(file).changelog,
      );
    }
    // Every name in the highlights leads to its item.
    for (const href of await page
      .locator("section.highlights li a")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
      expect(await page.locator(`[data-item][id="${(href as string).slice(1)}"]`).count(), href as string).toBe(1);
    }
    await page.close();
  });

  it.each(nonEmpty)("%s lists no two items with the same subject and rule", async (file) => {
    const { page } = await open(file);
    const keys = await page
      .locator("[data-item]")
      .evaluateAll((items) =>
        items.map((li) =>
          [
            li.getAttribute("data-kind"),
            li.querySelector(".name")?.textContent,
            li.querySelector(".rule")?.textContent,
          ].join(" "),
        ),
      );
    expect(keys.length).toBe(jsonOf(file).items.length);
    expect(new Set(keys).size).toBe(keys.length);
    await page.close();
  });

  it.each(nonEmpty)("%s: every finding is reachable through the filters", async (file) => {
    const { page } = await open(file);
    const report = jsonOf(file);
    const options = await page
      .locator("select[name=kind] option")
      .evaluateAll((os) => os.map((o) => o.getAttribute("value")));
    const owner = new Map(report.items.flatMap((item) => item.findings.map((i) => [i, item])));
    for (const [i, f] of report.changes.entries()) {
      const item = owner.get(i) as Item;
      expect(options, f.kind).toContain(f.kind);
      const el = page.locator(`[data-item][id="${item.id}"]`);
      // The finding's own values are spelled out on its item.
      for (const value of [f.before, f.after]) {
        if (value !== null && f.change === "changed") expect(await el.textContent()).toContain(String(value));
      }
      // Its kind, the side it breaks (if any) and its name leave it visible.
      await page.selectOption("select[name=kind]", f.kind);
      await page.selectOption("select[name=side]", f.affects[0] ?? "");
      await page.setChecked("input[name=breaking]", f.breaking);
      await page.fill("input[type=search]", f.name.toLowerCase());
      expect(await el.isVisible(), `${f.rule} ${f.name}`).toBe(true);
    }
    await page.close();
  });

  it.each(nonEmpty)("%s: the counts add up as the page states", async (file) => {
    const { page } = await open(file);
    const report = jsonOf(file);
    const count = async (name: string) => Number(await page.locator(`[data-count="${name}"] b`).textContent());
    const items = await page.locator("[data-item]").count();
    const breaking = await count("breaking");
    expect(breaking).toBe((await count("both")) + (await count("client-only")) + (await count("server-only")));
    expect(breaking + (await count("warning")) + (await count("info"))).toBe(items);
    expect(breaking).toBe(await page.locator('[data-item][data-breaking="true"]').count());
    expect(await count("both")).toBe(
      await page.locator('[data-item][data-breaking="true"][data-affects="client server"]').count(),
    );
    expect(await count("client-only")).toBe(
      await page.locator('[data-item][data-breaking="true"][data-affects="client"]').count(),
    );
    const sections = await page.locator("h2 [data-count=section]").evaluateAll((els) => els.map((e) => e.textContent));
    expect(sections.reduce((sum, t) => sum + Number(/\d+/.exec(t ?? "")?.[0]), 0)).toBe(items);
    const table = await page
      .locator("table.counts tbody td:not(:first-child)")
      .evaluateAll((tds) => tds.map((td) => Number(td.textContent)));
    expect(table.reduce((a, b) => a + b, 0)).toBe(items);
    const explained = (await page.locator("p.explained").textContent()) ?? "";
    expect(explained).toContain(`${items} changes in all`);
    if (report.changes.length > items) expect(explained).toContain(`They come from ${report.changes.length} findings`);
    await page.close();
  });

  it.each(pages)("every link between pages on %s resolves", async (file) => {
    const { page } = await open(file);
    // Resolved by the browser against the page's own file:// URL.
    const hrefs = await page
      .locator("a[href]")
      .evaluateAll((links) => links.map((a) => (a as unknown as { href: string }).href));
    const local = hrefs.filter((h) => h.startsWith("file://"));
    expect(local.length).toBeGreaterThan(0);
    for (const href of new Set(local)) {
      const url = new URL(href);
      const target = fileURLToPath(url);
      expect(existsSync(target), href).toBe(true);
      if (url.hash)
        expect(readFileSync(target, "utf8"), href).toContain(`id="${decodeURIComponent(url.hash.slice(1))}"`);
    }
    for (const href of hrefs.filter((h) => !h.startsWith("file://"))) {
      expect(href).toMatch(/^https:\/\/modelcontextprotocol\.io\/specification\//);
    }
    await page.close();
  });

  it.each(["index.html", pages[pages.length - 2] as string])("%s: a screenshot for people to look at", async (file) => {
    const { page } = await open(file);
    mkdirSync(ARTIFACTS, { recursive: true });
    const png = join(ARTIFACTS, file.replace(/\.html$/, ".png"));
    await page.screenshot({ path: png });
    await page.close();
    expect(existsSync(png)).toBe(true);
  });
});
