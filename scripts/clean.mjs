// Removes build output before a build, so a package never ships files its sources no longer have.
// Usage: node scripts/clean.mjs DIR... (relative to the working directory).
import { rmSync } from "node:fs";

for (const dir of process.argv.slice(2)) rmSync(dir, { recursive: true, force: true });
