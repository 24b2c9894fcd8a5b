// Independent checks that a message a server sent is one of a given revision: the generated
// validators of that revision, and ajv on the spec's own schema.json for it with every object
// that declares properties closed (so a field the revision lacks fails too).
import AjvModule from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Transport } from "../../runtime/index.js";
import * as v1105 from "../../generated/2024-11-05/validators.js";
import * as v0326 from "../../generated/2025-03-26/validators.js";
import * as v0618 from "../../generated/2025-06-18/validators.js";
import * as v1125 from "../../generated/2025-11-25/validators.js";
import * as v2607 from "../../generated/2026-07-28/validators.js";
import { checkedInModel, officialSchema } from "./spec.js";

const VALIDATORS: Record<string, typeof v1105.validateMessage> = {
  "2024-11-05": v1105.validateMessage,
  "2025-03-26": v0326.validateMessage as typeof v1105.validateMessage,
  "2025-06-18": v0618.validateMessage as typeof v1105.validateMessage,
  "2025-11-25": v1125.validateMessage as typeof v1105.validateMessage,
  "2026-07-28": v2607.validateMessage as typeof v1105.validateMessage,
};

type TypeValidators = { [name: string]: { validate(value: unknown): { ok: boolean; issues?: unknown } } | undefined };
const TYPE_VALIDATORS: Record<string, TypeValidators> = {
  "2024-11-05": v1105.validators as unknown as TypeValidators,
  "2025-03-26": v0326.validators as unknown as TypeValidators,
  "2025-06-18": v0618.validators as unknown as TypeValidators,
  "2025-11-25": v1125.validators as unknown as TypeValidators,
  "2026-07-28": v2607.validators as unknown as TypeValidators,
};

/** What one connection's server side sent and received. */
export interface MessageLog {
  sent: unknown[];
  received: unknown[];
}

/** `inner`, recording every message both ways (what goes on the wire, after any conversion). */
export function recording(inner: Transport, log: MessageLog): Transport {
  const outer: Transport = {
    start: () => {
      inner.onmessage = (message, extra) => {
        log.received.push(message);
        outer.onmessage?.(message, extra);
      };
      inner.onclose = () => outer.onclose?.();
      inner.onerror = (error) => outer.onerror?.(error);
      return inner.start();
    },
    send: (message, options) => {
      log.sent.push(message);
      return inner.send(message, options);
    },
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setHttpBinding: (binding) => inner.setHttpBinding?.(binding),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    cancel: (id) => inner.cancel?.(id) ?? false,
    unanswered: (id) => inner.unanswered?.(id),
  };
  return outer;
}

type Schema = Record<string, unknown>;

