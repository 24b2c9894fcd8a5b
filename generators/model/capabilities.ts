// The reviewed table's capability references (`side:path.to.capability`), resolved against a
// revision's ClientCapabilities and ServerCapabilities; shared by the method map and the rule facts.
import { ModelError } from "./errors.js";
import type { CapabilityRef, Declaration, Property, TypeNode } from "./model.js";

/**
 * `side:path.to.capability` as this revision has it: null when its top-level key does not exist
 * here; an error when a deeper key is missing (the table would be wrong), or null with `anyDepth`.
 */
export function resolveCapability(
  spec: string,
  declarations: Declaration[],
  where: string,
  anyDepth = false,
): CapabilityRef | null {
  const match = /^(client|server):([\w.]+)$/.exec(spec);
  if (!match) throw new ModelError(`bad capability "${spec}" for ${where} in spec/method-inferences.json`);
  const side = match[1] as "client" | "server";
  const path = (match[2] as string).split(".");
  const root = declarations.find((d) => d.name === (side === "client" ? "ClientCapabilities" : "ServerCapabilities"));
  let properties: Property[] | undefined = root?.resolved?.properties;
  for (const [i, key] of path.entries()) {
    const property = properties?.find((p) => p.name === key);
    if (!property) {
      if (i === 0 || anyDepth) return null; // the capability is not part of this revision: ungated here
      throw new ModelError(`capability ${spec} for ${where}: no ${key} in ${side} capabilities`);
    }
    properties = propertiesOf(property.type, declarations);
  }
  return { side, path };
}

function propertiesOf(type: TypeNode, declarations: Declaration[]): Property[] | undefined {
  if (type.kind === "object") return type.properties;
  if (type.kind === "ref") return declarations.find((d) => d.name === type.name)?.resolved?.properties;
  return undefined;
}
