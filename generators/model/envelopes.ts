// Pass: which declarations are the JSON-RPC envelopes of this revision, read from the
// members of its message union (`JSONRPCMessage`) by their shape, not by their names
// (2024-11-05 calls the error response `JSONRPCError`, 2025-11-25 `JSONRPCErrorResponse`).
import { ModelError } from "./errors.js";
import type { Declaration, Envelopes, Shape, TypeNode } from "./model.js";

type Slot = Exclude<keyof Envelopes, "union">;
const SLOTS: Slot[] = ["request", "notification", "resultResponse", "errorResponse", "batchRequest", "batchResponse"];

/** Whether the revision has JSON-RPC batches: its message union has a batch envelope (2025-03-26). */
export function hasBatches(envelopes: Envelopes): boolean {
  return envelopes.batchRequest !== undefined || envelopes.batchResponse !== undefined;
}

export function buildEnvelopes(declarations: Declaration[], union: string): Envelopes | undefined {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const root = byName.get(union);
  if (!root) return undefined;
  const found: Partial<Record<Slot, string>> = {};
  const assign = (slot: Slot, name: string) => {
    if (found[slot] && found[slot] !== name) {
      throw new ModelError(`${union}: both ${found[slot]} and ${name} look like the ${slot} envelope`, union);
    }
    found[slot] = name;
  };

  /** Members of a union, following aliases of unions. */
  const members = (node: TypeNode): TypeNode[] => {
    if (node.kind === "union") return node.members.flatMap(members);
    if (node.kind === "ref") {
      const decl = byName.get(node.name);
      if (decl?.kind === "alias" && (decl.type.kind === "union" || decl.type.kind === "ref")) return members(decl.type);
    }
    return [node];
  };
  const single = (node: TypeNode): Slot | undefined => {
    if (node.kind !== "ref") return undefined;
    return classify(byName.get(node.name)?.resolved);
  };

  for (const member of members(root.kind === "alias" ? root.type : { kind: "ref", name: union })) {
    if (member.kind !== "ref") throw new ModelError(`${union} may only list named types`, union);
    const decl = byName.get(member.name);
    const batch = decl?.kind === "alias" && decl.type.kind === "array" ? decl.type.items : undefined;
    if (batch) {
      const slots = new Set(members(batch).map(single));
      if ([...slots].every((s) => s === "request" || s === "notification")) assign("batchRequest", member.name);
      else if ([...slots].every((s) => s === "resultResponse" || s === "errorResponse"))
        assign("batchResponse", member.name);
      else throw new ModelError(`${member.name}: a batch that mixes requests and responses`, union);
      continue;
    }
    const slot = single(member);
    if (!slot)
      throw new ModelError(`${member.name} (in ${union}) is not a JSON-RPC request, notification or response`, union);
    assign(slot, member.name);
  }
  const envelopes: Record<string, string> = { union };
  for (const slot of SLOTS) {
    const name = found[slot];
    if (name) envelopes[slot] = name;
    else if (!slot.startsWith("batch")) throw new ModelError(`${union} has no ${slot} envelope`, union);
  }
  return envelopes as unknown as Envelopes;
}

function classify(shape: Shape | undefined): Slot | undefined {
  const names = new Set(shape?.properties.map((p) => p.name));
  if (!names.has("jsonrpc")) return undefined;
  if (names.has("method")) return names.has("id") ? "request" : "notification";
  if (names.has("result")) return "resultResponse";
  if (names.has("error")) return "errorResponse";
  return undefined;
}
