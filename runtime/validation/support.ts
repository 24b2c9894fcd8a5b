// The support the checks of generated validators call: results and issues, the Standard Schema
// interface, Validator and ValidationError, the issue list, the trail guards leave and the
// explaining pass. `mcp-gen tools` modules import it (@mcp-gen/runtime/validation); a generated
// validators.ts inlines the regions it needs (generators/emit/validate/support-code.ts): `api`
// always, `validators` when it has validators, `recursive` when a type is recursive, and any
// other when it calls the support function (or IssueList method) of that name, without the
// `export` of any region but `api`. A rule of typescript-eslint's recommended config reports
// Standard Schema's namespace: vendored copies keep this line.
/* eslint-disable */

// #region api
/** One failed check: where (a JSON Pointer into the value), what the schema expects there, and what went wrong. */
export interface Issue {
  readonly path: string;
  readonly expected: string;
  readonly message: string;
}

export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** The Standard Schema v1 interface (https://standardschema.dev), declared here so this file needs no dependency. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  export interface PathSegment {
    readonly key: PropertyKey;
  }
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
}

export interface ValidateOptions {
  /**
   * Report every issue instead of the first. A rejection then costs a walk over the whole value
   * (every valid sibling of the failure included); by default it stops at the first issue, as ajv does.
   */
  readonly all?: boolean;
}

/**
 * A validator for one schema type. None of its methods throws on any input, except `assert` with a
 * ValidationError. `validate` and `assert` report the first issue unless asked for all; the
 * Standard Schema `validate` reports all of them, as the other Standard Schema libraries do.
 */
export interface Validator<T> extends StandardSchemaV1<unknown, T> {
  readonly name: string;
  validate(value: unknown, options?: ValidateOptions): ValidationResult<T>;
  is(value: unknown): value is T;
  assert(value: unknown, options?: ValidateOptions): asserts value is T;
}

/** Thrown by `assert…` functions; carries the issues. */
export class ValidationError extends Error {
  readonly issues: readonly Issue[];
  constructor(type: string, issues: readonly Issue[]) {
    super(
      `invalid ${type}: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`,
    );
    this.name = "ValidationError";
    this.issues = issues;
  }
}

/** Values nested deeper than this many JSON levels inside recursive types are rejected instead of overflowing the stack. */
export const MAX_DEPTH = 1024;
// #endregion

// #region validators
type Explain = (v: unknown, out: IssueList, d: number) => number;

/**
 * An issue being explained: its path is relative to the part explained so far, and its message
 * is written only if it is reported (a union drops the issues of the members it does not name).
 */
class Draft {
  path: string;
  /** How many segments `path` has. */
  depth: number;
  readonly expected: string;
  /** The message, when it was known when the code was generated; else `e` and `value` write it. */
  readonly message: string | undefined;
  readonly e: Expectation | undefined;
  readonly value: unknown;
  /** The union members it was found in, as the message names them (`"TextContent: "`). */
  members = "";
  constructor(
    path: string,
    depth: number,
    expected: string,
    message: string | undefined,
    e: Expectation | undefined,
    value: unknown,
  ) {
    this.path = path;
    this.depth = depth;
    this.expected = expected;
    this.message = message;
    this.e = e;
    this.value = value;
  }
}

/**
 * What a message shows of a value of a kind the check admits (a wrong literal, a number out of
 * range, a string that is not a URI, an array too long): `expectation()`'s `shown`. Of a value of
 * another kind it names the kind alone (`expected string, got number`): the kind is what is wrong,
 * and the message costs no copy of what a peer sent.
 */
export const SHOW_STRING = 1;
export const SHOW_NUMBER = 2;
export const SHOW_LENGTH = 4;

/**
 * What a check expects, with its messages written once, when the module loads: the start of each
 * (a rejection adds only what the value was), and whole the ones that name a kind alone.
 */
interface Expectation {
  readonly expected: string;
  readonly shown: number;
  /** `expected <expected>, got ` */
  readonly lead: string;
  readonly leadString: string;
  readonly leadNumber: string;
  readonly gotString: string;
  readonly gotNumber: string;
  readonly gotArray: string;
  readonly gotTrue: string;
  readonly gotFalse: string;
  readonly gotNull: string;
  readonly gotObject: string;
  readonly gotNothing: string;
}

