// `mcp-gen tools --check` in its readers' words: tools, prompts, arguments and result fields,
// and what a change means for code that calls them through the generated module, instead of
// the diff engine's protocol words (senders, receivers, revisions). The verdict (breaking for
// callers or not) stays the engine's; these words only say it.
import type { Finding, Item } from "../diff/rules/findings.js";
import type { Vocabulary } from "../diff/render/vocabulary.js";
import type { Markup } from "../diff/render/markup.js";
import { changeText } from "../diff/render/phrases.js";
import { RULES, type RuleId } from "../diff/rules/rules.js";

/** Where in a tool or prompt a change is. */
type Place = "tool" | "argument" | "result";

export interface ToolSubject {
  owner: "tool" | "prompt";
  /** The tool's or prompt's name. */
  name: string;
  place: Place;
  /** The argument or result field (`address.city`, `tags[]`), if the change is inside one. */
  field?: string;
  /** An enum value, for a value added or removed. */
  value?: string;
}

/** Rule → what it means at each place, for code calling through the module. */
const WORDS: Partial<Record<RuleId, Partial<Record<Place, string>>>> = {
  REQUEST_ADDED: { tool: "new: nothing calls it yet" },
  REQUEST_REMOVED: { tool: "removed: calls to it fail" },
  RESULT_WIDENED: {
    tool: "structured result admits values it did not (or is no longer described): code reading it must handle them",
  },
  RESULT_NARROWED: { tool: "structured result admits fewer values (or is described now): code reading it still works" },
  RESULT_CHANGED: { tool: "structured result changed incompatibly: code reading it breaks" },
  RESULT_EQUIVALENT: { tool: "structured result described differently, same values" },
  FIELD_ADDED_OPTIONAL: { argument: "optional argument added", result: "optional result field added" },
  FIELD_ADDED_REQUIRED: {
    argument: "required argument added: calls written against the module omit it",
    result: "result field added, always present",
  },
  FIELD_REMOVED_OPTIONAL: {
    argument: "optional argument removed: the server ignores it if a call sends it",
    result: "optional result field removed: code reading it no longer gets it",
  },
  FIELD_REMOVED_REQUIRED: {
    argument: "required argument removed: calls still send it, the server ignores it",
    result: "result field removed: code reading it breaks",
  },
  FIELD_BECAME_REQUIRED: {
    argument: "argument now required: calls that omit it fail",
    result: "result field now always present",
  },
  FIELD_BECAME_OPTIONAL: {
    argument: "argument now optional",
    result: "result field now optional: code reading it must handle its absence",
  },
  FIELD_TYPE_WIDENED: {
    argument: "argument accepts more values",
    result: "result field admits values it did not: code reading it must handle them",
  },
  FIELD_TYPE_NARROWED: {
    argument: "argument accepts fewer values: calls may send what the server now refuses",
    result: "result field admits fewer values",
  },
  FIELD_TYPE_CHANGED: {
    argument: "argument type changed: calls written against the module send the old type",
    result: "result field type changed: code reading it breaks",
  },
  FIELD_TYPE_EQUIVALENT: {
    argument: "argument type written differently, same values",
    result: "result field type written differently, same values",
  },
  ENUM_MEMBER_ADDED: {
    argument: "argument accepts a new value",
    result: "result field has a new value: code that handles every value must handle it",
  },
  ENUM_MEMBER_REMOVED: {
    argument: "argument no longer accepts a value: calls may still send it",
    result: "result field no longer has this value",
  },
  UNION_MEMBER_ADDED: {
    argument: "argument accepts another kind of value",
    result: "result admits another kind of value: code reading it must handle it",
  },
  UNION_MEMBER_REMOVED: {
    argument: "argument no longer accepts a kind of value: calls may still send it",
    result: "result no longer has a kind of value",
  },
  TYPE_WIDENED: {
    argument: "arguments accept more values",
    result: "structured result admits more values: code reading it must handle them",
  },
  TYPE_NARROWED: {
    argument: "arguments accept fewer values: calls may send what the server now refuses",
    result: "structured result admits fewer values",
  },
  TYPE_CHANGED: {
    argument: "arguments changed incompatibly: calls written against the module break",
    result: "structured result changed incompatibly: code reading it breaks",
  },
  CONSTRAINT_TIGHTENED: {
    argument: "argument constraint tightened: calls may send values the server now refuses",
    result: "result field constraint tightened",
  },
  CONSTRAINT_LOOSENED: {
    argument: "argument constraint loosened",
    result: "result field constraint loosened: code reading it may get values it never had",
  },
  CONSTRAINT_CHANGED: {
    argument: "argument constraint changed: calls may send values the server refuses",
    result: "result field constraint changed: code reading it may get values it never had",
  },
  DEPRECATED: {
    tool: "marked deprecated",
    argument: "argument marked deprecated",
    result: "result field marked deprecated",
  },
};

