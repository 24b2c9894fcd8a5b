// Where formatted sources are cached (render.ts), read by the format workers too (format-pool.ts).
import { join } from "node:path";
import { INSTALLED, paths } from "../paths.js";

/**
 * The cache directory: `.cache/format/` (git-ignored), `$MCP_GEN_FORMAT_CACHE`, or "off" with
 * `MCP_GEN_FORMAT_CACHE=off`; off by default in an installed package, which mcp-gen never writes into.
 */
export const formatCache = (): string =>
  process.env.MCP_GEN_FORMAT_CACHE ?? (INSTALLED ? "off" : join(paths.root, ".cache", "format"));
