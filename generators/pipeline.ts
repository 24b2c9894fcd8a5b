// The whole job for one revision: find its source, parse it (or fall back to the
// checked-in model), and emit its files. Pure apart from reading inputs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Artifact, ChunkedSource, EmitEnv } from "./emit/artifact.js";
import { runtimeCopy } from "./emit/banner.js";
import { clientArtifact } from "./emit/client.js";
import { everyRevisionArtifact } from "./emit/every-revision.js";
import { indexArtifact } from "./emit/index-file.js";
import { methodsArtifact } from "./emit/methods.js";
import { projectionArtifact, type DownConversions } from "./emit/projection.js";
import { registryArtifact } from "./emit/registry.js";
import { serverArtifact } from "./emit/server.js";
import { formatChunked, formatModule } from "./emit/render.js";
import { typesArtifact } from "./emit/types.js";
import { validatorsArtifact } from "./emit/validators.js";
import { fileSystemError, InputError } from "./errors.js";
import type { MethodInferences } from "./model/inference-table.js";
import { MODEL_VERSION, type Model } from "./model/model.js";
import { SchemaParser } from "./parse/parse-schema.js";
import { INSTALLED, paths } from "./paths.js";
import {
  findRevision,
  isReleased,
  locateSchema,
  specUrl,
  type RevisionTable,
  type SchemaSource,
} from "./spec/revisions.js";

const MODULES: Artifact[] = [
  typesArtifact,
  methodsArtifact,
  validatorsArtifact,
  clientArtifact,
  serverArtifact,
  registryArtifact,
  projectionArtifact(JSON.parse(readFileSync(paths.conversions, "utf8")) as DownConversions),
];
export const ARTIFACTS: Artifact[] = [...MODULES, everyRevisionArtifact, indexArtifact(MODULES)];

/** Revisions whose spec site has a schema reference page with one anchor per type. */
export function emitEnv(table: RevisionTable, revision: string, layout: "repository" | "out" = "repository"): EmitEnv {
  const pin = findRevision(table, revision);
  const url = specUrl(table, revision);
  const released = table.revisions.map((r) => r.revision).filter((r) => isReleased(r) && r !== revision);
  const at = table.revisions.findIndex((r) => r.revision === revision);
  const before = new Set(table.revisions.slice(0, at).map((r) => r.revision));
  return {
    specUrl: url,
    runtimeImport: layout === "repository" ? "../../runtime" : "./runtime",
    ...(pin.schemaReference ? { schemaReferenceUrl: `${url}/schema` } : {}),
    // Only the repository's tree has every revision: a `--out` tree has this one.
    ...(layout === "repository"
      ? { siblings: { older: released.filter((r) => before.has(r)), newer: released.filter((r) => !before.has(r)) } }
      : {}),
  };
}

export interface LoadedModel {
  model: Model;
  /** Where the model came from: a parsed schema.ts, or the checked-in model.json. */
  from: { kind: "source"; source: SchemaSource } | { kind: "checked-in"; path: string };
}

export interface LoadOptions {
  specDir?: string;
  /** An explicit schema.ts for this revision, not checked against the pin. */
  schemaFile?: string;
}

export class ModelLoader {
  private parser?: SchemaParser;

  constructor(private readonly table: RevisionTable) {}

  load(revision: string, options: LoadOptions = {}): LoadedModel {
    const pin = findRevision(this.table, revision);
    let source: SchemaSource | undefined;
    if (options.schemaFile) {
      if (!existsSync(options.schemaFile)) throw new InputError(`${options.schemaFile}: no such file`);
      source = { path: options.schemaFile, origin: "--schema", text: readText(options.schemaFile) };
    } else {
      source = locateSchema(pin, options.specDir);
    }
    if (!source) {
      const path = paths.model(revision);
      if (!existsSync(path)) {
        const fix = INSTALLED
          ? `give --spec-dir DIR with ${revision}/schema.ts`
          : `run \`mcp-gen sync --rev ${revision}\``;
        throw new InputError(`no schema.ts for ${revision} and no checked-in model; ${fix}`);
      }
      return { model: readModel(path), from: { kind: "checked-in", path } };
    }
    this.parser ??= new SchemaParser(readInferences());
    const model = this.parser.parse({
      revision,
      path: displayPath(source.path),
      text: source.text,
      source: {
        repository: this.table.repository,
        commit: pin.commit,
        path: `schema/${revision}/schema.ts`,
        sha256: pin.sha256,
      },
      conventions: { numberType: pin.numberType },
    });
    return { model, from: { kind: "source", source } };
  }
}

export function readInferences(): MethodInferences {
  return JSON.parse(readFileSync(paths.inferences, "utf8")) as MethodInferences;
}

export function readModel(path: string): Model {
  let model: Model;
  try {
    model = JSON.parse(readFileSync(path, "utf8")) as Model;
  } catch (error) {
    throw new InputError(`${path}: not a readable model (${(error as Error).message}); regenerate it`);
  }
  if (model.modelVersion !== MODEL_VERSION) {
    throw new InputError(
      `${path}: model version ${model.modelVersion}, this mcp-gen reads ${MODEL_VERSION}; regenerate it`,
    );
  }
  return model;
}

export function serializeModel(model: Model): string {
  return JSON.stringify(model, null, 2) + "\n";
}

/** The revision's generated files: name → formatted content. */
export async function emitRevision(model: Model, env: EmitEnv): Promise<Map<string, string>> {
  // Everything is emitted before the first await, so a caller may parse the next revision while
  // this one's files are formatted (on worker threads: withFormatWorkers). A module goes to the
  // format workers as soon as it is emitted, and the validator chunks, laid out on this thread,
  // come last, so that the workers start early and this thread's layout overlaps their work.
  const pending = new Map<string, Promise<string>>();
  const chunked: [string, ChunkedSource][] = [];
  for (const artifact of ARTIFACTS) {
    const source = artifact.emit(model, env);
    if (source === undefined) continue;
    if (typeof source === "string") pending.set(artifact.file, formatModule(source, artifact.file));
    else chunked.push([artifact.file, source]);
  }
  for (const [file, source] of chunked) pending.set(file, formatChunked(source, file));
  const files = ARTIFACTS.map(({ file }) => file).filter((file) => pending.has(file));
  const formatted = await Promise.all(files.map((file) => pending.get(file) as Promise<string>));
  return new Map(files.map((file, i) => [file, formatted[i] as string]));
}

/** The runtime's sources, for `--out` trees: `runtime/<path>.ts` → content with mcp-gen's banner, its folders included. */
export function runtimeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        const path = `${prefix}${entry.name}`;
        files.set(path, runtimeCopy(path, readFileSync(join(dir, entry.name), "utf8")));
      }
    }
  };
  walk(paths.runtime, "runtime/");
  return files;
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw fileSystemError(error, path);
  }
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") && rel.split("/").filter((s) => s === "..").length > 2 ? path : rel;
}