/**
 * A finding's name (`tools/call get_weather`, `tools.get_weather.arguments.units=kelvin`) as a
 * subject, given the names of the tools and prompts on either side (names may contain dots).
 */
export function toolSubject(
  name: string,
  tools: readonly string[],
  prompts: readonly string[],
): ToolSubject | undefined {
  for (const [owner, list, call] of [
    ["tool", tools, "tools/call"],
    ["prompt", prompts, "prompts/get"],
  ] as const) {
    const own = list.find((n) => name === `${call} ${n}`);
    if (own !== undefined) return { owner, name: own, place: "tool" };
    const prefix = owner === "tool" ? "tools." : "prompts.";
    // The longest name that fits: `a.b` before `a` when both exist.
    const match = [...list]
      .sort((x, y) => y.length - x.length)
      .find((n) => name.startsWith(`${prefix}${n}.arguments`) || name.startsWith(`${prefix}${n}.structuredContent`));
    if (match === undefined) continue;
    const rest = name.slice(`${prefix}${match}.`.length);
    const place: Place = rest.startsWith("arguments") ? "argument" : "result";
    const inner = rest.slice(place === "argument" ? "arguments".length : "structuredContent".length);
    const equals = inner.indexOf("=");
    const path = equals < 0 ? inner : inner.slice(0, equals);
    const value = equals < 0 ? undefined : inner.slice(equals + 1);
    // `.city` is a field; `$Address` or `_2` name a part of the schema, shown as written.
    const field = path.startsWith(".") ? path.slice(1) : path;
    return { owner, name: match, place, ...(field !== "" ? { field } : {}), ...(value !== undefined ? { value } : {}) };
  }
  return undefined;
}

export function toolWords(tools: readonly string[], prompts: readonly string[]): Vocabulary {
  return {
    subject: (item: Item, markup: Markup) => {
      const s = toolSubject(item.name, tools, prompts);
      return s ? subjectText(s, markup) : markup.code(item.name);
    },
    summary: (item: Item) => {
      const s = toolSubject(item.name, tools, prompts);
      return (s && WORDS[item.rule]?.[s.place]) ?? RULES[item.rule].summary;
    },
    // A tool's own findings are said by their summary (their values name the listing's internal
    // types); an argument's or result field's by its values and whether it is required.
    facts: (f: Finding, markup: Markup) =>
      f.kind === "method" ? [] : [changeText(f, markup), markup.text(f.detail)].filter((fact) => fact !== ""),
  };
}

/** `tool get_weather, argument units, value kelvin`, with names marked as code. */
export function subjectText(s: ToolSubject, markup: Markup): string {
  const parts = [`${markup.text(s.owner)} ${markup.code(s.name)}`];
  if (s.place === "argument")
    parts.push(s.field ? `${markup.text("argument")} ${markup.code(s.field)}` : markup.text("arguments"));
  if (s.place === "result")
    parts.push(s.field ? `${markup.text("result field")} ${markup.code(s.field)}` : markup.text("structured result"));
  if (s.value !== undefined) parts.push(`${markup.text("value")} ${markup.code(s.value)}`);
  return parts.join(", ");
}
