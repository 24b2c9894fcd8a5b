#!/usr/bin/env node
// Gets a redis-server for the tests that run several server processes against Redis
// (test/scale*.test.ts), without root: a system redis-server on PATH is used as it is; otherwise
// Debian's packages are downloaded with `apt-get download` (download only, no install, no root)
// into .cache/redis/ and unpacked there with `dpkg-deb -x`, with the two libraries the binary
// needs that a minimal system lacks (libjemalloc2, liblzf1). Where apt's package lists are empty
// (a fresh container: "Unable to locate package"), `apt-get update` fills private lists under
// .cache/redis/apt/ first, which needs no root either. No npm package ships a Redis binary that
// installs offline, hence apt. Prints the binary's path; test/support/redis.ts finds it the same
// way. Idempotent: a second run does nothing. `npm ci` runs it (the prepare step) with --optional:
// where it cannot get Redis it prints one warning line instead of failing the install, and the
// tests that need Redis fail naming what is missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cache = join(root, ".cache", "redis");
const tree = join(cache, "root");
const binary = join(tree, "usr", "bin", "redis-server");
const PACKAGES = ["redis-server", "redis-tools", "libjemalloc2", "liblzf1"];
const optional = process.argv.includes("--optional");
/** An `apt-get update` that gets no answer must not hold up `npm ci` for long. */
const UPDATE_TIMEOUT_MS = 5 * 60_000;

function fail(message) {
  console.error(`get-redis: ${message}`);
  process.exit(optional ? 0 : 1);
}

function onPath() {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

function works(path, libs) {
  const env = libs ? { ...process.env, LD_LIBRARY_PATH: libs } : process.env;
  return spawnSync(path, ["--version"], { env, encoding: "utf8" }).status === 0;
}

/** Runs apt-get quietly in the cache; its first error line when it fails, else undefined. */
function aptGet(args, timeout) {
  const run = spawnSync("apt-get", ["-qq", ...args], { cwd: cache, encoding: "utf8", timeout });
  if (run.status === 0) return undefined;
  if (run.error) return run.error.code === "ETIMEDOUT" ? `no answer in ${timeout / 60_000} minutes` : run.error.message;
  const error = run.stderr.split("\n").find((line) => line.startsWith("E:"));
  return error ?? (run.stderr.trim() || `exit code ${run.status}`);
}

/**
 * apt options for package lists of our own: as any user, without touching the system's state
 * (no lock, since only this run uses them; as root, no switch to the `_apt` user, which may not
 * reach a directory under the user's home).
 */
function privateLists() {
  const lists = join(cache, "apt", "lists");
  const archives = join(cache, "apt", "cache");
  mkdirSync(join(lists, "partial"), { recursive: true });
  mkdirSync(join(archives, "archives", "partial"), { recursive: true });
  const options = [`Dir::State::Lists=${lists}`, `Dir::Cache=${archives}`, "Debug::NoLocking=1"];
  if (process.getuid?.() === 0) options.push("APT::Sandbox::User=root");
  return options.flatMap((option) => ["-o", option]);
}

const system = onPath();
if (system && works(system)) {
  console.log(`redis-server: ${system} (on PATH)`);
  process.exit(0);
}
const libs = join(tree, "usr", "lib", "x86_64-linux-gnu");
if (existsSync(binary) && works(binary, libs)) {
  console.log(`redis-server: ${binary}`);
  process.exit(0);
}
const HOW =
  "install Redis so that redis-server is on PATH (Debian/Ubuntu: `sudo apt-get install redis-server`; " +
  "others: https://redis.io/docs/latest/operate/oss_and_stack/install/), then run `npm run get-redis` again; " +
  "only test/scale*.test.ts need it";
if (spawnSync("sh", ["-c", "command -v apt-get && command -v dpkg-deb"]).status !== 0) {
  fail(`no redis-server on PATH and no apt-get/dpkg-deb to download Debian's: ${HOW}`);
}
rmSync(cache, { recursive: true, force: true });
mkdirSync(tree, { recursive: true });
// The system's package lists first; where they cannot locate the packages, lists of our own.
let failed = aptGet(["download", ...PACKAGES]);
if (failed !== undefined) {
  const own = privateLists();
  const updated = aptGet([...own, "update"], UPDATE_TIMEOUT_MS);
  failed =
    updated !== undefined ? `apt-get update (private lists): ${updated}` : aptGet([...own, "download", ...PACKAGES]);
}
if (failed !== undefined) fail(`could not download Debian's ${PACKAGES.join(" ")} (${failed}): ${HOW}`);
for (const deb of readdirSync(cache).filter((name) => name.endsWith(".deb"))) {
  const unpacked = spawnSync("dpkg-deb", ["-x", join(cache, deb), tree], { encoding: "utf8" });
  if (unpacked.status !== 0) fail(`dpkg-deb -x ${deb} failed (${unpacked.stderr.trim()}): ${HOW}`);
}
if (!works(binary, libs)) fail(`${binary} was unpacked but does not run (missing libraries? try ldd on it): ${HOW}`);
console.log(`redis-server: ${binary}`);
