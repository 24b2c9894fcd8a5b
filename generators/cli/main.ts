#!/usr/bin/env node
// The mcp-gen command line. Exit codes: see EXIT in ../errors.ts.
import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { EXIT, fileSystemMessage, InputError, isFileSystemError } from "../errors.js";
import { refuseInstalled } from "../output/target.js";
import { GENERATOR_VERSION, INSTALLED, PACKAGE_ROOT } from "../paths.js";
import { closest } from "../suggest.js";
import { CONFIG_FILE, findConfig } from "./config.js";
import { tuneCompilerForGenerating } from "./jit.js";
import { listRevisions } from "./revisions.js";
import { sync } from "./sync.js";

// The generating commands load the parser (ts-morph), which takes most of a second: they are
// imported when run, so commands that read models only (`diff`) start fast. V8 is tuned for the run
// first, then the format workers start, so that prettier loads on another thread meanwhile.
const generating = async <T>(load: () => Promise<T>): Promise<T> => {
  tuneCompilerForGenerating();
  (await import("../emit/format-pool.js")).startFormatWorkersEarly();
  return load();
};

/** --quiet: progress and notes are not printed; errors, and reports on stdout, are. */
let quiet = false;
/** Set once stdout's reader has gone (`mcp-gen diff … | head -1`): the rest of the report is dropped. */
let stdoutGone = false;

const log = (line: string) => {
  if (!quiet) process.stderr.write(line + "\n");
};
const write = (text: string) => {
  if (!stdoutGone) process.stdout.write(text);
};
const print = (line: string) => write(line + "\n");
const error = (line: string) => process.stderr.write(line + "\n");

// A closed pipe is the reader's choice, not an error of mcp-gen: the command still finishes (writes
// its files, returns its exit code) without printing more.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    if (stream === process.stdout) stdoutGone = true;
  });
}

const specDir = {
  "spec-dir": {
    type: "string",
    describe: `Directory with <revision>/schema.ts (default: $MCP_GEN_SPEC_DIR, then ${INSTALLED ? "the checked-in models" : "the sync cache"})`,
  },
} as const;

// Each command's options, as one record: yargs declares them, and a mistyped one is matched against them.
const MAIN = {
  ...specDir,
  rev: { type: "string", describe: "Protocol revision, e.g. 2025-06-18 (see `mcp-gen revisions`)" },
  out: {
    type: "string",
    requiresArg: true,
    describe: `${INSTALLED ? "Required with --rev: write" : "Write"} the revision's files, the runtime and a manifest into DIR (your project's copy). One revision: its createMcpServer answers that revision's clients only; @mcp-gen/runtime/<rev>'s answers every revision (or combine vendored revisions with createMultiRevisionServer, docs/servers.md)`,
  },
  check: {
    type: "boolean",
    describe:
      "With --out or a config file: exit 1 with a unified diff if the output is not what would be generated now",
  },
  force: { type: "boolean", describe: "With --out: overwrite files that have no mcp-gen banner (hand-written ones)" },
  schema: { type: "string", describe: "Use this schema.ts for --rev instead of the pinned one (not hash-checked)" },
  config: {
    type: "string",
    requiresArg: true,
    describe: `Without --rev: generate (or --check) everything FILE lists (default: ./${CONFIG_FILE})`,
  },
} as const;

const GENERATE = {
  ...specDir,
  rev: { type: "string", array: true, describe: "Only these revisions (repeat or comma-separate)" },
  schema: { type: "string", describe: "With one --rev: use this schema.ts (not hash-checked)" },
} as const;

const SYNC = {
  rev: { type: "string", array: true, describe: "Only these revisions (default: all)" },
  from: { type: "string", describe: "Copy from DIR/<revision>/ instead of downloading" },
  commit: { type: "string", describe: "Pin one --rev to this upstream commit and record the sha256 of its files" },
} as const;

