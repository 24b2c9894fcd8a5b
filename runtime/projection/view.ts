// A client that speaks several revisions showing its application one of them (the view): what a
// server of another revision sends (results, its requests' params, notifications) is read as the
// view's types, and the application's answers to that server's requests are sent as the server's
// revision has them. Both ways are the one walker (project.ts) over the generated tables, the
// target's shapes deciding: fields the target lacks are dropped, content it lacks is rebuilt by the
// reviewed conversions, and the fields every result of the target carries (2026-07-28's
// `resultType`, and the caching hints of the results that have them) are filled in with a plain
// result's value, as its spec tells a client to read results of servers that predate them. Revision-free: every fact comes from the tables.
import { project, type Projected } from "./project.js";
import type { RevisionProjection, Shape } from "./shapes.js";

/** What a server sends that a client reads: its results, its requests' params, its notifications' params. */
export type Sent = "result" | "request" | "notification";

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The shape `view` gives what a server sends, or undefined when the view has no such method. */
function shapeAt(view: RevisionProjection, sent: Sent, method: string): Shape | undefined {
  const table =
    sent === "result"
      ? [view.results]
      : sent === "notification"
        ? [view.notifications]
        : // A request to the client is a message in some revisions, input in a result in others.
          [view.requests, view.inputRequests];
  for (const methods of table) if (Object.hasOwn(methods, method)) return methods[method] ?? 0;
  return undefined;
}

/** `value`, a result of `method`, with the fields every such result of `target` carries, where it lacks them. */
function withResultDefaults(value: unknown, method: string, target: RevisionProjection): unknown {
  const defaults = Object.entries({ ...target.resultDefaults, ...target.methodDefaults[method] });
  if (!isObject(value) || defaults.every(([field]) => value[field] !== undefined)) return value;
  const filled: Json = { ...value };
  for (const [field, plain] of defaults) if (filled[field] === undefined) filled[field] = plain;
  return filled;
}

const unchanged = (value: unknown): Projected => ({ value, dropped: [], converted: [], lost: [] });

/**
 * What a server of revision `from` sent (`sent` of `method`), as `view` has it. A method the view
 * lacks is left as it is: the caller asked for it by name and gets what came.
 */
export function toView(
  sent: Sent,
  method: string,
  value: unknown,
  from: RevisionProjection,
  view: RevisionProjection,
): Projected {
  if (from.revision === view.revision || value === undefined) return unchanged(value);
  const shape = shapeAt(view, sent, method);
  if (shape === undefined) return unchanged(value);
  // Defaults first: the view's union of results tells its members apart by them.
  const filled = sent === "result" ? withResultDefaults(value, method, view) : value;
  return project(filled, shape, view, from, shapeAt(from, sent, method) ?? 0);
}

/**
 * The application's answer (written against `view`) to `method`, a request of a server of
 * revision `to`, as that revision has it.
 */
export function answerFrom(
  method: string,
  result: unknown,
  view: RevisionProjection,
  to: RevisionProjection,
): Projected {
  if (to.revision === view.revision || result === undefined) return unchanged(result);
  const shape = Object.hasOwn(to.answers, method) ? (to.answers[method] ?? 0) : 0;
  const own = Object.hasOwn(view.answers, method) ? (view.answers[method] ?? 0) : 0;
  return project(withResultDefaults(result, method, to), shape, to, view, own);
}
