// What every protocol piece is read from (ProtocolSource): the revision's declarations, methods
// and constants, the reviewed `protocol` table, and the lookups the pieces share.
import { ModelError } from "../errors.js";
import type { Fields, ProtocolTable } from "../inference-table.js";
import type {
  Declaration,
  Direction,
  ErrorConstant,
  FieldBinding,
  LiteralValue,
  MethodEntry,
  Shape,
  TypeNode,
} from "../model.js";
import { SchemaFacts } from "../rule-facts.js";

/** What else of the revision the protocol table is checked against. */
export interface RevisionFacts {
  revision: string;
  batches: boolean;
}

/** What the pieces are read from: the revision's declarations, methods and constants, and the table. */
export class ProtocolSource {
  readonly byName: Map<string, Declaration>;
  readonly schema: SchemaFacts;

  constructor(
    declarations: Declaration[],
    readonly methods: MethodEntry[],
    readonly constants: { name: string; value: LiteralValue }[],
    readonly table: ProtocolTable,
    readonly facts: RevisionFacts,
  ) {
    this.byName = new Map(declarations.map((d) => [d.name, d]));
    this.schema = new SchemaFacts(declarations, methods, constants);
  }

  /** The object shape of a named type or an inline object type. */
  shapeOf(node: TypeNode | undefined): Shape | undefined {
    if (!node) return undefined;
    if (node.kind === "ref") return this.byName.get(node.name)?.resolved;
    if (node.kind === "object") return { properties: node.properties.map((p) => ({ ...p, from: "" })) };
    return undefined;
  }

  /** The table's fields as the shape has them; a field it lacks is an error, or left out when not `strict`. */
  bind(shape: Shape | undefined, fields: Fields, where: string, strict = true): FieldBinding[] {
    return Object.entries(fields).flatMap(([field, state]) => {
      const property = shape?.properties.find((p) => p.name === field);
      if (!property) {
        if (strict) throw new ModelError(`spec/method-inferences.json: ${where} has no field ${field}`);
        return [];
      }
      return [{ field, state, required: !property.optional }];
    });
  }

  /** The message a client sends by this name. */
  request(method: string): MethodEntry | undefined {
    return this.methods.find((m) => m.method === method && m.direction === "clientToServer");
  }

  /** The notification a server sends by this name. */
  serverNotification(method: string): MethodEntry | undefined {
    return this.methods.find(
      (m) => m.method === method && m.kind === "notification" && m.direction === "serverToClient",
    );
  }

  /** The directions the notification travels in; none where the revision lacks it. */
  directions(method: string): Direction[] {
    return this.methods.filter((m) => m.method === method && m.kind === "notification").map((m) => m.direction);
  }

  /** An error code by this constant's name, where the revision has it as a number. */
  numericConstant(name: string): ErrorConstant | undefined {
    const found = this.constants.find((c) => c.name === name);
    return typeof found?.value === "number" ? { constant: name, code: found.value } : undefined;
  }

  /** A constant the table names as an error code: it must exist and be a number. */
  errorConstant(name: string): ErrorConstant {
    const found = this.numericConstant(name);
    if (!found) throw new ModelError(`spec/method-inferences.json: no numeric constant ${name}`);
    return found;
  }
}
