// A request a handler written against one revision sends to a client of another: its params as
// the client's revision has them, hints it lacks dropped (an optional plain field: a `default`),
// or the error the handler gets instead when that revision cannot express it (the method missing:
// -32601; something it cannot hold, or converted by a conversion that is not lossless: -32602
// naming each path and why).
import { ErrorCode } from "../jsonrpc.js";
import { project, type Lost } from "./project.js";
import type { RevisionProjection, Shape } from "./shapes.js";

export type ToClient =
  /** `dropped`: the hints left out; `converted`: the lossless conversions applied (`<pointer> <id>`). */
  | { readonly params: unknown; readonly dropped: readonly string[]; readonly converted: readonly string[] }
  | { readonly error: { readonly code: number; readonly message: string } };

/** `shape`: the params' shape at `target`; undefined when `target` has no such request. */
export function toClient(
  method: string,
  params: unknown,
  shape: Shape | undefined,
  target: RevisionProjection,
  source: RevisionProjection,
): ToClient {
  if (shape === undefined)
    return {
      error: {
        code: ErrorCode.MethodNotFound,
        message: `the client's protocol revision ${target.revision} has no ${method}`,
      },
    };
  if (params === undefined) return { params, dropped: [], converted: [] };
  const projected = project(params, shape, target, source, requestShape(source, method));
  const lossless = new Set(target.blocks.filter((b) => b.lossless).map((b) => b.id));
  // A conversion is reported as `<pointer> <id>`.
  const lossy = projected.converted.flatMap((c): Lost[] => {
    const at = c.lastIndexOf(" ");
    const id = c.slice(at + 1);
    return lossless.has(id) ? [] : [{ path: c.slice(0, at), why: `converted by ${id}, not losslessly` }];
  });
  const lost = [...projected.lost, ...lossy];
  if (lost.length === 0) return { params: projected.value, dropped: projected.dropped, converted: projected.converted };
  return {
    error: {
      code: ErrorCode.InvalidParams,
      message: `the client's protocol revision ${target.revision} cannot express this ${method}: ${describe(lost)}`,
    },
  };
}

/** The params' shape where the handler's revision has `method`: a request, or input in a result. */
function requestShape(source: RevisionProjection, method: string): Shape {
  for (const requests of [source.requests, source.inputRequests])
    if (Object.hasOwn(requests, method)) return requests[method] ?? 0;
  return 0;
}

/** `/a, /b (why); /c (another why)`: the pointers grouped by why, in the order met. */
function describe(lost: readonly Lost[]): string {
  const byWhy = new Map<string, string[]>();
  for (const { path, why } of lost) byWhy.set(why, [...(byWhy.get(why) ?? []), path || "the params"]);
  return [...byWhy].map(([why, paths]) => `${paths.join(", ")} (${why})`).join("; ");
}