export function expectation(expected: string, shown: number): Expectation {
  const lead = `expected ${expected}, got `;
  return {
    expected,
    shown,
    lead,
    leadString: `${lead}string "`,
    leadNumber: `${lead}number `,
    gotString: `${lead}string`,
    gotNumber: `${lead}number`,
    gotArray: `${lead}array`,
    gotTrue: `${lead}boolean true`,
    gotFalse: `${lead}boolean false`,
    gotNull: `${lead}null`,
    gotObject: `${lead}object`,
    gotNothing: `${lead}nothing`,
  };
}

/** `expected <e.expected>, got <the value or its kind>`, in as few pieces as the value allows. */
function mismatch(e: Expectation, v: unknown): string {
  // Tests of the kind rather than a switch on typeof, which V8 may leave to a call; the quoted
  // forms are in quoted(): this stays small enough to be inlined where an issue is made.
  if (typeof v === "string") return (e.shown & SHOW_STRING) === 0 ? e.gotString : quoted(e, v);
  if (typeof v === "number") return (e.shown & SHOW_NUMBER) === 0 ? e.gotNumber : quoted(e, v);
  if (v === null) return e.gotNull;
  if (Array.isArray(v)) return (e.shown & SHOW_LENGTH) === 0 ? e.gotArray : e.lead + got(v);
  if (typeof v === "object") return e.gotObject;
  if (v === true) return e.gotTrue;
  if (v === false) return e.gotFalse;
  return v === undefined ? e.gotNothing : e.lead + got(v);
}

/** A string or number of a kind the check admits: quoted, a short string in as few pieces as it allows. */
function quoted(e: Expectation, v: string | number): string {
  if (typeof v === "string")
    return v.length <= 40 && plain(v) ? e.leadString + v + '"' : e.lead + got(v);
  return Number.isFinite(v) ? e.leadNumber + v : e.lead + got(v);
}

/** The issue at `path`: the value `v` is not what `e` expects. */
function fail(path: string, e: Expectation, v: unknown): Issue {
  return { path, expected: e.expected, message: mismatch(e, v) };
}

// #region variants
/** What a dispatching union expects of its discriminating property: the values it knows, and its members. */
interface Variants {
  readonly expected: string;
  /** `: expected one of <expected> (<the members>)` */
  readonly tail: string;
}

export function variants(expected: string, label: string): Variants {
  return { expected, tail: `: expected one of ${expected} (${label})` };
}

/** Why `tag` (`undefined`: no tag) selects no member. */
function variantMessage(c: Variants, tag: unknown): string {
  return (tag === undefined ? "missing" : "unknown " + got(tag)) + c.tail;
}
// #endregion

/**
 * Where explain functions record issues: every one (`all`), or only the first, after which a
 * record returns true and the explanation stops.
 */
export class IssueList {
  readonly items: Draft[] = [];
  readonly all: boolean;
  constructor(all: boolean) {
    this.all = all;
  }
  /** The value at `path` is not what `e` expects. True when the explanation should stop. */
  fault(path: string, depth: number, e: Expectation, v: unknown): boolean {
    this.items.push(new Draft(path, depth, e.expected, undefined, e, v));
    return !this.all;
  }
  /** A required property is missing (`message` names it). */
  absent(path: string, depth: number, message: string): boolean {
    this.items.push(new Draft(path, depth, "required property", message, undefined, undefined));
    return !this.all;
  }
  // #region variant
  /** A discriminating property (at `path`) has no value `c` knows. */
  variant(path: string, depth: number, c: Variants, tag: unknown): boolean {
    this.items.push(
      new Draft(path, depth, c.expected, variantMessage(c, tag), undefined, undefined),
    );
    return !this.all;
  }
  // #endregion
  // #region recursive
  tooDeep(): number {
    this.items.push(
      new Draft(
        "",
        0,
        `nesting at most ${MAX_DEPTH} levels deep`,
        `nested more than ${MAX_DEPTH} levels deep (or cyclic)`,
        undefined,
        undefined,
      ),
    );
    return 1;
  }
  // #endregion
  /**
   * The last `count` issues were found in the part at `path` (`depth` segments): prefix it. True
   * when there are some and the explanation should stop.
   */
  lift(count: number, path: string, depth: number): boolean {
    if (depth !== 0) {
      for (let i = this.items.length - count; i < this.items.length; i++) {
        const draft = this.items[i]!;
        draft.path = path + draft.path;
        draft.depth += depth;
      }
    }
    return count !== 0 && !this.all;
  }
  // #region named
  /** Names the union member the issues from `start` on were found in; how many there are. */
  named(start: number, label: string): number {
    for (let i = start; i < this.items.length; i++) within(this.items[i]!, label);
    return this.items.length - start;
  }
  // #endregion
  // #region union
  /** Starts explaining the members of a union at `path` (see UnionPick). */
  union(path: string, depth: number): UnionPick {
    return new UnionPick(this, path, depth);
  }
  // #endregion
  /** The issues found, at `base` (the pointer of the explained value). */
  issues(base: string): Issue[] {
    const issues: Issue[] = [];
    for (let i = 0; i < this.items.length; i++) {
      const draft = this.items[i]!;
      const message = draft.message ?? mismatch(draft.e!, draft.value);
      issues.push({
        path: base + draft.path,
        expected: draft.expected,
        message: draft.members + message,
      });
    }
    return issues;
  }
}

