// generated/<rev>/validators.ts: a validator per schema type and the JSON-RPC message entry
// points, as straight-line code with no dependencies (see docs/validators.md).
import { hasBatches } from "../model/envelopes.js";
import type { Direction, MethodEntry, Model } from "../model/model.js";
import { headerView, type Artifact, type ChunkedSource, type EmitEnv } from "./artifact.js";
import { ImportList, stringLiteral } from "./code.js";
import { CHUNKS, renderTemplate } from "./render.js";
import { ValidatorBuilder } from "./validate/builder.js";

/** JSON-RPC 2.0 error codes the message entry points report; every revision's schema defines them. */
const ERROR_CODES = ["PARSE_ERROR", "INVALID_REQUEST", "METHOD_NOT_FOUND", "INVALID_PARAMS", "INTERNAL_ERROR"];

const SENDER: Record<Direction, "client" | "server"> = { clientToServer: "client", serverToClient: "server" };

export const validatorsArtifact: Artifact = {
  file: "validators.ts",
  emit: (model, env) => validatorsSource(model, env),
};

/** validators.ts as a frame and its chunks; `trail: false` for tests only (see CheckPrinter). */
export function validatorsSource(model: Model, env: EmitEnv, options: { trail?: boolean } = {}): ChunkedSource {
  const builder = new ValidatorBuilder(model, options);
  builder.addDeclarations();

  // JSON-RPC messages: requests and notifications sent as messages of their own.
  const sent = model.methods.filter((m) => m.delivery === "message");
  const table = (kind: MethodEntry["kind"], sender: "client" | "server") =>
    sent
      .filter((m) => m.kind === kind && SENDER[m.direction] === sender)
      .map((m) => ({ method: stringLiteral(m.method), guard: `g_${m.type}`, explain: `x_${m.type}` }));
  /** Result checks of one sender's requests; `asTask`: as answered when the request asked for a task. */
  const results = (sender: "client" | "server", asTask: boolean) => {
    const tasks = model.protocol.taskAugmentation;
    return sent
      .filter((m) => m.kind === "request" && SENDER[m.direction] === sender && m.result)
      .filter((m) => !asTask || tasks?.methods.includes(m.method))
      .map((m, i) => {
        const name = `${asTask ? "task" : "result"}$${sender}${i}`;
        const result = m.result as NonNullable<MethodEntry["result"]>;
        const answer: NonNullable<MethodEntry["result"]> =
          asTask && tasks ? { kind: "union", members: [result, { kind: "ref", name: tasks.result }] } : result;
        builder.addNode(name, answer);
        return { method: stringLiteral(m.method), guard: `g_${name}`, explain: `x_${name}` };
      });
  };
  const names = (kind: MethodEntry["kind"], sender: "client" | "server") => {
    const list = sent
      .filter((m) => m.kind === kind && SENDER[m.direction] === sender)
      .map((m) => stringLiteral(m.method));
    return list.length > 0 ? list.join(" | ") : "never";
  };

  const imports = new ImportList();
  imports.addNamespace("./types.js", "T");
  for (const code of ERROR_CODES) {
    if (!model.constants.some((c) => c.name === code))
      throw new Error(`validators: the schema has no ${code} constant`);
    imports.add("./types.js", code, false);
  }
  imports.addTypes("./methods.js", [
    "ClientNotificationMap",
    "ClientRequestMap",
    "ServerNotificationMap",
    "ServerRequestMap",
  ]);

  const messages = {
    envelopes: model.envelopes,
    batches: hasBatches(model.envelopes),
    names: {
      clientRequest: names("request", "client"),
      serverRequest: names("request", "server"),
      clientNotification: names("notification", "client"),
      serverNotification: names("notification", "server"),
    },
    requests: { client: table("request", "client"), server: table("request", "server") },
    notifications: { client: table("notification", "client"), server: table("notification", "server") },
    results: { client: results("client", false), server: results("server", false) },
    tasks: model.protocol.taskAugmentation && {
      fields: model.protocol.taskAugmentation.fields.map(stringLiteral),
      results: { client: results("client", true), server: results("server", true) },
    },
  };

  const entries = builder.entryGuards(model.declarations.map((d) => d.name));
  const types = model.declarations.map((d) => ({
    name: d.name,
    key: d.name,
    type: `T.${d.name}`,
    nameLiteral: stringLiteral(d.name),
    guard: entries.get(d.name),
  }));
  const frame = renderTemplate("validators", {
    // The file declares the Standard Schema namespace, and leaf guards ignore the depth they are
    // given: both are reported by typescript-eslint's recommended rules.
    ...headerView(model, env, { lintDisable: true }),
    imports: imports.render(),
    // The message classifier (validators/messages) reports with these itself.
    ...builder.supportView(["got"]),
    // The guard and explain functions, the entry points, the table and the named exports, most of
    // the file, are chunks formatted on their own (formatChunked).
    functions: CHUNKS,
    types,
    messages,
  });
  return {
    frame,
    chunks: [
      ...builder.functions,
      ...types.map((t) => renderTemplate("validator-entry", t)),
      renderTemplate("validator-table", { types, chunkedEntries: true }),
      ...types.map((t) => renderTemplate("validator-exports", t)),
    ],
  };
}
