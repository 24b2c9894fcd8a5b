// Which messages carry each declaration, and who sends them: the facts that turn a rule's
// role (sender, receiver) into sides. A client→server request's params are sent by the client
// and its result by the server; notifications by their sender; the JSON-RPC envelopes by both.
import type { Direction, Model, Side, TypeNode } from "../../model/model.js";
import { declarationTypes, referencedNames } from "../../model/walk.js";

export interface Carrier {
  /** `tools/call request`, `tools/call result`, `notifications/message`, `JSON-RPC messages`. */
  label: string;
  sender: Side;
}

/** What carries the JSON-RPC envelopes: every message, both ways. */
export const ENVELOPE_CARRIER = "JSON-RPC messages";

export function senderOf(direction: Direction): Side {
  return direction === "clientToServer" ? "client" : "server";
}

export function otherSide(side: Side): Side {
  return side === "client" ? "server" : "client";
}

export interface Carriers {
  /** Declaration → the messages that carry a value of it, directly or nested. */
  direct: Map<string, Carrier[]>;
  /** Declarations no message reaches (a base, a helper union, an error type) → what carries their relatives. */
  derived: Map<string, Carrier[]>;
}

export function carriersOf(model: Model): Carriers {
  const byName = new Map(model.declarations.map((d) => [d.name, d]));
  /** The types a declaration's values contain: its resolved fields, or its alias type. */
  const contents = (name: string): TypeNode[] => {
    const decl = byName.get(name);
    if (!decl) return [];
    if (!decl.resolved) return declarationTypes(decl);
    const nodes = decl.resolved.properties.map((p) => p.type);
    if (decl.resolved.indexSignature) nodes.push(decl.resolved.indexSignature.type);
    return nodes;
  };
  const direct = directCarriers(model, contents);
  return { direct, derived: derivedCarriers(model, direct, contents) };
}

function directCarriers(model: Model, contents: (name: string) => TypeNode[]): Map<string, Carrier[]> {
  const declared = new Set(model.declarations.map((d) => d.name));
  const result = new Map<string, Carrier[]>();
  const carry = (roots: string[], carrier: Carrier) => {
    const queue = [...roots];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const name = queue.shift() as string;
      if (seen.has(name) || !declared.has(name)) continue;
      seen.add(name);
      const list = result.get(name) ?? [];
      if (!list.some((c) => c.label === carrier.label && c.sender === carrier.sender)) list.push(carrier);
      result.set(name, list);
      queue.push(...referencedNames(contents(name)));
    }
  };
  for (const m of model.methods) {
    const caller = senderOf(m.direction);
    carry([m.type], { label: m.kind === "request" ? `${m.method} request` : m.method, sender: caller });
    if (m.result) carry(referencedNames([m.result]), { label: `${m.method} result`, sender: otherSide(caller) });
  }
  for (const sender of ["client", "server"] as Side[]) {
    carry([model.envelopes.union], { label: ENVELOPE_CARRIER, sender });
  }
  return result;
}

/**
 * A declaration no message reaches (a base interface, a helper union such as ClientRequest,
 * an error type) counts as carried by whatever carries its nearest relatives: the types it
 * refers to or extends, and the types that extend it.
 */
function derivedCarriers(
  model: Model,
  direct: Map<string, Carrier[]>,
  contents: (name: string) => TypeNode[],
): Map<string, Carrier[]> {
  const relatives = new Map<string, Set<string>>();
  const relate = (a: string, b: string) => relatives.set(a, (relatives.get(a) ?? new Set()).add(b));
  for (const decl of model.declarations) {
    for (const name of referencedNames(contents(decl.name))) relate(decl.name, name);
    if (decl.kind !== "interface") continue;
    for (const base of referencedNames(decl.extends)) {
      relate(decl.name, base);
      relate(base, decl.name);
    }
  }
  const derived = new Map<string, Carrier[]>();
  for (const decl of model.declarations) {
    if (direct.has(decl.name)) continue;
    const found: Carrier[] = [];
    const seen = new Set<string>([decl.name]);
    const queue = [...(relatives.get(decl.name) ?? [])];
    while (queue.length > 0) {
      const name = queue.shift() as string;
      if (seen.has(name)) continue;
      seen.add(name);
      const carriers = direct.get(name);
      if (carriers) {
        for (const c of carriers) if (!found.includes(c)) found.push(c);
      } else {
        queue.push(...(relatives.get(name) ?? []));
      }
    }
    if (found.length > 0) derived.set(decl.name, found);
  }
  return derived;
}
