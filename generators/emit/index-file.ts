// generated/<rev>/index.ts: the barrel.
import { headerView, type Artifact } from "./artifact.js";
import { stringLiteral } from "./code.js";
import { renderTemplate } from "./render.js";

export function indexArtifact(modules: Artifact[]): Artifact {
  return {
    file: "index.ts",
    emit(model, env) {
      return renderTemplate("index", {
        ...headerView(model, env),
        modules: modules.map((m) => stringLiteral(`./${m.file.replace(/\.ts$/, ".js")}`)),
      });
    },
  };
}
