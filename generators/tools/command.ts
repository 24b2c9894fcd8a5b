// `mcp-gen tools`: a server's tools and prompts (live, or a saved listing) → a typed module
// (`--out`), the listing itself (`--save`), or a drift report against a module (`--check`).
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { isGenerated } from "../emit/banner.js";
import type { Drift } from "../emit/write-tree.js";
import { writeOwnedFiles } from "../output/overwrite.js";
import { outputFile } from "../output/target.js";
import { printDrift } from "../output/drift-report.js";
import { EXIT, InputError } from "../errors.js";
import { CI_FORMATS } from "../diff/ci/formats.js";
import { describeEntry, readIgnoreFile } from "../diff/ci/ignore.js";
import { checkListings, embeddedListing, renderCheck, type CheckFormat } from "./check.js";
import { checkRun, judgeCheck, TOOL_SUBJECTS } from "./check-ci.js";
import { splitCommandLine } from "./command-line.js";
import { describe, fetchListing, type Endpoint } from "./connect.js";
import { emitToolsModule } from "./emit.js";
import { normalizeListing, serializeListing, type Listing } from "./listing.js";
import { runtimeSpecifiers } from "./runtime.js";
import { authorizeAhead, authorizedFetch, checkAuthSettings, type AuthSettings } from "../../host/auth.js";
import { AuthorizationError, type Fetch } from "../../runtime/auth/client/index.js";

export interface ToolsOptions {
  stdio?: string;
  url?: string;
  /** HTTP headers for --url, each "Name: value" (credentials, say). */
  headers?: string[];
  /** OAuth for --url: "" for the defaults, else a host entry's `auth` settings as JSON or @FILE. */
  auth?: string;
  from?: string;
  rev?: string;
  out?: string;
  /** Where the module imports the runtime from (runtime.ts; default @mcp-gen/runtime). */
  runtime?: string;
  save?: string;
  check?: string;
  format: CheckFormat;
  /** With --check: tools and prompts whose changes are accepted, each with its reason. */
  ignore?: string;
  timeoutMs: number;
  /** Overwrite an --out file without mcp-gen's banner, or a --save file that is not a listing. */
  force?: boolean;
}

/** Warnings about unchecked keywords past this many lines are summed up (the module lists them all). */
const MAX_WARNINGS = 20;

export async function toolsCommand(
  options: ToolsOptions,
  log: (line: string) => void,
  write: (text: string) => void,
): Promise<number> {
  const sources = [options.stdio, options.url, options.from].filter((s) => s !== undefined);
  if (sources.length !== 1) throw new InputError("give exactly one of --stdio, --url and --from (see --help)");
  if (options.from !== undefined && options.rev !== undefined) throw new InputError("--rev needs --stdio or --url");
  if (options.headers?.length && options.url === undefined) throw new InputError("--header needs --url");
  if (options.auth !== undefined && options.url === undefined) throw new InputError("--auth needs --url");
  if ((options.out === undefined) === (options.check === undefined)) {
    throw new InputError("give --out FILE.ts to generate, or --check FILE.ts to compare (see --help)");
  }
  if (options.ignore !== undefined && options.check === undefined) throw new InputError("--ignore needs --check");
  if (options.runtime !== undefined && options.out === undefined) throw new InputError("--runtime needs --out");
  const ignore = options.ignore !== undefined ? readIgnoreFile(options.ignore, TOOL_SUBJECTS) : [];
  // Refused places, unwritable paths and an empty --runtime are reported before a server is started.
  if (options.runtime !== undefined) runtimeSpecifiers(options.runtime);
  const out = options.out !== undefined ? outputFile(options.out) : undefined;
  const save = options.save !== undefined ? outputFile(options.save, "--save") : undefined;
  const started = performance.now();
  const { listing, source } = await readListing(options, log);
  const files = new Map<string, string>();
  if (save !== undefined) files.set(save, serializeListing(listing));

  if (options.check !== undefined) {
    const result = checkListings(embeddedListing(options.check), listing, { before: options.check, after: source });
    const verdict = judgeCheck(result, ignore);
    writeFiles(files, save, options.force);
    write(
      options.format === "github" || options.format === "junit"
        ? CI_FORMATS[options.format](checkRun(result, verdict, options.check))
        : renderCheck(result, options.format, options.check),
    );
    const s = result.report.summary;
    const changed = s.total + result.otherChanges.length;
    log(
      changed === 0
        ? `${options.check}: no changes to ${count(listing)}`
        : `${options.check}: ${s.total} changes (${result.breakingForCallers} breaking for callers)${result.otherChanges.length > 0 ? `, ${result.otherChanges.length} other differences` : ""}`,
    );
    for (const entry of verdict.unused) log(`warning: ${entry.where} (${describeEntry(entry)}) accepts no change`);
    if (verdict.accepted.size > 0) log(`${verdict.accepted.size} change(s) accepted by ${options.ignore}`);
    return verdict.open === 0 ? EXIT.ok : EXIT.drift;
  }

  const module = await emitToolsModule(listing, options.out as string, options.runtime);
  files.set(out as string, module.source);
  writeFiles(files, save, options.force);
  for (const line of module.unchecked.slice(0, MAX_WARNINGS)) log(`warning: not checked at run time: ${line}`);
  if (module.unchecked.length > MAX_WARNINGS) {
    log(`warning: … and ${module.unchecked.length - MAX_WARNINGS} more, listed at the top of ${options.out}`);
  }
  log(
    `wrote ${options.out}: ${count(listing)}${listing.protocolVersion ? ` (protocol ${listing.protocolVersion})` : ""} (${Math.round(performance.now() - started)} ms)`,
  );
  return EXIT.ok;
}

