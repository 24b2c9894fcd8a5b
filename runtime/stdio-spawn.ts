// How StdioClientTransport starts a server, on every platform: the environment the child gets (a
// few harmless variables of this process's under the caller's `env`) and, on Windows, the command
// that runs it. Since CVE-2024-27980 Node refuses to spawn a .cmd or .bat file (npx, a package's
// bin shim) without a shell, and `shell: true` would let arguments run commands; so a command
// that resolves to anything but an .exe or .com runs through cmd.exe with every argument escaped
// for it, as cross-spawn (the official SDK's spawner) does. Platform, environment and file system
// come in as parameters, so all of it is tested on any platform.

/**
 * The variables a server inherits by default: the official SDK v2's lists (on POSIX, sudo's; on
 * Windows, v1's and what cmd.exe and Node's shims need: COMSPEC, PATHEXT, WINDIR, the program
 * folders), and on POSIX also LANG (the locale a server writes in) and TMPDIR (where macOS keeps
 * a user's temporary files).
 */
export const DEFAULT_INHERITED_ENV = {
  posix: ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"],
  win32: [
    "APPDATA",
    "COMSPEC",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PATHEXT",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMDATA",
    "PROGRAMFILES",
    "PROGRAMFILES(X86)",
    "PROGRAMW6432",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
    "WINDIR",
  ],
} as const;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Windows names variables case-insensitively (`Path` is `PATH`); the last spelling wins, as in path-key. */
function keyOf(env: Environment, name: string, platform: string): string | undefined {
  if (platform !== "win32") return name in env ? name : undefined;
  const upper = name.toUpperCase();
  return Object.keys(env)
    .reverse()
    .find((key) => key.toUpperCase() === upper);
}

function valueOf(env: Environment, name: string, platform: string): string | undefined {
  const key = keyOf(env, name, platform);
  return key === undefined ? undefined : env[key];
}

/** The default variables `env` has; a value starting with "()" (an exported shell function) is left out. */
export function defaultEnvironment(platform: string, env: Environment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of platform === "win32" ? DEFAULT_INHERITED_ENV.win32 : DEFAULT_INHERITED_ENV.posix) {
    const value = valueOf(env, name, platform);
    if (value !== undefined && !value.startsWith("()")) out[name] = value;
  }
  return out;
}

/**
 * A server's environment: `given` over the defaults from `own` (this process's), `given` alone
 * when `inheritDefaultEnv` is false, and all of `own` when nothing is given.
 */
export function serverEnvironment(
  given: Environment | undefined,
  inheritDefaultEnv: boolean,
  platform: string,
  own: Environment,
): Record<string, string> {
  if (given === undefined && inheritDefaultEnv) return definedOnly(own);
  const out = inheritDefaultEnv ? defaultEnvironment(platform, own) : {};
  for (const [name, value] of Object.entries(given ?? {})) {
    if (value === undefined) continue;
    // One spelling per variable: on Windows a given `Path` replaces the default `PATH`.
    const taken = keyOf(out, name, platform);
    if (taken !== undefined) delete out[taken];
    out[name] = value;
  }
  return out;
}

function definedOnly(env: Environment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/** What to spawn for a command. */
export interface SpawnCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** The arguments are one command line, escaped already (cmd.exe's): Node must not quote them again. */
  readonly windowsVerbatimArguments: boolean;
}

export interface CommandContext {
  readonly platform: string;
  /** The server's environment: its PATH and PATHEXT are searched. */
  readonly env: Environment;
  /** The server's working directory: searched first, as cmd.exe does, and where a relative path starts. */
  readonly cwd: string;
  /** This process's ComSpec (cmd.exe's path), where it has one. */
  readonly comspec?: string | undefined;
  readonly isFile: (path: string) => boolean;
}

/**
 * The command to spawn, without a shell. Elsewhere than on Windows, and for a command found to be
 * an .exe or .com (or not found at all: spawning it fails as it would have), it is as given.
 * Anything else found (a .cmd or .bat shim such as npx.cmd) runs as `cmd.exe /d /s /c "…"`, which
 * finds the command again as given (the way cross-spawn leaves it to cmd.exe).
 */
export function resolveCommand(command: string, args: readonly string[], context: CommandContext): SpawnCommand {
  const file = context.platform === "win32" ? findOnWindows(command, context) : undefined;
  if (file === undefined || /\.(?:exe|com)$/i.test(file)) return { command, args, windowsVerbatimArguments: false };
  // cmd.exe reads the line once; a shim in node_modules\.bin hands %* on to be read once more.
  const twice = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(file);
  const line = [escapeMeta(command.replace(/\//g, "\\")), ...args.map((arg) => escapeArgument(arg, twice))].join(" ");
  return {
    command: context.comspec ?? "cmd.exe",
    args: ["/d", "/s", "/c", `"${line}"`],
    windowsVerbatimArguments: true,
  };
}

/**
 * The file Windows would run for `command`, as cmd.exe finds it: a path as it is, a bare name in
 * the working directory and then each directory of PATH, each with the extensions of PATHEXT
 * unless it already ends with one.
 */
function findOnWindows(command: string, { env, cwd, isFile }: CommandContext): string | undefined {
  const extensions = (valueOf(env, "PATHEXT", "win32") ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean);
  const lower = command.toLowerCase();
  const names = extensions.some((ext) => lower.endsWith(ext.toLowerCase()))
    ? [command]
    : extensions.map((ext) => command + ext);
  const path = (valueOf(env, "PATH", "win32") ?? "").split(";").map((dir) => dir.replace(/^"(.*)"$/, "$1"));
  const absolute = /^(?:[a-zA-Z]:)?[\\/]/.test(command);
  const directories = absolute ? [""] : /[\\/]/.test(command) ? [cwd] : [cwd, ...path.filter(Boolean)];
  for (const directory of directories)
    for (const name of names) {
      const file = (directory === "" ? name : `${directory.replace(/[\\/]+$/, "")}\\${name}`).replace(/\//g, "\\");
      if (isFile(file)) return file;
    }
  return undefined;
}

/** Characters cmd.exe acts on, each escaped with ^ (https://www.robvanderwoude.com/escapechars.php). */
const CMD_META = /[()\][%!^"`<>&|;, *?]/g;

function escapeMeta(text: string): string {
  return text.replace(CMD_META, "^$&");
}

/**
 * One argument for cmd.exe to pass on: quoted as the C runtime reads it back (backslashes before
 * a quote, or before the closing quote, doubled: https://qntm.org/cmd), then cmd.exe's own
 * characters escaped. A line break would end cmd.exe's command line, so no argument may hold one.
 */
function escapeArgument(arg: string, twice: boolean): string {
  if (/[\r\n\0]/.test(arg))
    throw new TypeError(`an argument for a .cmd or .bat command cannot hold a line break: ${JSON.stringify(arg)}`);
  let quoted = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === "\\") {
      backslashes++;
      continue;
    }
    quoted += char === '"' ? "\\".repeat(backslashes * 2 + 1) + '"' : "\\".repeat(backslashes) + char;
    backslashes = 0;
  }
  quoted += "\\".repeat(backslashes * 2) + '"';
  const escaped = escapeMeta(quoted);
  return twice ? escapeMeta(escaped) : escaped;
}