const DIFF = {
  from: { type: "string", demandOption: true, describe: "The revision you are on" },
  to: { type: "string", demandOption: true, describe: "The revision you move to" },
  format: {
    choices: ["md", "json", "html", "github", "junit"] as const,
    default: "md" as const,
    describe: "Report format, or for CI: GitHub annotations, a JUnit file",
  },
  out: {
    type: "string",
    requiresArg: true,
    describe: "Write the report to FILE instead of stdout (replacing only an earlier report)",
  },
  force: { type: "boolean", describe: "With --out: overwrite a file that is not a report of mcp-gen diff" },
  "fail-on": {
    choices: ["breaking", "client", "server"] as const,
    describe: "Exit 1 if there are breaking changes (for anyone, or affecting clients or servers)",
  },
  ignore: {
    type: "string",
    requiresArg: true,
    describe: "Accept the changes FILE lists, each with its reason (docs/upgrading.md), for --fail-on and github/junit",
  },
} as const;

const TOOLS = {
  stdio: { type: "string", describe: "Spawn the server with this command line and list over stdio" },
  url: {
    type: "string",
    describe: "List from a server at this URL (Streamable HTTP, or the HTTP+SSE transport of 2024-11-05)",
  },
  header: { type: "string", array: true, describe: 'With --url: send this HTTP header, "Name: value" (repeatable)' },
  auth: {
    type: "string",
    describe:
      "With --url: authorize with OAuth (a browser opens once; tokens kept in ~/.config/mcp-gen/credentials.json). " +
      "Optional value: a host config's auth settings as JSON or @FILE (docs/authorization.md)",
  },
  from: { type: "string", describe: "Read a saved listing (--save) or a tools/list result from FILE" },
  rev: { type: "string", describe: "Speak this revision (default: the newest the server accepts)" },
  out: { type: "string", requiresArg: true, describe: "Write the TypeScript module to FILE.ts" },
  runtime: {
    type: "string",
    requiresArg: true,
    describe:
      "With --out: import the runtime from this package (its /tools and /validation) or, for a path relative to " +
      "FILE.ts, this folder of runtime sources, e.g. a vendored tree's ./mcp/runtime (default: @mcp-gen/runtime)",
  },
  save: { type: "string", requiresArg: true, describe: "Also write the listing used to FILE.json (for --from)" },
  check: {
    type: "string",
    requiresArg: true,
    describe: "Compare with the listing FILE.ts was generated from; exit 1 on changes",
  },
  force: {
    type: "boolean",
    describe: "Overwrite an --out file without mcp-gen's banner, or a --save file that is no listing",
  },
  format: {
    choices: ["md", "json", "github", "junit"] as const,
    default: "md" as const,
    describe: "--check report format, or for CI: GitHub annotations, a JUnit file",
  },
  ignore: {
    type: "string",
    requiresArg: true,
    describe: "With --check: accept the changes to the tools and prompts FILE lists, each with its reason",
  },
  timeout: { type: "number", default: 30, describe: "Seconds to wait for each answer from the server" },
} as const;

const GLOBAL = {
  quiet: { type: "boolean", alias: "q", global: true, describe: "Print nothing on stderr but errors" },
} as const;

/** Every command (the main job is "") with the options it takes, for "did you mean" suggestions. */
const COMMANDS: Record<string, object> = {
  "": MAIN,
  generate: GENERATE,
  check: specDir,
  sync: SYNC,
  diff: DIFF,
  tools: TOOLS,
  revisions: specDir,
};

const MAINTAINER_COMMANDS = ["generate", "check", "sync"];

/**
 * The commands that act on this repository's own files are listed as such in a checkout and hidden
 * in an installed package, where they refuse to run (docs/decisions.md).
 */
function maintainer(description: string): string | false {
  return INSTALLED ? false : `(maintainer) ${description}`;
}

function revList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(",")).filter((v) => v !== "");
}