/** Every object schema that lists properties, closed to others (the revision's own, recursively). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema))
    out[key] = key === "properties" ? mapValues(value, closed) : closed(value);
  const declares = typeof out["properties"] === "object" && Object.keys(out["properties"] as Schema).length > 0;
  const extra = out["additionalProperties"];
  if (
    declares &&
    (extra === undefined || extra === true || (typeof extra === "object" && Object.keys(extra as Schema).length === 0))
  )
    out["additionalProperties"] = false;
  return out;
}

const mapValues = (value: unknown, f: (v: unknown) => unknown) =>
  Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, f(v)]));

const compiled = new Map<
  string,
  { get(name: string): ((value: unknown) => boolean) & { errors?: unknown }; properties(name: string): string[] }
>();

function ajvFor(revision: string) {
  let found = compiled.get(revision);
  if (found) return found;
  const { root, defsKey } = officialSchema(revision);
  const Ajv = defsKey === "$defs" ? Ajv2020Module.default : AjvModule.default;
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats.default(ajv);
  // The spec's schemas hold Tool.inputSchema and other JSON Schemas as values: those stay open.
  const schema = closed(root) as Schema;
  const defs = schema[defsKey] as Record<string, Schema>;
  for (const [name, def] of Object.entries((root as Schema)[defsKey] as Record<string, Schema>)) {
    const props = def["properties"] as Record<string, Schema> | undefined;
    for (const key of ["inputSchema", "outputSchema"])
      if (name === "Tool" && props?.[key]) (defs[name]!["properties"] as Schema)[key] = props[key];
  }
  delete schema["$schema"];
  ajv.addSchema(schema, "mcp");
  found = {
    get: (name) => {
      const validate = ajv.getSchema(`mcp#/${defsKey}/${name}`);
      if (!validate) throw new Error(`${revision} schema.json has no ${name}`);
      return validate as never;
    },
    properties: (name) => Object.keys((defs[name]?.["properties"] as Schema | undefined) ?? {}),
  };
  compiled.set(revision, found);
  return found;
}

/** The problems of every message the server sent, judged as messages of `revision`; [] when all are. */
export function problemsOf(revision: string, log: MessageLog): string[] {
  const requests = new Map<string, { method: string; params?: unknown }>();
  // A batch (2025-03-26) is judged whole by the validators, and message by message as well.
  const each = (messages: unknown[]) => messages.flatMap((m) => (Array.isArray(m) ? (m as unknown[]) : [m]));
  for (const m of each(log.received) as Schema[])
    if (typeof m["method"] === "string" && m["id"] !== undefined)
      requests.set(String(m["id"]), { method: m["method"], params: m["params"] });
  const model = checkedInModel(revision);
  const byMethod = new Map(model.methods.map((m) => [m.method, m]));
  const ajv = ajvFor(revision);
  const problems: string[] = [];
  const requestOf = (id: unknown) => requests.get(String(id));
  for (const batch of log.sent.filter((m) => Array.isArray(m))) {
    const verdict = VALIDATORS[revision]!(batch, { from: "server", requestOf });
    if (!verdict.ok) problems.push(`validators: ${JSON.stringify(batch)}: ${JSON.stringify(verdict.issues)}`);
  }
  for (const message of each(log.sent) as Schema[]) {
    const verdict = VALIDATORS[revision]!(message, { from: "server", requestOf });
    if (!verdict.ok) problems.push(`validators: ${JSON.stringify(message)}: ${JSON.stringify(verdict.issues)}`);
    const method =
      typeof message["method"] === "string" ? message["method"] : requests.get(String(message["id"]))?.method;
    const entry = method === undefined ? undefined : byMethod.get(method);
    if (!entry) {
      if (typeof message["method"] === "string") problems.push(`${revision} has no ${message["method"]}`);
      continue;
    }
    // A result may be one of several types (a result or one asking for input): one must hold it.
    let names: string[] = [];
    let value: unknown;
    if (typeof message["method"] === "string") {
      names = [entry.type];
      // Older schemas declare a message without its JSON-RPC envelope, newer ones with it.
      const declared = ajv.properties(entry.type);
      value = Object.fromEntries(Object.entries(message).filter(([k]) => declared.includes(k)));
    } else if ("result" in message && entry.result) {
      const result = entry.result;
      names =
        result.kind === "ref"
          ? [result.name]
          : result.kind === "union"
            ? result.members.flatMap((m) => (m.kind === "ref" ? [m.name] : []))
            : [];
      value = message["result"];
    }
    if (names.length === 0) continue;
    const failed = names.map((name) => ({ name, validate: ajv.get(name) })).filter((v) => !v.validate(value));
    if (failed.length === names.length)
      problems.push(
        `schema.json ${names.join(" | ")}: ${JSON.stringify(value)}: ${JSON.stringify(failed.map((f) => f.validate.errors))}`,
      );
  }
  return problems;
}

/** The problems of `value` as a value of `revision`'s type `name` (its validators, ajv closed); [] when none. */
export function typeProblems(revision: string, name: string, value: unknown): string[] {
  const problems: string[] = [];
  const generated = TYPE_VALIDATORS[revision]?.[name];
  if (!generated) problems.push(`${revision} validators have no ${name}`);
  else {
    const verdict = generated.validate(value);
    if (!verdict.ok) problems.push(`validators ${name}: ${JSON.stringify(value)}: ${JSON.stringify(verdict.issues)}`);
  }
  const validate = ajvFor(revision).get(name);
  if (!validate(value))
    problems.push(`schema.json ${name}: ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
  return problems;
}
