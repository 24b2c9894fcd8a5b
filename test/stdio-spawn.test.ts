// How StdioClientTransport starts a server: the environment a real child sees (the defaults
// under `env`, exactly `env`, or everything), and, with platform, environment and file system
// injected, the command Windows runs for a .cmd shim such as npx (cmd.exe, every argument
// escaped) next to one it runs as it is.
import { afterEach, describe, expect, it } from "vitest";
import { Peer } from "../runtime/index.js";
import { defaultEnvironment, resolveCommand, serverEnvironment, type CommandContext } from "../runtime/stdio-spawn.js";
import { StdioClientTransport, type StdioServerParameters } from "../runtime/stdio.js";

/** A child that answers any request with the environment it was given. */
const envServer = [
  'require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {',
  "  const { id } = JSON.parse(line);",
  '  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { env: process.env } }) + "\\n");',
  "});",
].join("\n");

const SECRET = "MCP_GEN_TEST_SECRET";
afterEach(() => {
  delete process.env[SECRET];
});

async function childEnv(parameters: Partial<StdioServerParameters>): Promise<Record<string, string>> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["-e", envServer], ...parameters });
  const peer = new Peer({ transport, handleRequest: async () => ({}), handleNotification: () => {} });
  await peer.start();
  try {
    return (await peer.request("env", undefined))["env"] as Record<string, string>;
  } finally {
    await peer.close();
  }
}

describe("the environment of a spawned server", () => {
  it("is `env` over this process's PATH, HOME and the like; its other variables stay here", async () => {
    process.env[SECRET] = "for another server";
    const env = await childEnv({ env: { MCP_GEN_GIVEN: "1", HOME: "/elsewhere" } });
    expect(env["MCP_GEN_GIVEN"]).toBe("1");
    expect(env["HOME"]).toBe("/elsewhere");
    expect(env["PATH"]).toBe(process.env["PATH"]);
    expect(env[SECRET]).toBeUndefined();
  });

  it("is exactly `env` with inheritDefaultEnv: false, and this process's whole environment without `env`", async () => {
    process.env[SECRET] = "inherited";
    expect(await childEnv({ env: { MCP_GEN_GIVEN: "1" }, inheritDefaultEnv: false })).toEqual({ MCP_GEN_GIVEN: "1" });
    expect((await childEnv({}))[SECRET]).toBe("inherited");
  });

  it("takes the platform's defaults, none that is an exported shell function", () => {
    const own = { HOME: "/h", PATH: "/bin", BASH_FUNC_x: "() { :; }", SHELL: "() { evil; }", AWS_SECRET: "s" };
    expect(defaultEnvironment("linux", own)).toEqual({ HOME: "/h", PATH: "/bin" });
    const windows = { Path: "C:\\bin", SystemRoot: "C:\\Windows", ComSpec: "C:\\Windows\\cmd.exe", HOME: "/h" };
    expect(defaultEnvironment("win32", windows)).toEqual({
      PATH: "C:\\bin",
      SYSTEMROOT: "C:\\Windows",
      COMSPEC: "C:\\Windows\\cmd.exe",
    });
  });

  it("on Windows has one spelling of each variable: a given `Path` replaces the default `PATH`", () => {
    const own = { Path: "C:\\bin", TEMP: "C:\\t" };
    expect(serverEnvironment({ Path: "D:\\tools" }, true, "win32", own)).toEqual({ TEMP: "C:\\t", Path: "D:\\tools" });
    // Elsewhere names differ by case.
    expect(serverEnvironment({ Path: "/x" }, true, "linux", { PATH: "/bin" })).toEqual({ PATH: "/bin", Path: "/x" });
  });
});

