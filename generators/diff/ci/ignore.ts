// `--ignore FILE`: changes a project has looked at and accepts, each with the reason why, so a
// CI gate trips only on new ones (as oasdiff's --err-ignore and buf's `ignore`/`except` do).
//
//   { "ignore": [ { "rule": "REQUEST_REMOVED", "name": "initialize", "reason": "…" } ] }
//
// An entry names a rule id, a subject, or both (both must match), and always a reason. Subjects
// are written in the command's own words (`name` for `mcp-gen diff`; `tool`/`prompt` for
// `mcp-gen tools --check`) and may use `*` for any run of characters.
import { readFileSync } from "node:fs";
import { InputError } from "../../errors.js";
import { closest } from "../../suggest.js";
import { RULE_IDS, type RuleId } from "../rules/rules.js";

export interface IgnoreEntry {
  /** Where it is written: `ignore.json: ignore[2]`. */
  where: string;
  rule?: RuleId;
  /** The subject as written (`initialize`, `tool get_*`), for messages. */
  subject?: string;
  /** Patterns a finding's name must match (any of them), from the subject. */
  names?: RegExp[];
  reason: string;
}

/** A subject key of an entry → the finding names it stands for (as `*` patterns). */
export type SubjectKeys = Record<string, (value: string) => string[]>;

/** What an entry is matched against: a finding (name and rule), or a change no rule judges. */
export interface Subject {
  name: string;
  rule?: RuleId;
}

export function readIgnoreFile(file: string, keys: SubjectKeys): IgnoreEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(`--ignore ${file}: ${(error as Error).message}`);
  }
  const list = isObject(raw) ? raw["ignore"] : undefined;
  if (!Array.isArray(list)) {
    throw new InputError(`--ignore ${file}: expected { "ignore": [ { "rule", ${subjectWords(keys)}, "reason" }, … ] }`);
  }
  return list.map((entry: unknown, i) => parseEntry(entry, `${file}: ignore[${i}]`, keys));
}

function parseEntry(entry: unknown, where: string, keys: SubjectKeys): IgnoreEntry {
  if (!isObject(entry)) throw new InputError(`${where}: expected an object`);
  const allowed = ["rule", "reason", ...Object.keys(keys)];
  for (const key of Object.keys(entry)) {
    if (!allowed.includes(key)) {
      const guess = closest(key, allowed);
      throw new InputError(`${where}: unknown key "${key}"${guess ? ` (did you mean "${guess}"?)` : ""}`);
    }
  }
  const text = (key: string) => {
    const value = entry[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value.trim() === "")
      throw new InputError(`${where}: "${key}" must be a non-empty string`);
    return value;
  };
  const reason = text("reason");
  if (reason === undefined) throw new InputError(`${where}: "reason" is required: say why this change is accepted`);
  const rule = text("rule");
  if (rule !== undefined && !RULE_IDS.includes(rule as RuleId)) {
    const guess = closest(rule, RULE_IDS);
    throw new InputError(
      `${where}: unknown rule "${rule}"${guess ? ` (did you mean ${guess}?)` : ""}; see docs/diff-rules.md`,
    );
  }
  const given = Object.keys(keys).filter((key) => text(key) !== undefined);
  if (given.length > 1) throw new InputError(`${where}: give one of ${subjectWords(keys)}, not several`);
  const key = given[0];
  if (rule === undefined && key === undefined) {
    throw new InputError(`${where}: name a "rule", ${subjectWords(keys)}, or both`);
  }
  const value = key !== undefined ? (text(key) as string) : undefined;
  return {
    where,
    ...(rule !== undefined ? { rule: rule as RuleId } : {}),
    ...(key !== undefined && value !== undefined
      ? { subject: `${key} ${value}`, names: (keys[key] as (v: string) => string[])(value).map(pattern) }
      : {}),
    reason,
  };
}

/** The first entry that accepts a subject, if any. A rule-less subject is accepted only by rule-less entries. */
export function acceptedBy(entries: readonly IgnoreEntry[], subject: Subject): IgnoreEntry | undefined {
  return entries.find(
    (e) =>
      (e.rule === undefined || e.rule === subject.rule) &&
      (e.names === undefined || e.names.some((p) => p.test(subject.name))),
  );
}

/** Entries that accept none of the subjects: likely stale. */
export function unusedEntries(entries: readonly IgnoreEntry[], subjects: readonly Subject[]): IgnoreEntry[] {
  const used = new Set(subjects.map((s) => acceptedBy(entries, s)));
  return entries.filter((e) => !used.has(e));
}

export function describeEntry(e: IgnoreEntry): string {
  return [e.rule, e.subject].filter((part) => part !== undefined).join(" ");
}

/** `*` for any run of characters; everything else literal. */
function pattern(glob: string): RegExp {
  return new RegExp(`^${glob.split("*").map(escapeRegExp).join(".*")}$`);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function subjectWords(keys: SubjectKeys): string {
  return Object.keys(keys)
    .map((k) => `"${k}"`)
    .join(" or ");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
