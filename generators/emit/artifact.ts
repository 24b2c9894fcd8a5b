// What every emitter receives and returns.
import type { Model } from "../model/model.js";
import { GENERATED_BY, LINT_DISABLE } from "./banner.js";

/** Facts about the revision that are not in the model: where its spec pages live. */
export interface EmitEnv {
  specUrl: string;
  /** Page with one anchor per schema type, when the revision has one. */
  schemaReferenceUrl?: string;
  /** Where generated files import the runtime from: `../../runtime` in this repository, `./runtime` in `--out` trees. */
  runtimeImport: string;
  /**
   * The released revisions generated beside this one (the repository's tree of every revision),
   * those before it and those after it, in order; none in a `--out` tree.
   */
  siblings?: { readonly older: readonly string[]; readonly newer: readonly string[] };
}

export interface Artifact {
  /** File name inside the revision's directory. */
  file: string;
  /** Model → unformatted TypeScript (undefined: no such file for this revision). Pure. */
  emit(model: Model, env: EmitEnv): string | ChunkedSource | undefined;
}

/**
 * Unformatted TypeScript whose bulk is self-contained top-level chunks (validator functions), many
 * of them the same in several revisions: `frame` has the line `CHUNKS` (render.ts) where they go.
 */
export interface ChunkedSource {
  frame: string;
  chunks: readonly string[];
}

/**
 * The header partial's view. `lintDisable`: the file has code typescript-eslint's recommended rules
 * report (banner.ts), so the header carries the lint-disable line.
 */
export function headerView(model: Model, env: EmitEnv, options: { lintDisable?: boolean } = {}) {
  return {
    header: {
      generatedBy: GENERATED_BY,
      ...(options.lintDisable ? { lintDisable: LINT_DISABLE } : {}),
      revision: model.revision,
      repository: model.source.repository,
      commit: model.source.commit.slice(0, 12),
      sha256: model.source.sha256.slice(0, 16),
      specUrl: env.specUrl,
    },
  };
}

/** `@see` line for a schema type, when the revision has a schema reference page. */
export function seeLine(env: EmitEnv, typeName: string): string {
  return env.schemaReferenceUrl ? `@see ${env.schemaReferenceUrl}#${typeName.toLowerCase()}` : "";
}
