// generated/<rev>/projection.ts: the revision as a target of conversion, for one server whose
// handlers are written once against a newer revision (runtime/projection/) and for a host that
// shows every server's values as one revision's (host/view.ts): the shapes of what a server sends
// at this revision and of what a client answers it, the methods it has (requests to the client: by the name of
// the context's helper that sends them, or as multi round-trip input), its handshake and HTTP binding, and
// the reviewed conversions (spec/down-conversions.json) that apply here: those from a type this
// revision lacks to one it has, and those of a field its type lacks into one it has.
import type { Model } from "../model/model.js";
import { headerView, type Artifact } from "./artifact.js";
import { ImportList, valueLiteral } from "./code.js";
import { ShapeTable, type Shape } from "./projection-shapes.js";
import { renderTemplate } from "./render.js";
import { methodViews } from "./session-view.js";

type Template = string | number | boolean | null | Template[] | { [key: string]: Template };

/** spec/down-conversions.json */
export interface DownConversions {
  writtenFor: string;
  whole: string[];
  blocks: { id: string; from: string; to: string; build: Template; keep: string[]; lossless?: boolean }[];
  fields: { id: string; type: string; field: string; into: string; build: Template }[];
}

export function projectionArtifact(conversions: DownConversions): Artifact {
  return {
    file: "projection.ts",
    emit(model, env) {
      const runtime = env.runtimeImport;
      const imports = new ImportList();
      imports.addTypes(`${runtime}/projection/index.js`, ["RevisionProjection"]);
      imports.add("./methods.js", "HTTP_BINDING", false);
      imports.add("./methods.js", "REVISION", false);
      return renderTemplate("projection", {
        ...headerView(model, env),
        imports: imports.render(),
        writtenFor: conversions.writtenFor,
        table: valueLiteral(projectionTable(model, conversions)),
      });
    },
  };
}

/** The table, without revision and HTTP binding (the template names those from methods.ts). */
export function projectionTable(model: Model, conversions: DownConversions) {
  const shapes = new ShapeTable(model, conversions.whole);
  const sent = (kind: "request" | "notification", direction: "clientToServer" | "serverToClient") =>
    model.methods.filter((m) => m.kind === kind && m.direction === direction && m.delivery === "message");
  const byMethod = (entries: ReturnType<typeof sent>, shapeOf: (m: (typeof entries)[number]) => Shape) =>
    Object.fromEntries(entries.map((m) => [m.method, shapeOf(m)]));
  const results = byMethod(sent("request", "clientToServer"), (m) => (m.result ? shapes.of(m.result) : 0));
  const requests = byMethod(sent("request", "serverToClient"), (m) => (m.params ? shapes.of(m.params.type) : 0));
  const notifications = byMethod(sent("notification", "serverToClient"), (m) =>
    m.params ? shapes.of(m.params.type) : 0,
  );
  // What a handler asks of the client through its context, by the helper's name (`elicit`).
  const helpers = Object.fromEntries(
    methodViews(model, "request", "serverToClient")
      .filter((v) => v.delivery === "message")
      .map((v) => [v.name, v.method]),
  );
  const inputRequests = byMethod(
    model.methods.filter((m) => m.kind === "request" && m.delivery === "inputRequired"),
    (m) => (m.params ? shapes.of(m.params.type) : 0),
  );
  // What a client answers a server's request with, however the request reached it: a host's
  // answers, written against another revision, are projected onto these (runtime/projection/view.ts).
  const answers = byMethod(
    model.methods.filter((m) => m.kind === "request" && m.direction === "serverToClient"),
    (m) => (m.result ? shapes.of(m.result) : 0),
  );
  // The fields every result carries at this revision, with a plain result's value: filled in when
  // a result of a revision without them is read as one of this.
  const resultDefaults = Object.fromEntries(
    (model.protocol.resultDefaults?.fields ?? []).map((f) => [f.field, f.value]),
  );
  // Likewise the caching fields of the results that carry them, read as an uncached result.
  const caching = model.protocol.caching;
  const methodDefaults = Object.fromEntries(
    (caching?.methods ?? []).map((method) => [
      method,
      { [caching!.ttl]: caching!.absent.ttl, [caching!.scope]: caching!.absent.scope },
    ]),
  );
  // Conversions apply where this revision lacks the type (or field) and has what it becomes.
  const blocks = conversions.blocks.filter((b) => !shapes.has(b.from) && shapes.has(b.to));
  for (const block of conversions.blocks) {
    if (shapes.has(block.from)) shapes.declaration(block.from);
    if (shapes.has(block.to)) shapes.declaration(block.to);
  }
  const fields = conversions.fields.filter((f) => {
    const type = shapes.declaration(f.type);
    return typeof type === "object" && "o" in type && !(f.field in type.o) && f.into in type.o;
  });
  const handshake = model.protocol.handshake;
  const versionOf = (fields: { field: string; state: string }[]) =>
    fields.find((f) => f.state === "protocolVersion")?.field;
  const types = Object.fromEntries([...shapes.types].filter(([, shape]) => shape !== 0));
  return {
    types,
    results,
    requests,
    helpers,
    inputRequests,
    answers,
    resultDefaults,
    methodDefaults,
    notifications,
    clientNotifications: sent("notification", "clientToServer").map((m) => m.method),
    ...(handshake
      ? {
          handshake: {
            request: handshake.request,
            version: versionOf(handshake.params) ?? "",
            resultVersion: versionOf(handshake.result) ?? "",
          },
        }
      : {}),
    blocks,
    fields,
  };
}
