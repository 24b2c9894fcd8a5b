// generated/<rev>/every-revision.ts, in the repository's tree of every revision: the registry of a
// session revision made to answer clients of the revisions generated beside it too (older session
// revisions by conversion, 2026-era clients through the newest stateless one; runtime/projection/
// every-revision.ts). The barrel exports its `createMcpServer` in place of the registry's. A `--out`
// tree holds one revision: there is nothing beside it, so no such file.
import type { Model } from "../model/model.js";
import type { Artifact, EmitEnv } from "./artifact.js";
import { headerView } from "./artifact.js";
import { ImportList } from "./code.js";
import { renderTemplate } from "./render.js";

/** Whether the revision's barrel serves every revision: a session revision with revisions beside it. */
export function servesEveryRevision(model: Model, env: EmitEnv): boolean {
  const { siblings } = env;
  return (
    model.protocol.http?.kind === "sessions" &&
    siblings !== undefined &&
    siblings.older.length + siblings.newer.length > 0
  );
}

/** `2025-06-18` → `r2025_06_18`: the local name of a sibling's imports. */
const localName = (revision: string) => `r${revision.replace(/\W/g, "_")}`;

export const everyRevisionArtifact: Artifact = {
  file: "every-revision.ts",
  emit(model, env) {
    if (!servesEveryRevision(model, env) || !env.siblings) return undefined;
    const imports = new ImportList();
    imports.add(`${env.runtimeImport}/projection/index.js`, "serveEveryRevision", false);
    imports.addTypes(`${env.runtimeImport}/projection/index.js`, ["EveryRevisionOptions", "EveryRevisionServer"]);
    imports.add("./registry.js", "createMcpServer as createOwn", false);
    imports.addTypes("./registry.js", ["McpServer", "McpServerOptions"]);
    imports.add("./projection.js", "PROJECTION", false);
    const sibling = (revision: string) => {
      const name = localName(revision);
      imports.add(`../${revision}/registry.js`, `createMcpServer as ${name}`, false);
      imports.add(`../${revision}/projection.js`, `PROJECTION as ${name}_PROJECTION`, false);
      return `{ projection: ${name}_PROJECTION, create: ${name} }`;
    };
    const older = env.siblings.older.map(sibling);
    const newer = env.siblings.newer.map(sibling);
    return renderTemplate("every-revision", {
      ...headerView(model, env),
      imports: imports.render(),
      older: `[${older.join(", ")}]`,
      newer: `[${newer.join(", ")}]`,
      served: [...env.siblings.older, ...env.siblings.newer].join(", "),
    });
  },
};