function cli(argv: string[]): Argv {
  const parser: Argv = yargs(argv)
    .scriptName("mcp-gen")
    .usage(
      // Installed, --out is required: without it --rev would rewrite the package (refused).
      `$0 --rev <revision> ${INSTALLED ? "--out DIR" : "[--out DIR]"}\n$0 [--check]   (everything ${CONFIG_FILE} lists)\n\nGenerate typed Model Context Protocol code for one revision.`,
    )
    .options(GLOBAL)
    .middleware((args) => {
      quiet = args.quiet === true;
    })
    .command(
      "$0",
      INSTALLED
        ? "Generate one revision as a self-contained tree in --out DIR"
        : "Generate one revision (into generated/<rev>/, or a self-contained tree with --out)",
      (y) =>
        y.options(MAIN).example("$0 --rev 2025-06-18 --out src/mcp", "vendor typed code for 2025-06-18 into src/mcp"),
      async (args) => {
        if (!args.rev) {
          const config = findConfig(args.config);
          // Bare `mcp-gen` outside a configured project is someone finding out what it does.
          if (config === undefined && argv.length === 0) {
            parser.showHelp(print);
            return;
          }
          if (config === undefined) {
            throw new InputError(
              `missing --rev (known revisions: \`mcp-gen revisions\`), and no ${CONFIG_FILE} here; see --help`,
            );
          }
          if (args.out !== undefined || args.schema !== undefined)
            throw new InputError("--out and --schema need --rev");
          const { runConfig } = await import("./run-config.js");
          process.exitCode = await runConfig(config, { check: args.check, force: args.force }, log, print);
          return;
        }
        if (args.config !== undefined) throw new InputError("--config and --rev: give one of them");
        const options = { specDir: args["spec-dir"], schemaFile: args.schema };
        if (args.out !== undefined) {
          const { vendor } = await import("./vendor.js");
          process.exitCode = await vendor(
            args.rev,
            args.out,
            { ...options, force: args.force, check: args.check },
            log,
            print,
          );
          return;
        }
        if (args.check || args.force) throw new InputError(`--${args.check ? "check" : "force"} needs --out DIR`);
        if (INSTALLED) {
          throw new InputError(
            `--rev ${args.rev} without --out would rewrite mcp-gen's own package (${PACKAGE_ROOT}): give --out DIR, e.g. --out src/mcp`,
          );
        }
        const { generateRepository } = await generating(() => import("./generate.js"));
        process.exitCode = await generateRepository([args.rev], options, log, "mcp-gen --rev R without --out");
      },
    )
    .command({
      command: "generate",
      describe: maintainer("Regenerate spec/<rev>/model.json and generated/<rev>/ for all (or the given) revisions"),
      builder: (y) => y.options(GENERATE),
      handler: async (args) => {
        const revisions = revList(args.rev);
        if (args.schema && revisions?.length !== 1) throw new InputError("--schema needs exactly one --rev");
        const { generateRepository } = await generating(() => import("./generate.js"));
        process.exitCode = await generateRepository(
          revisions,
          { specDir: args["spec-dir"], schemaFile: args.schema },
          log,
        );
      },
    })
    .command({
      command: "check",
      describe: maintainer("Regenerate in memory; exit 1 with a unified diff if models or generated files drifted"),
      builder: (y) => y.options(specDir),
      handler: async (args) => {
        refuseInstalled("mcp-gen check");
        const { check } = await generating(() => import("./check.js"));
        process.exitCode = await check({ specDir: args["spec-dir"] }, log, print);
      },
    })
    .command({
      command: "sync",
      describe: maintainer(
        "Copy (--from) or download each revision's pinned schema.ts, schema.json and examples/ into the cache, checking their sha256",
      ),
      builder: (y) =>
        y
          .options(SYNC)
          .example("$0 sync --from ../shared/mcp-spec", "fill the cache from a local copy of the spec sources")
          .example("$0 sync --rev draft --commit <sha>", "pin the draft revision to a newer upstream commit"),
      handler: async (args) => {
        refuseInstalled("mcp-gen sync");
        process.exitCode = await sync({ revisions: revList(args.rev), from: args.from, commit: args.commit }, log);
      },
    })
    .command(
      "diff",
      "Compare two revisions: every change, and what breaks for clients and servers built on the old one",
      (y) =>
        y
          .options(DIFF)
          .example("$0 diff --from 2025-06-18 --to 2025-11-25", "upgrade guide in Markdown")
          .example("$0 diff --from 2025-06-18 --to 2025-11-25 --fail-on client", "CI gate for a client"),
      async (args) => {
        const { diffCommand } = await import("../diff/command/command.js");
        process.exitCode = diffCommand(
          {
            from: args.from,
            to: args.to,
            format: args.format,
            out: args.out,
            failOn: args["fail-on"],
            ignore: args.ignore,
            force: args.force,
          },
          log,
          write,
        );
      },
    )
    .command(
      "tools",
      "Typed, validated wrappers for one server's tools and prompts; --check reports what changed on the server",
      (y) =>
        y
          .options(TOOLS)
          .example(
            '$0 tools --stdio "npx -y @modelcontextprotocol/server-everything" --out src/everything.ts',
            "typed wrappers",
          )
          .example(
            "$0 tools --from weather.json --out src/weather.ts --runtime ./mcp/runtime",
            "importing the runtime of a tree vendored into src/mcp",
          )
          .example("$0 tools --from everything.json --check src/everything.ts", "CI gate on drift (exit 1)"),
      async (args) => {
        const { toolsCommand } = await import("../tools/command.js");
        process.exitCode = await toolsCommand(
          {
            ...(args.stdio !== undefined ? { stdio: args.stdio } : {}),
            ...(args.url !== undefined ? { url: args.url } : {}),
            ...(args.header !== undefined ? { headers: args.header } : {}),
            ...(args.auth !== undefined ? { auth: args.auth } : {}),
            ...(args.from !== undefined ? { from: args.from } : {}),
            ...(args.rev !== undefined ? { rev: args.rev } : {}),
            ...(args.out !== undefined ? { out: args.out } : {}),
            ...(args.runtime !== undefined ? { runtime: args.runtime } : {}),
            ...(args.save !== undefined ? { save: args.save } : {}),
            ...(args.check !== undefined ? { check: args.check } : {}),
            ...(args.ignore !== undefined ? { ignore: args.ignore } : {}),
            format: args.format,
            timeoutMs: args.timeout * 1000,
            force: args.force,
          },
          log,
          write,
        );
      },
    )
    .command(
      "revisions",
      "List the pinned revisions and where their sources are found",
      (y) => y.options(specDir),
      (args) => {
        process.exitCode = listRevisions(args["spec-dir"], print);
      },
    )
    .strict()
    .help()
    .alias("h", "help")
    .version(GENERATOR_VERSION)
    .alias("v", "version")
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      // yargs reports its own usage errors (a missing option value, say) as a YError.
      if (error && error.name !== "YError") throw error;
      throw new InputError(`${withSuggestions(message, argv)} (see --help)`);
    });
  return parser;
}

