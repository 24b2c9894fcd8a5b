// Where a tools module imports the runtime from (`--runtime`): the wrappers' shared code
// (runtime/tools.ts) and the support its validators call (runtime/validation/), as subpaths of a
// package (`@mcp-gen/runtime/tools`), or as the files of a folder that holds the runtime's
// sources, such as a vendored tree's (`./mcp/runtime/tools.js`, relative to the module).
import { InputError } from "../errors.js";

export const DEFAULT_RUNTIME = "@mcp-gen/runtime";

export interface RuntimeSpecifiers {
  tools: string;
  validation: string;
}

export function runtimeSpecifiers(runtime: string): RuntimeSpecifiers {
  const base = runtime.replace(/(.)\/+$/, "$1");
  if (base.trim() === "") throw new InputError("--runtime: expected a package name or a path, got nothing");
  return /^\.\.?(\/|$)|^\//.test(base)
    ? { tools: `${base}/tools.js`, validation: `${base}/validation/index.js` }
    : { tools: `${base}/tools`, validation: `${base}/validation` };
}
