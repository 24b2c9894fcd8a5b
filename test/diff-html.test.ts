// The checked-in HTML pages in a real headless browser (the Chromium that ships in the npm package
// @sparticuz/chromium, driven by playwright-core): they load from file:// without console errors or
// any network request, the breaking-changes filter changes what is visible, and every link between
// pages resolves. A screenshot of index.html is left in test-artifacts/ (git-ignored) for people to
// look at.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import npmChromium from "@sparticuz/chromium";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIFFS_DIR } from "../generators/diff/tree.js";
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

/** MCP_GEN_CHROMIUM names a local Chromium or Chrome to use instead of the npm package's. */
async function executablePath(): Promise<string> {
  const local = process.env["MCP_GEN_CHROMIUM"];
  if (local === undefined || local === "") return npmChromium.executablePath(); // unpacks into the temp directory once
  if (!existsSync(local)) throw new Error(`MCP_GEN_CHROMIUM=${local}: no such file`);
  return local;
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

  it("index.html: a screenshot for people to look at", async () => {
    const { page } = await open("index.html");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "index.png") });
    await page.close();
    expect(existsSync(join(ARTIFACTS, "index.png"))).toBe(true);
  });
});
