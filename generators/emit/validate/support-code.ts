// The support code a file of validators inlines, so that it needs no import: the regions of the
// sources in runtime/validation/ (regions.ts) its code needs, selected from what the code calls and
// checks. The sources are read from the package's own folder, which it ships (package.json "files").
import { join } from "node:path";
import { paths } from "../../paths.js";
import type { Usage } from "./checks.js";
import { FORMATS, formatsNeeded } from "./formats.js";
import { RegionSource } from "./regions.js";

/** The optional functions of runtime/validation/support.ts, each with the ones it calls: a region each, or in one. */
const SUPPORT_FUNCTIONS = {
  failed: [],
  failedTest: [],
  failedMissing: [],
  failedIn: [],
  failedInType: [],
  failedUnion: [],
  failedVariant: ["variantMessage"],
  members: [],
  variants: ["variantMessage"],
  variantMessage: ["got"],
  quote: [],
  got: ["quote"],
  within: [],
  // IssueList's methods, present only where the printed code calls them.
  variant: ["variantMessage"],
  named: ["within"],
  union: ["named"],
} as const satisfies Record<string, readonly string[]>;

export type SupportFunction = keyof typeof SUPPORT_FUNCTIONS;

/**
 * What selects a region of runtime/validation/support.ts: `api` every file has, `validators` a file with
 * guard functions, `recursive` one with a recursive type, and the support functions it calls.
 */
const SUPPORT_REGIONS = new Set(["api", "validators", "recursive", ...Object.keys(SUPPORT_FUNCTIONS)]);

export interface SupportNeeds {
  /** The printed code: guard and explain functions, and the module constants they use. */
  code: string;
  /** The support functions the template around the code calls itself. */
  templateUses: readonly SupportFunction[];
  /** Whether one of the types checked is recursive. */
  recursive: boolean;
  /** The helpers and formats the checks call. */
  usage: Pick<Usage, "helpers" | "formats">;
}

/**
 * The support code for `needs`: the regions of support.ts, helpers.ts and formats.ts it needs,
 * each source's in source order, a blank line apart.
 */
export function supportCode(needs: SupportNeeds): string {
  const regions = new Set<string>([API_REGION, ...supportUses(needs.code, needs.templateUses)]);
  if (needs.code !== "") regions.add("validators");
  if (needs.recursive) regions.add("recursive");
  const formats = new Set(formatsNeeded(needs.usage.formats));
  const helpers = new Set([...needs.usage.helpers, ...[...formats].flatMap((f) => FORMATS[f]?.helpers ?? [])]);
  const sources = supportSources();
  return [
    sources.support.splice(regions, new Set([API_REGION])),
    pieces(sources.helpers, helpers),
    pieces(sources.formats, formats),
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** Which support functions the printed code calls, so a module carries none it never calls (noUnusedLocals). */
function supportUses(code: string, templateUses: readonly SupportFunction[]): Set<SupportFunction> {
  // Messages are written by IssueList and the trail (mismatch, which uses got and quote's plain).
  const used = new Set<SupportFunction>(code ? [...templateUses, "got"] : templateUses);
  for (const name of Object.keys(SUPPORT_FUNCTIONS) as SupportFunction[]) {
    if (new RegExp(`\\b${name}\\(`).test(code)) used.add(name);
  }
  for (const name of used) for (const callee of SUPPORT_FUNCTIONS[name]) used.add(callee);
  return used;
}

/** The region whose declarations a file that inlines the support exports: the validation API. */
export const API_REGION = "api";

/** The sources in runtime/validation/, read on first use. */
export const supportSources = (() => {
  let sources: ReturnType<typeof readSupportSources> | undefined;
  return () => (sources ??= readSupportSources());
})();

function readSupportSources() {
  const source = (name: string) => new RegionSource(join(paths.runtime, "validation", `${name}.ts`));
  const support = source("support");
  const unknown = [...support.names].filter((name) => !SUPPORT_REGIONS.has(name));
  if (unknown.length > 0) throw new Error(`${support.file}: no file selects region ${unknown.join(", ")}`);
  return { support, helpers: source("helpers"), formats: source("formats") };
}

/** The regions of a source of pieces (helpers, formats) named in `names`, which it must all have. */
function pieces(source: RegionSource, names: ReadonlySet<string>): string {
  const missing = [...names].filter((name) => !source.names.has(name));
  if (missing.length > 0) throw new Error(`${source.file} has no region ${missing.join(", ")}`);
  return source.splice(names);
}
