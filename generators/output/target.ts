// Where generated code may go. Checked before any work, so a refused run writes nothing: the
// file-system root, the home directory and mcp-gen's own package are never output places, and a
// path that cannot hold the output is named in one line instead of failing halfway.
import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, parse, resolve, sep } from "node:path";
import { InputError, isFileSystemError } from "../errors.js";
import { INSTALLED, PACKAGE_ROOT } from "../paths.js";

/** The real path of `path`, also when its last parts do not exist yet (their parent's real path). */
function realPath(path: string): string {
  const abs = resolve(path);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realPath(parent), basename(abs));
}

const isInside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Why a directory is no place to generate a tree into, or undefined. */
function systemPlace(real: string): string | undefined {
  if (real === parse(real).root) return "the file-system root";
  if (real === realPath(homedir())) return "your home directory";
  return undefined;
}

/** Whether a path is mcp-gen's own package, or inside it when installed, which mcp-gen never writes into. */
function inPackage(real: string): boolean {
  const pkg = realPath(PACKAGE_ROOT);
  // In a checkout, tests and maintainers generate below the root (git-ignored work directories).
  return INSTALLED ? isInside(real, pkg) : real === pkg;
}

const PACKAGE_PLACE = `mcp-gen's own package (${PACKAGE_ROOT})`;

/** The nearest existing directory at or above `path` must be writable for the output to be created. */
function checkWritable(path: string, shown: string): void {
  let existing = path;
  while (!existsSync(existing)) existing = dirname(existing);
  try {
    accessSync(existing, constants.W_OK);
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new InputError(`${shown}: not writable (${existing}: permission denied)`);
  }
}

/** The absolute directory for `--out DIR`, after refusing the places generated code must not go. */
export function outputDirectory(dir: string, option = "--out"): string {
  if (dir.trim() === "") throw new InputError(`${option} needs a directory`);
  const abs = resolve(dir);
  const real = realPath(abs);
  const place = systemPlace(real) ?? (inPackage(real) ? PACKAGE_PLACE : undefined);
  if (place)
    throw new InputError(
      `${option} ${dir}: refusing to write into ${place}; name a directory for the generated code, e.g. src/mcp`,
    );
  if (existsSync(abs) && !statSync(abs).isDirectory()) throw new InputError(`${option} ${dir}: not a directory`);
  checkWritable(abs, `${option} ${dir}`);
  return abs;
}

/** The absolute path for `--out FILE`, after refusing directories and mcp-gen's own package. */
export function outputFile(file: string, option = "--out"): string {
  if (file.trim() === "") throw new InputError(`${option} needs a file name`);
  const abs = resolve(file);
  if (existsSync(abs) && statSync(abs).isDirectory())
    throw new InputError(`${option} ${file}: is a directory, not a file`);
  if (inPackage(realPath(dirname(abs))))
    throw new InputError(`${option} ${file}: refusing to write into ${PACKAGE_PLACE}`);
  checkWritable(abs, `${option} ${file}`);
  return abs;
}

/** The maintainer commands act on mcp-gen's own files: only in a checkout of its repository. */
export function refuseInstalled(what: string): void {
  if (INSTALLED) {
    throw new InputError(
      `${what} is a maintainer command for a checkout of the mcp-gen repository; this mcp-gen is an installed package (${PACKAGE_ROOT}), which it never rewrites`,
    );
  }
}