/*
 * The trail: where the last failed guard failed, so that `validate()` reports the first issue
 * without walking the value again. Guards write it on their way out of a failure, never on the
 * way to a success (a union's members that fail on the way to one write it too, and the union's
 * success leaves it unread): a single test that failed records the issue (`failedTest`,
 * `failedMissing`, and `failedVariant` for a tag that selects no member), a union the function
 * that explains it (`failedUnion`), a failure only the explanation of the type around it can
 * describe (a member of a dispatched union) marks itself (`failed()`) and the first named type
 * above it takes the explanation over (`failedInType`), and the levels above add their keys: the
 * pointers known when the code was generated are one key (`"/error/data"`), and a level adds one
 * only where a key is known at run time (an array's index, a map's entry) or a named type's
 * guard begins. The issue is the one explaining the
 * whole value reports first: both walk the value in the same order
 * (test/validators-trail.test.ts compares them). Until the next failure the trail holds on to
 * the part that failed.
 */
const FAILED = 0;
const EXPLAIN = 1;
const TEST = 2;
const MISSING = 3;
/**
 * A key of the trail: a pointer written when the code was generated (`"/name"`, `"/items/anyOf"`),
 * an array index, or the key of a map's entry (EntryKey), escaped only when a path is made of it.
 */
type TrailKey = string | number | EntryKey;

/**
 * The key of a map's entry (`_meta`, `extensions`): a guard that fails there keeps the key as it
 * is; escaping it for a pointer costs a scan, and a union's members fail on valid values too.
 */
export class EntryKey {
  readonly key: string;
  constructor(key: string) {
    this.key = key;
  }
}

/** The keys (pointer segments, array indices, entries) from the failure up to the value checked, innermost first. */
const trailKeys: TrailKey[] = [];
/*
 * `var`, not `let`: optimized code checks a module's `let` for its temporal dead zone at every
 * read, and a rejection reads these about twenty times (7% of a short one's instructions).
 */
/* eslint-disable no-var */
var trailCount = 0;
/** TEST, MISSING, VARIANT: the key of the failed test's part below the keys (`""`: none). */
var trailLeaf: TrailKey = "";
var trailKind = FAILED;
/** EXPLAIN: the explain function of the part the keys lead to. */
var trailExplain: Explain | undefined;
/** TEST: the value that failed; VARIANT: the tag; EXPLAIN: the part to explain. */
var trailValue: unknown;
/** TEST: what was expected. */
var trailExpected: Expectation | undefined;
/** MISSING: the message. */
var trailMessage = "";
/** EXPLAIN of a union of named types: their guards (pickMember). */
var trailMembers: Members | undefined;
// #region failedVariant
/** VARIANT: the tag's values (the tag is `trailValue`). */
var trailVariants: Variants | undefined;
const VARIANT = 4;
// #endregion
/* eslint-enable no-var */