describe("the command Windows runs", () => {
  /** A Windows machine with these files; PATH has Node's folder, then System32. */
  const windows = (files: string[], env: Record<string, string> = {}): CommandContext => ({
    platform: "win32",
    env: { Path: "C:\\Program Files\\nodejs;C:\\Windows\\System32", PATHEXT: ".COM;.EXE;.BAT;.CMD", ...env },
    cwd: "C:\\work",
    comspec: "C:\\Windows\\system32\\cmd.exe",
    // Windows file names are case-insensitive: npx.CMD is npx.cmd.
    isFile: (path) => files.some((file) => file.toLowerCase() === path.toLowerCase()),
  });
  const npxCmd = "C:\\Program Files\\nodejs\\npx.cmd";
  const plain = (command: string, args: string[]) => ({ command, args, windowsVerbatimArguments: false });
  const viaCmd = (line: string) => ({
    command: "C:\\Windows\\system32\\cmd.exe",
    args: ["/d", "/s", "/c", `"${line}"`],
    windowsVerbatimArguments: true,
  });

  it("runs a .cmd shim found on PATH (npx) through cmd.exe, every argument quoted and escaped", () => {
    const args = ["-y", "@modelcontextprotocol/server-everything"];
    expect(resolveCommand("npx", args, windows([npxCmd]))).toEqual(
      viaCmd('npx ^"-y^" ^"@modelcontextprotocol/server-everything^"'),
    );
    // Without a ComSpec, cmd.exe by name.
    const { comspec: _, ...noComspec } = windows([npxCmd]);
    expect(resolveCommand("npx", [], noComspec).command).toBe("cmd.exe");
  });

  it("escapes what cmd.exe would act on, so an argument stays one argument and runs nothing", () => {
    const args = ["a&b c", 'say "hi"', "C:\\dir\\", "%PATH%", "x|y>z"];
    expect(resolveCommand("npx", args, windows([npxCmd]))).toEqual(
      viaCmd('npx ^"a^&b^ c^" ^"say^ \\^"hi\\^"^" ^"C:\\dir\\\\^" ^"^%PATH^%^" ^"x^|y^>z^"'),
    );
    expect(() => resolveCommand("npx", ["one\r\ncalc.exe"], windows([npxCmd]))).toThrow(/line break/);
  });

  it("escapes twice for a shim in node_modules\\.bin, which hands its arguments to cmd.exe again", () => {
    const shim = "C:\\work\\node_modules\\.bin\\server.cmd";
    expect(resolveCommand("node_modules/.bin/server", ["&"], windows([shim]))).toEqual(
      viaCmd('node_modules\\.bin\\server ^^^"^^^&^^^"'),
    );
  });

  it("runs an .exe as it is, and leaves a command it cannot find to fail as it would have", () => {
    const node = "C:\\Program Files\\nodejs\\node.exe";
    expect(resolveCommand("node", ["server.js"], windows([node]))).toEqual(plain("node", ["server.js"]));
    expect(resolveCommand("missing", ["a&b"], windows([npxCmd]))).toEqual(plain("missing", ["a&b"]));
  });

  it("finds what cmd.exe would: the working directory first, an extension PATHEXT names, a PATH spelt any way", () => {
    expect(resolveCommand("npx", [], windows(["C:\\work\\npx.bat", npxCmd]))).toEqual(viaCmd("npx"));
    const onlyCmd = windows(["C:\\tools\\serve.cmd"], { Path: "C:\\tools", PATHEXT: ".EXE;.CMD" });
    expect(resolveCommand("serve", [], onlyCmd)).toEqual(viaCmd("serve"));
    expect(resolveCommand("serve", [], { ...onlyCmd, env: { PATH: "C:\\tools" } })).toEqual(viaCmd("serve"));
    expect(resolveCommand("serve.cmd", [], onlyCmd)).toEqual(viaCmd("serve.cmd"));
    expect(resolveCommand("C:/tools/serve", [], onlyCmd)).toEqual(viaCmd("C:\\tools\\serve"));
  });

  it("leaves every command as it is elsewhere", () => {
    expect(resolveCommand("npx", ["a&b"], { ...windows([npxCmd]), platform: "darwin" })).toEqual(plain("npx", ["a&b"]));
  });
});
