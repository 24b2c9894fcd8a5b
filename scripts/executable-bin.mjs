// Marks package.json's "bin" files executable, after tsc in `npm run build`: tsc writes them
// without the executable bit, and `npx mcp-gen` in a clone runs the file itself ("Permission
// denied" otherwise). Run from the package's root, as npm runs scripts.
import { chmodSync, readFileSync } from "node:fs";

const { bin } = JSON.parse(readFileSync("package.json", "utf8"));
for (const file of typeof bin === "string" ? [bin] : Object.values(bin ?? {})) chmodSync(file, 0o755);