/** "/0" to "/63": most array indices in a path, without converting them. */
const INDEX_SEGMENTS = Array.from({ length: 64 }, (_, i) => `/${i}`);

function segment(key: TrailKey): string {
  if (typeof key === "string") return key;
  if (typeof key === "number")
    return key < INDEX_SEGMENTS.length ? INDEX_SEGMENTS[key]! : "/" + key;
  return "/" + pointer(key.key);
}
// #endregion

// #region failed
/** A guard failed where only the explanation of the type around it can say why. */
export function failed(): boolean {
  trailKind = FAILED;
  trailCount = 0;
  trailLeaf = "";
  return false;
}
// #endregion

// #region failedTest
/** The value at `key` (`""`: the value checked) is not what `e` expects. */
export function failedTest(key: TrailKey, e: Expectation, v: unknown): boolean {
  trailKind = TEST;
  trailCount = 0;
  trailLeaf = key;
  trailExpected = e;
  trailValue = v;
  return false;
}
// #endregion

// #region failedMissing
export function failedMissing(key: string, message: string): boolean {
  trailKind = MISSING;
  trailCount = 0;
  trailLeaf = key;
  trailMessage = message;
  return false;
}
// #endregion

// #region failedVariant
/** The discriminating property at `key` has a value (`tag`; `undefined`: none) that selects no member. */
export function failedVariant(key: string, c: Variants, tag: unknown): boolean {
  trailKind = VARIANT;
  trailCount = 0;
  trailLeaf = key;
  trailVariants = c;
  trailValue = tag;
  return false;
}
// #endregion

// #region failedIn
/** The part at `key`, checked by a hoisted function of the same type, failed; or the pointer above a key known at run time. */
export function failedIn(key: TrailKey): boolean {
  trailKeys[trailCount++] = key;
  return false;
}
// #endregion

// #region failedInType
/** The part at `key`, of a named type, failed: the first one above a `failed()` explains it. */
export function failedInType(key: TrailKey, explain: Explain, v: unknown): boolean {
  if (trailKind === FAILED) {
    trailKind = EXPLAIN;
    trailExplain = explain;
    trailMembers = undefined;
    trailValue = v;
    trailCount = 0;
    trailLeaf = "";
  }
  trailKeys[trailCount++] = key;
  return false;
}
// #endregion

// #region failedUnion
/**
 * The union at `key` (`""`: the value checked) failed: `explain` says which member came closest,
 * and so do `members`' guards when they are all named types (pickMember).
 */
export function failedUnion(
  key: TrailKey,
  explain: Explain,
  v: unknown,
  members?: Members,
): boolean {
  // The trail is the last member's failure: pickMember needs not run its guard again.
  if (members !== undefined) lastMember.save();
  trailKind = EXPLAIN;
  trailExplain = explain;
  trailMembers = members;
  trailValue = v;
  trailLeaf = "";
  trailCount = 0;
  if (key !== "") trailKeys[trailCount++] = key;
  return false;
}
// #endregion

// #region validators
/**
 * The issues of a value whose guard has just failed: the first one from the trail, or every
 * one, explained from the top. A failed test or a missing property is the issue itself, made
 * here; the rest is in explainWalk, so that this stays small enough to be inlined.
 */
export function explainFailure(
  explain: Explain,
  value: unknown,
  base: string,
  all: boolean,
): Issue[] {
  if (!all && trailKind !== EXPLAIN) {
    const part = trailValue;
    trailValue = undefined;
    const issue = trailIssue(base, part);
    if (issue !== undefined) return [issue];
  }
  return explainWalk(explain, value, base, all);
}

/** The first issue where the trail leads to an explanation (a union, a member of a dispatched union), or every issue. */
function explainWalk(explain: Explain, value: unknown, base: string, all: boolean): Issue[] {
  if (!all && trailKind === EXPLAIN) {
    const part = trailValue;
    trailValue = undefined;
    const at = trailPath(base);
    // Read before the members' guards write the trail again.
    const explainPart = trailExplain!;
    const d = trailCount;
    const members = trailMembers;
    const issue = members === undefined ? undefined : pickMember(members, part, d, at);
    if (issue !== undefined) return [issue];
    const out = new IssueList(false);
    // Read a second time, the part may pass (a getter that answers differently): then explain it all.
    if (explainPart(part, out, d) !== 0) return out.issues(at);
  }
  const out = new IssueList(all);
  explain(value, out, 0);
  return out.issues(base);
}

