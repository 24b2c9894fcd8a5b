// `npm run build` of packages/runtime: stages the compiled runtime/, integrations/ (@mcp-gen/runtime/redis),
// generated/<revision>/ and host/
// (JavaScript and declarations, built by the root's `npm run build` into dist/) into
// packages/runtime/dist/, keeping their relative layout, so the generated modules' imports of
// ../../runtime/*.js resolve inside the package. Refuses a dist/ older than its sources.
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "packages", "runtime", "dist");
const parts = ["runtime", "integrations", "generated", "host"];

function stale() {
  for (const part of parts) {
    for (const entry of readdirSync(join(root, part), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) continue;
      const source = join(entry.parentPath, entry.name);
      const built = join(root, "dist", relative(root, source)).replace(/\.ts$/, ".js");
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) return relative(root, source);
    }
  }
  return undefined;
}

const outdated = stale();
if (outdated !== undefined) {
  console.error(
    `stage-runtime: dist/ is missing or older than ${outdated}; run \`npm run build\` at the repository root`,
  );
  process.exit(2);
}
rmSync(target, { recursive: true, force: true });
for (const part of parts) {
  cpSync(join(root, "dist", part), join(target, part), {
    recursive: true,
    filter: (path) => statSync(path).isDirectory() || /\.(js|d\.ts)$/.test(path),
  });
}
