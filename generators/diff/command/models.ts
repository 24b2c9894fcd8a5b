// The checked-in models the diff reads. (The pipeline's loader would also load the parser,
// which `mcp-gen diff` never needs.)
import { readFileSync } from "node:fs";
import { InputError } from "../../errors.js";
import { MODEL_VERSION, type Model } from "../../model/model.js";
import { paths } from "../../paths.js";

/** A revision's checked-in model, spec/<rev>/model.json. */
export function checkedInModel(revision: string): Model {
  const path = paths.model(revision);
  let model: Model;
  try {
    model = JSON.parse(readFileSync(path, "utf8")) as Model;
  } catch (error) {
    throw new InputError(`${path}: not a readable model (${(error as Error).message}); run \`mcp-gen generate\``);
  }
  if (model.modelVersion !== MODEL_VERSION) {
    throw new InputError(
      `${path}: model version ${model.modelVersion}, this mcp-gen reads ${MODEL_VERSION}; regenerate it`,
    );
  }
  return model;
}
