// generated/<rev>/types.ts: every declaration and constant of the schema.
import type { Model } from "../model/model.js";
import { headerView, seeLine, type Artifact } from "./artifact.js";
import { docComment, stringLiteral } from "./code.js";
import { printDeclaration, printsEmptyObjectType, tagLines } from "./print-type.js";
import { renderTemplate } from "./render.js";

export const typesArtifact: Artifact = {
  file: "types.ts",
  emit(model: Model, env) {
    return renderTemplate("types", {
      ...headerView(model, env, { lintDisable: model.declarations.some(printsEmptyObjectType) }),
      constants: model.constants.map((c) => ({
        doc: docComment(tagLines(c)),
        name: c.name,
        value: typeof c.value === "string" ? stringLiteral(c.value) : String(c.value),
      })),
      declarations: model.declarations.map((d) => ({
        doc: docComment([...(d.category ? [`@category ${d.category}`] : []), ...tagLines(d), seeLine(env, d.name)]),
        code: printDeclaration(d),
      })),
    });
  },
};