/**
 * Whether the module at `out` is what `--out` would write now from the same source (`mcp-gen --check`
 * with a config file): 0, or 1 with a unified diff, in which a change on the server shows as
 * changed lines of the embedded listing.
 */
export async function toolsUpToDate(options: ToolsOptions, log: (line: string) => void, print: (line: string) => void) {
  const out = options.out as string;
  const { listing } = await readListing(options, log);
  const expected = (await emitToolsModule(listing, out, options.runtime)).source;
  const actual = existsSync(out) ? readFileSync(out, "utf8") : undefined;
  const shown = relative(process.cwd(), out);
  if (actual === expected) {
    log(`${shown}: up to date (${count(listing)})`);
    return EXIT.ok;
  }
  const drift: Drift =
    actual === undefined
      ? { path: shown, status: "added", expected }
      : { path: shown, status: "changed", expected, actual };
  printDrift(
    [drift],
    print,
    shown,
    "run `mcp-gen` to update it; `mcp-gen tools … --check` reports what changed on the server",
  );
  return EXIT.drift;
}

async function readListing(
  options: ToolsOptions,
  log: (line: string) => void,
): Promise<{ listing: Listing; source: string }> {
  if (options.from !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(options.from, "utf8"));
    } catch (error) {
      throw new InputError(`--from ${options.from}: ${(error as Error).message}`);
    }
    return { listing: normalizeListing(raw, options.from), source: options.from };
  }
  if (options.url !== undefined && !URL.canParse(options.url)) throw new InputError(`--url: not a URL: ${options.url}`);
  const fetch =
    options.url !== undefined && options.auth !== undefined
      ? await authorize(options.url, options.auth, log)
      : undefined;
  const endpoint: Endpoint =
    options.url !== undefined
      ? { kind: "url", url: options.url, headers: parseHeaders(options.headers ?? []), ...(fetch ? { fetch } : {}) }
      : (([command, ...args]) => ({ kind: "stdio" as const, command: command as string, args }))(
          splitCommandLine(options.stdio as string),
        );
  const listing = await fetchListing(endpoint, {
    ...(options.rev !== undefined ? { revision: options.rev } : {}),
    timeoutMs: options.timeoutMs,
    log,
  });
  return { listing, source: describe(endpoint) };
}

/**
 * All or nothing: the module and its saved listing are staged, then moved into place together. Only
 * files mcp-gen wrote are replaced (a module with its banner, a listing), unless `force`.
 */
function writeFiles(files: Map<string, string>, save: string | undefined, force: boolean | undefined): void {
  writeOwnedFiles(files, (path, text) => (path === save ? isListing(text) : isGenerated(text)), { force });
}

/** Whether a file is a listing (saved by --save, or a tools/list result), which --save may replace. */
function isListing(text: string): boolean {
  try {
    normalizeListing(JSON.parse(text), "");
    return true;
  } catch {
    return false;
  }
}

function count(listing: Listing): string {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  return `${n(listing.tools.length, "tool")}, ${n(listing.prompts.length, "prompt")}`;
}

/** `--header "Name: value"` arguments as a header record; a malformed one is a usage error. */
function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim();
    // RFC 9110 token characters; a value must not smuggle a line break into the request.
    if (colon < 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n]/.test(line)) {
      throw new InputError(`--header: expected "Name: value", got ${JSON.stringify(line)}`);
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * `--auth` as a fetch that authorizes the requests to `url`, authorization done before the listing
 * connects (the user's time in the browser then counts against no request's timeout).
 */
async function authorize(url: string, given: string, log: (line: string) => void): Promise<Fetch> {
  let settings: unknown = true;
  if (given !== "") {
    try {
      settings = JSON.parse(given.startsWith("@") ? readFileSync(given.slice(1), "utf8") : given);
    } catch (error) {
      throw new InputError(`--auth: expected JSON or @FILE with JSON: ${(error as Error).message}`);
    }
  }
  const problems: string[] = [];
  checkAuthSettings(settings, (problem) => problems.push(problem));
  if (problems.length > 0) throw new InputError(`--auth: ${problems.join("; ")}`);
  const fetch = authorizedFetch({ name: url, url, auth: settings as AuthSettings | true }, undefined, log);
  try {
    await authorizeAhead(fetch, url);
  } catch (error) {
    if (error instanceof AuthorizationError) throw new InputError(error.message);
    throw error;
  }
  return fetch;
}
