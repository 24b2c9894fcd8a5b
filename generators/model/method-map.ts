// Pass: the method map. Which messages exist and in which direction comes from the
// schema's own unions; results and gating capabilities are inferred by the rules
// below and the reviewed table spec/method-inferences.json.
import { resolveCapability } from "./capabilities.js";
import { ModelError } from "./errors.js";
import type { MethodInferences } from "./inference-table.js";
import type { CapabilityRef, Declaration, Direction, MethodEntry, ResultSource, Shape, TypeNode } from "./model.js";

export function buildMethodMap(
  declarations: Declaration[],
  inferences: Pick<MethodInferences, "unions" | "capabilities">,
): MethodEntry[] {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const entries: MethodEntry[] = [];

  for (const source of inferences.unions) {
    const union = byName.get(source.union);
    if (!union) continue;
    for (const memberName of unionMembers(union)) {
      const decl = byName.get(memberName);
      const shape = decl?.resolved;
      if (!decl || !shape)
        throw new ModelError(`${source.union} member ${memberName} is not an object type`, union.name);
      const method = methodName(shape);
      if (method === undefined) {
        throw new ModelError(`${memberName} (in ${source.union}) has no literal \`method\``, memberName);
      }
      if (entries.some((e) => e.method === method && e.direction === source.direction)) {
        throw new ModelError(`${method} appears twice in the ${source.direction} messages`, memberName);
      }
      const params = shape.properties.find((p) => p.name === "params");
      const entry: MethodEntry = {
        method,
        kind: source.kind,
        direction: source.direction,
        delivery: source.delivery,
        union: source.union,
        type: memberName,
        params: params ? { type: params.type, optional: params.optional } : null,
        capability: capabilityOf(method, source.direction, declarations, inferences),
      };
      if (source.kind === "request") {
        const { type, source: how } = inferResult(decl, method, declarations);
        entry.result = type;
        entry.resultSource = how;
      }
      entries.push(entry);
    }
  }
  return entries;
}

function unionMembers(decl: Declaration): string[] {
  if (decl.kind !== "alias") throw new ModelError(`${decl.name} must be a type alias`, decl.name);
  const members = decl.type.kind === "union" ? decl.type.members : [decl.type];
  return members.map((m) => {
    if (m.kind !== "ref") throw new ModelError(`${decl.name} may only list named message types`, decl.name);
    return m.name;
  });
}

function methodName(shape: Shape): string | undefined {
  const type = shape.properties.find((p) => p.name === "method")?.type;
  if (type?.kind === "literal" && typeof type.value === "string") return type.value;
  if (type?.kind === "typeof" && typeof type.value === "string") return type.value;
  return undefined;
}

/**
 * The result type of a request, by the first rule that applies:
 * 1. responseType: a JSON-RPC result response in the request's `@category` (an object
 *    with `jsonrpc`, `id` and `result`) states it in its `result` property;
 * 2. category: the one declaration named `*Result` in the request's `@category`;
 * 3. name: `FooRequest` → `FooResult` when that declaration exists;
 * 4. emptyDefault: `EmptyResult`.
 */
export function inferResult(
  request: Declaration,
  method: string,
  declarations: Declaration[],
): { type: TypeNode; source: ResultSource } {
  const peers = request.category ? declarations.filter((d) => d !== request && d.category === request.category) : [];
  const responses = peers.filter((d) => isResultResponse(d.resolved));
  if (responses.length > 1) {
    throw new ModelError(`${method}: several result responses in its category (${names(responses)})`, request.name);
  }
  const result = responses[0]?.resolved?.properties.find((p) => p.name === "result");
  if (result) return { type: result.type, source: "responseType" };

  const results = peers.filter((d) => d.name.endsWith("Result"));
  if (results.length > 1) {
    throw new ModelError(`${method}: several *Result types in its category (${names(results)})`, request.name);
  }
  if (results[0]) return { type: { kind: "ref", name: results[0].name }, source: "category" };

  const named = request.name.replace(/Request$/, "Result");
  if (named !== request.name && declarations.some((d) => d.name === named)) {
    return { type: { kind: "ref", name: named }, source: "name" };
  }
  if (declarations.some((d) => d.name === "EmptyResult")) {
    return { type: { kind: "ref", name: "EmptyResult" }, source: "emptyDefault" };
  }
  throw new ModelError(`${method}: no result type found`, request.name);
}

function isResultResponse(shape: Shape | undefined): boolean {
  const names = new Set(shape?.properties.map((p) => p.name));
  return names.has("jsonrpc") && names.has("id") && names.has("result");
}

function names(decls: Declaration[]): string {
  return decls.map((d) => d.name).join(", ");
}

/** Resolves the table's capability for this revision: null when its top-level key does not exist here. */
function capabilityOf(
  method: string,
  direction: Direction,
  declarations: Declaration[],
  inferences: Pick<MethodInferences, "capabilities">,
): CapabilityRef | null {
  const table = inferences.capabilities[direction];
  if (!Object.hasOwn(table, method)) {
    throw new ModelError(
      `${method} (${direction}) is not in spec/method-inferences.json; add its gating capability (or null) there`,
    );
  }
  const spec = table[method];
  if (spec === null || spec === undefined) return null;
  return resolveCapability(spec, declarations, `${method}`);
}
