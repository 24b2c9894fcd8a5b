#!/usr/bin/env node
// Gets a redis-server for the tests that run several server processes against Redis
// (test/scale*.test.ts), without root: a system redis-server on PATH is used as it is; otherwise
// Debian's packages are downloaded with `apt-get download` (download only, no install, no root)
// into .cache/redis/ and unpacked there with `dpkg-deb -x`, with the two libraries the binary
// needs that a minimal system lacks (libjemalloc2, liblzf1). No npm package ships a Redis binary
// that installs offline, hence apt. Prints the binary's path; test/support/redis.ts finds it the
// same way. Idempotent: a second run does nothing. `npm ci` runs it (the prepare script) with
// --optional: where it cannot get Redis it warns instead of failing the install, and the tests
// that need Redis fail naming what is missing.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cache = join(root, ".cache", "redis");
const tree = join(cache, "root");
const binary = join(tree, "usr", "bin", "redis-server");
const PACKAGES = ["redis-server", "redis-tools", "libjemalloc2", "liblzf1"];
const optional = process.argv.includes("--optional");

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
if (spawnSync("sh", ["-c", "command -v apt-get && command -v dpkg-deb"]).status !== 0) {
  fail(
    "no redis-server on PATH and no apt-get/dpkg-deb to download Debian's; install Redis " +
      "(https://redis.io/docs/latest/operate/oss_and_stack/install/) and put redis-server on PATH",
  );
}
rmSync(cache, { recursive: true, force: true });
mkdirSync(tree, { recursive: true });
try {
  execFileSync("apt-get", ["download", ...PACKAGES], { cwd: cache, stdio: ["ignore", "ignore", "inherit"] });
  for (const deb of readdirSync(cache).filter((name) => name.endsWith(".deb")))
    execFileSync("dpkg-deb", ["-x", join(cache, deb), tree]);
} catch (error) {
  fail(`apt-get download ${PACKAGES.join(" ")} failed (${error.message}); or put a redis-server on PATH`);
}
if (!works(binary, libs)) fail(`${binary} was unpacked but does not run (missing libraries? try ldd on it)`);
console.log(`redis-server: ${binary}`);
