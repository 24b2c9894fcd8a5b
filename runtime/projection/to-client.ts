// A request a handler written against one revision sends to a client of another: its params as
// the client's revision has them, or the error the handler gets instead when that revision cannot
// express it (the method missing: -32601; a field lost, or converted by a conversion that is not
// lossless, on the way: -32602 naming it).
import { ErrorCode } from "../jsonrpc.js";
import { project } from "./project.js";
import type { RevisionProjection, Shape } from "./shapes.js";

export type ToClient =
  /** `converted`: the lossless conversions applied (`<pointer> <id>`). */
  | { readonly params: unknown; readonly converted: readonly string[] }
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
  if (params === undefined) return { params, converted: [] };
  const projected = project(params, shape, target, source);
  const lossless = new Set(target.blocks.filter((b) => b.lossless).map((b) => b.id));
  // A conversion is reported as `<pointer> <id>`.
  const isLossless = (c: string) => lossless.has(c.slice(c.lastIndexOf(" ") + 1));
  const lost = [...projected.dropped, ...projected.converted.filter((c) => !isLossless(c))];
  if (lost.length === 0) return { params: projected.value, converted: projected.converted };
  return {
    error: {
      code: ErrorCode.InvalidParams,
      message: `the client's protocol revision ${target.revision} cannot express this ${method}: ${lost.join(", ")}`,
    },
  };
}
