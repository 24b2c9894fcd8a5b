// Piece `taskAugmentation`: the requests that may be answered with a task instead of their result,
// and the params fields that ask for one.
import type { Protocol, Shape, TypeNode } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** A request whose params take the task fields may be answered with a task instead of its result. */
export function taskAugmentation(source: ProtocolSource): Protocol["taskAugmentation"] {
  const tasks = source.table.taskAugmentation;
  const paramsDecl = source.byName.get(tasks.params);
  if (!paramsDecl || !source.byName.has(tasks.result)) return undefined;
  const shapes = (node: TypeNode | undefined): Shape[] => {
    const decl = node?.kind === "ref" ? source.byName.get(node.name) : undefined;
    if (decl?.kind === "alias" && decl.type.kind === "union") return decl.type.members.flatMap(shapes);
    const shape = source.shapeOf(node);
    return shape ? [shape] : [];
  };
  const augmented = source.methods.filter(
    (m) =>
      m.kind === "request" && shapes(m.params?.type).some((s) => s.properties.some((p) => p.from === tasks.params)),
  );
  return {
    params: tasks.params,
    // The fields that declaration adds (`task`): present in a request, they ask for a task.
    fields: paramsDecl.kind === "interface" ? paramsDecl.properties.map((p) => p.name) : [],
    result: tasks.result,
    methods: [...new Set(augmented.map((m) => m.method))],
  };
}