/** `base` and the trail's keys and leaf: the pointer of the part that failed. */
function trailPath(base: string): string {
  let i = trailCount - 1;
  // Concatenated to nothing only where there is nothing else: a failure at a key of the value checked is its key.
  let at = base !== "" || i < 0 ? base : segment(trailKeys[i--]!);
  for (; i >= 0; i--) at += segment(trailKeys[i]!);
  return trailLeaf === "" ? at : at === "" ? segment(trailLeaf) : at + segment(trailLeaf);
}

/**
 * The issue the trail records, a failed test (of `part`), a missing property or a tag that
 * selects no member (`part`), at `base` and the trail's keys.
 */
function trailIssue(base: string, part: unknown): Issue | undefined {
  if (trailKind === TEST) return fail(trailPath(base), trailExpected!, part);
  if (trailKind === MISSING)
    return { path: trailPath(base), expected: "required property", message: trailMessage };
  // #region failedVariant
  if (trailKind === VARIANT)
    return {
      path: trailPath(base),
      expected: trailVariants!.expected,
      message: variantMessage(trailVariants!, part),
    };
  // #endregion
  return undefined;
}

/** A union of named types: their guards, names, and what the union expects. */
interface Members {
  readonly e: Expectation;
  readonly guards: readonly ((v: unknown, d: number) => boolean)[];
  /** Each member's name as a message starts with it (`"TextContent: "`). */
  readonly named: readonly string[];
}

/**
 * The first issue of a union of named types whose guard failed, the one its explanation reports
 * first (UnionPick), from the members' guards instead of explaining each member: each guard
 * leaves on the trail how deep its member failed, the last one's saved when the union failed, so
 * only the others run again. Undefined when a member's failure needs its explanation (a union
 * inside it) or a member passes on this second read.
 */
function pickMember(m: Members, v: unknown, d: number, at: string): Issue | undefined {
  // The last member's failure, saved by failedUnion; the guards run here save into the spare.
  const last = lastMember;
  lastMember = spareMember;
  spareMember = last;
  const issue = pickFrom(m, v, d, at, last);
  last.release();
  bestMember.release();
  return issue;
}

function pickFrom(
  m: Members,
  v: unknown,
  d: number,
  at: string,
  last: SavedTrail,
): Issue | undefined {
  last.restore();
  const lastRank = trailRank();
  if (lastRank < 0) return undefined;
  const n = m.guards.length - 1;
  let best = -1;
  let bestRank = 0;
  for (let i = 0; i < n; i++) {
    if (m.guards[i]!(v, d)) return undefined;
    const rank = trailRank();
    if (rank < 0) return undefined;
    if (rank > bestRank) {
      best = i;
      bestRank = rank;
      bestMember.save();
    }
  }
  // Ties go to the earlier member.
  if (lastRank > bestRank) {
    best = n;
    last.restore();
  } else if (best >= 0) bestMember.restore();
  else return fail(at, m.e, v);
  const part = trailValue;
  trailValue = undefined;
  const issue = trailIssue(at, part);
  return (
    issue && { path: issue.path, expected: issue.expected, message: m.named[best]! + issue.message }
  );
}

/** A failure's trail, saved while other guards write theirs. */
class SavedTrail {
  private kind = FAILED;
  private leaf: TrailKey = "";
  private value: unknown;
  private expected: Expectation | undefined;
  private message = "";
  // #region failedVariant
  private variants: Variants | undefined;
  // #endregion
  private readonly keys: TrailKey[] = [];
  private count = 0;
  save(): void {
    this.kind = trailKind;
    this.leaf = trailLeaf;
    this.value = trailValue;
    this.expected = trailExpected;
    this.message = trailMessage;
    // #region failedVariant
    this.variants = trailVariants;
    // #endregion
    for (let i = 0; i < trailCount; i++) this.keys[i] = trailKeys[i]!;
    this.count = trailCount;
  }
  restore(): void {
    trailKind = this.kind;
    trailLeaf = this.leaf;
    trailValue = this.value;
    trailExpected = this.expected;
    trailMessage = this.message;
    // #region failedVariant
    trailVariants = this.variants;
    // #endregion
    for (let i = 0; i < this.count; i++) trailKeys[i] = this.keys[i]!;
    trailCount = this.count;
  }
  /** Lets go of the value that failed. */
  release(): void {
    this.value = undefined;
  }
}