/**
 * A usage error, with "did you mean" for each option the command does not know (also when yargs
 * complains first about something else, such as the required option the typo was meant to be) and
 * each unknown word that is close to a command.
 */
function withSuggestions(message: string, argv: string[]): string {
  const command = argv.find((a) => !a.startsWith("-") && a in COMMANDS) ?? "";
  const options = [...Object.keys(COMMANDS[command] ?? {}), ...Object.keys(GLOBAL), "q", "help", "h", "version", "v"];
  const known = (name: string) =>
    options.includes(name.replace(/^no-/, "").replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  const typed = argv.filter((a) => /^--?[^-\d]/.test(a)).map((a) => a.replace(/^--?/, "").split("=")[0] as string);
  const hints: [string, string][] = typed
    .filter((name) => !known(name))
    .flatMap((name) => {
      const match = closest(name, options);
      return match === undefined ? [] : [[flag(match), flag(name)] as [string, string]];
    });
  const unknownWords = /^Unknown arguments?: (.+)$/.exec(message)?.[1]?.split(", ") ?? [];
  const commands = Object.keys(COMMANDS).filter((c) => c !== "" && !(INSTALLED && MAINTAINER_COMMANDS.includes(c)));
  for (const word of unknownWords.filter((w) => !typed.includes(w))) {
    const match = closest(word, commands);
    if (match !== undefined) hints.push([match, word]);
  }
  if (hints.length === 0) return message;
  if (hints.length === 1) return `${message}; did you mean ${hints[0]?.[0]}?`;
  return `${message}; did you mean ${hints.map(([match, typo]) => `${match} (for ${typo})`).join(", ")}?`;
}

/** An option as typed: -q for the one-letter aliases, --quiet for the names. */
function flag(name: string): string {
  return `${name.length === 1 ? "-" : "--"}${name}`;
}

async function main(): Promise<void> {
  try {
    await cli(hideBin(process.argv)).parseAsync();
  } catch (failure) {
    if (failure instanceof InputError) {
      error(`mcp-gen: error: ${failure.message}`);
      process.exitCode = failure.exitCode;
      return;
    }
    if (isFileSystemError(failure)) {
      error(`mcp-gen: error: ${fileSystemMessage(failure)}`);
      process.exitCode = EXIT.input;
      return;
    }
    error(`mcp-gen: internal error (please report): ${(failure as Error).stack ?? String(failure)}`);
    process.exitCode = EXIT.internal;
  }
}

await main();
