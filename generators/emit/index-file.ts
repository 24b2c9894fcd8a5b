// generated/<rev>/index.ts: the barrel; where the revision serves every revision beside it
// (every-revision.ts), its `createMcpServer` stands in for the registry's.
import { headerView, type Artifact } from "./artifact.js";
import { stringLiteral } from "./code.js";
import { servesEveryRevision } from "./every-revision.js";
import { renderTemplate } from "./render.js";

export function indexArtifact(modules: Artifact[]): Artifact {
  return {
    file: "index.ts",
    emit(model, env) {
      return renderTemplate("index", {
        ...headerView(model, env),
        modules: modules.map((m) => stringLiteral(`./${m.file.replace(/\.ts$/, ".js")}`)),
        everyRevision: servesEveryRevision(model, env),
        runtimeImport: env.runtimeImport,
      });
    },
  };
}