/*
 * The trail of the last member of the last union of named types that failed (failedUnion), of
 * the member closest so far (pickMember), and a spare that takes the first one's place while
 * pickMember runs the other members' guards (a union inside them fails too).
 */
let lastMember = new SavedTrail();
let spareMember = new SavedTrail();
const bestMember = new SavedTrail();

/**
 * How close the member whose guard just failed came, as UnionPick counts it: how many segments
 * below the member its failure lies, 0 for a wrong literal; -1 when only its explanation can say.
 */
function trailRank(): number {
  if (trailKind === FAILED || trailKind === EXPLAIN) return -1;
  if (trailKind === TEST && wrongLiteral(trailExpected!.expected)) return 0;
  // #region failedVariant
  if (trailKind === VARIANT && wrongLiteral(trailVariants!.expected)) return 0;
  // #endregion
  let rank = segmentCount(trailLeaf);
  for (let i = 0; i < trailCount; i++) rank += segmentCount(trailKeys[i]!);
  return rank;
}

/** How many pointer segments a key is: a constant pointer may be several (`""`: none). */
function segmentCount(key: TrailKey): number {
  if (typeof key !== "string") return 1;
  let n = 0;
  // An escaped key has no "/" of its own (it is "~1"). The keys are short: a loop costs less
  // than a call to indexOf per segment.
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 47) n++;
  return n;
}

/** Whether an issue's `expected` is a literal: a string in quotes, a number, true or false. */
function wrongLiteral(expected: string): boolean {
  const c = expected.charCodeAt(0);
  if (c === 34) return expected.indexOf('"', 1) === expected.length - 1;
  if (c === 45) return isDigit(expected.charCodeAt(1));
  return isDigit(c) || expected === "true" || expected === "false";
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

// #region members
export function members(
  e: Expectation,
  guards: Members["guards"],
  labels: readonly string[],
): Members {
  return { e, guards, named: labels.map((label) => `${label}: `) };
}
// #endregion
// #endregion

// #region within
/** Names the union member an issue was found in; only the innermost one, so deep values stay readable. */
function within(draft: Draft, label: string): void {
  // A message names only the innermost member whose name is a plain identifier (`TextContent: `).
  const m = draft.members;
  const c = m.charCodeAt(0);
  if (!(c >= 65 && c <= 90 && /^[A-Z][A-Za-z0-9]*: /.test(m))) draft.members = `${label}: ${m}`;
}
// #endregion

// #region union
/**
 * The members of a failed union, explained one after the other into the same list: after each
 * one, `member` notes whether it came closest so far; `pick` keeps only that member's issues and
 * names it, or reports one issue naming them all. Closest: its shallowest issue lies
 * deepest inside the value (it matched the most), then the fewest issues. A wrong literal
 * (`"mode": "url"` where the member wants "form") says the value is not that member at all, so it
 * counts as depth zero.
 */
class UnionPick {
  private readonly out: IssueList;
  private readonly path: string;
  private readonly depth: number;
  private readonly start: number;
  /** Where the member being explained started recording. */
  private mark: number;
  /** The issues of the closest member so far: `kept` of them from `keptAt`. */
  private keptAt = 0;
  private kept = 0;
  private keptName = "";
  private keptDepth = 0;
  constructor(out: IssueList, path: string, depth: number) {
    this.out = out;
    this.path = path;
    this.depth = depth;
    this.start = out.items.length;
    this.mark = this.start;
  }
  member(name: string): void {
    const items = this.out.items;
    const count = items.length - this.mark;
    if (count > 0) {
      let depth = Infinity;
      for (let i = this.mark; i < items.length; i++) {
        const draft = items[i]!;
        // Every issue of a member lies at the union's path or inside it: how many segments below it.
        const d = wrongLiteral(draft.expected) ? 0 : draft.depth - this.depth;
        if (d < depth) depth = d;
      }
      if (
        depth > this.keptDepth ||
        (depth === this.keptDepth && depth > 0 && this.kept > 0 && count < this.kept)
      ) {
        this.keptAt = this.mark;
        this.kept = count;
        this.keptName = name;
        this.keptDepth = depth;
      }
    }
    this.mark = items.length;
  }
  /** How many issues the union reports (they replace the members'). */
  pick(e: Expectation, v: unknown): number {
    const items = this.out.items;
    // pop(), not splice() or a length: V8 keeps both off its fast paths.
    if (this.kept === 0) {
      while (items.length > this.start) items.pop();
      this.out.fault(this.path, this.depth, e, v);
      return 1;
    }
    for (let i = 0; i < this.kept; i++) items[this.start + i] = items[this.keptAt + i]!;
    while (items.length > this.start + this.kept) items.pop();
    return this.out.named(this.start, this.keptName);
  }
}
// #endregion

// #region validators
/**
 * A JSON Pointer segment (without its "/"). Native searches for the two characters to escape:
 * a regular-expression replace, or a loop over the characters, costs more than the rest of a
 * rejection under a key like `io.modelcontextprotocol/ui`.
 */
export function pointer(key: string): string {
  let tilde = key.indexOf("~");
  let slash = key.indexOf("/");
  if (tilde < 0 && slash < 0) return key;
  let out = "";
  let from = 0;
  while (tilde >= 0 || slash >= 0) {
    const isTilde = slash < 0 || (tilde >= 0 && tilde < slash);
    const at = isTilde ? tilde : slash;
    out += key.slice(from, at) + (isTilde ? "~0" : "~1");
    from = at + 1;
    if (isTilde) tilde = key.indexOf("~", from);
    else slash = key.indexOf("/", from);
  }
  return out + key.slice(from);
}
// #endregion

// #region quote
/**
 * JSON.stringify(s) for a message: the same text, without the serializer's fixed cost (most of a
 * short rejection) when nothing in `s` needs escaping.
 */
function quote(s: string): string {
  return plain(s) ? '"' + s + '"' : JSON.stringify(s);
}

/** Whether JSON.stringify would write `s` as it is, between quotes. */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}
// #endregion

// #region got
/** A short description of a value for messages (never the whole of a long string). */
function got(v: unknown): string {
  switch (typeof v) {
    case "string":
      return v.length > 40
        ? "string " + quote(v.slice(0, 37)) + "... (length " + v.length + ")"
        : "string " + quote(v);
    case "number":
      return Number.isFinite(v) ? "number " + v : "non-finite number " + v;
    case "boolean":
      return v ? "boolean true" : "boolean false";
    case "undefined":
      return "nothing";
    case "object":
      return v === null ? "null" : Array.isArray(v) ? "array (length " + v.length + ")" : "object";
    default:
      return typeof v;
  }
}
// #endregion

// #region validators
function unreadable(error: unknown): Issue {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    path: "",
    expected: "a value that can be read",
    message: `the value could not be read: ${reason}`,
  };
}

export function unreadableResult<T>(error: unknown): ValidationResult<T> {
  return { ok: false, issues: [unreadable(error)] };
}

function segments(path: string): string[] {
  return path === ""
    ? []
    : path
        .slice(1)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Each type gets its own small `validate` and `is`, so the guard call in them stays monomorphic. */
const ALL: ValidateOptions = { all: true };

export function makeValidator<T>(
  name: string,
  validate: (value: unknown, options?: ValidateOptions) => ValidationResult<T>,
  is: (value: unknown) => value is T,
): Validator<T> {
  return {
    name,
    validate,
    is,
    assert(value: unknown, options?: ValidateOptions): asserts value is T {
      const result = validate(value, options);
      if (!result.ok) throw new ValidationError(name, result.issues);
    },
    "~standard": {
      version: 1,
      vendor: "mcp-gen",
      validate(value: unknown): StandardSchemaV1.Result<T> {
        const result = validate(value, ALL);
        if (result.ok) return { value: result.value };
        return {
          issues: result.issues.map((i) => ({ message: i.message, path: segments(i.path) })),
        };
      },
    },
  };
}
// #endregion
