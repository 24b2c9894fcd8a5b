#!/usr/bin/env node
// The mcp-gen command line. Exit codes: see EXIT in ../errors.ts.
import yargs, { type Argv } from "yargs";
import { hideBin } from "yargs/helpers";
import { EXIT, InputError } from "../errors.js";
import { listRevisions } from "./revisions.js";
import { sync } from "./sync.js";

// The generating commands load the parser (ts-morph), which takes most of a second: they are
// imported when run, so commands that read models only (`diff`) start fast.
const generating = () => import("./generate.js");

const log = (line: string) => process.stderr.write(line + "\n");
const print = (line: string) => process.stdout.write(line + "\n");

const specDirOption = {
  "spec-dir": {
    type: "string",
    describe: "Directory with <revision>/schema.ts (default: $MCP_GEN_SPEC_DIR, then the sync cache)",
  },
} as const;

function revList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(",")).filter((v) => v !== "");
}

function cli(argv: string[]): Argv {
  return yargs(argv)
    .scriptName("mcp-gen")
    .usage("$0 --rev <revision> [--out DIR]\n\nGenerate typed Model Context Protocol code for one revision.")
    .command(
      "$0",
      "Generate one revision (into generated/<rev>/, or a self-contained tree with --out)",
      (y) =>
        y
          .options(specDirOption)
          .option("rev", { type: "string", describe: "Protocol revision, e.g. 2025-06-18 (see `mcp-gen revisions`)" })
          .option("out", {
            type: "string",
            describe: "Write the revision's files into DIR instead of generated/<rev>/",
          })
          .option("schema", {
            type: "string",
            describe: "Use this schema.ts for --rev instead of the pinned one (not hash-checked)",
          })
          .example("$0 --rev 2025-06-18 --out src/mcp", "vendor typed code for 2025-06-18 into src/mcp"),
      async (args) => {
        if (!args.rev) throw new InputError("missing --rev (known revisions: `mcp-gen revisions`); see --help");
        const options = { specDir: args["spec-dir"], schemaFile: args.schema };
        const { generateOut, generateRepository } = await generating();
        process.exitCode = args.out
          ? await generateOut(args.rev, args.out, options, log)
          : await generateRepository([args.rev], options, log);
      },
    )
    .command(
      "generate",
      "Regenerate spec/<rev>/model.json and generated/<rev>/ for all (or the given) revisions",
      (y) =>
        y
          .options(specDirOption)
          .option("rev", { type: "string", array: true, describe: "Only these revisions (repeat or comma-separate)" })
          .option("schema", { type: "string", describe: "With one --rev: use this schema.ts (not hash-checked)" }),
      async (args) => {
        const revisions = revList(args.rev);
        if (args.schema && revisions?.length !== 1) throw new InputError("--schema needs exactly one --rev");
        const { generateRepository } = await generating();
        process.exitCode = await generateRepository(
          revisions,
          { specDir: args["spec-dir"], schemaFile: args.schema },
          log,
        );
      },
    )
    .command(
      "check",
      "Regenerate in memory; exit 1 with a unified diff if models or generated files drifted",
      (y) => y.options(specDirOption),
      async (args) => {
        const { check } = await import("./check.js");
        process.exitCode = await check({ specDir: args["spec-dir"] }, log, print);
      },
    )
    .command(
      "sync",
      "Copy (--from) or download each pinned schema.ts into the cache, checking its sha256",
      (y) =>
        y
          .option("rev", { type: "string", array: true, describe: "Only these revisions (default: all)" })
          .option("from", { type: "string", describe: "Copy from DIR/<revision>/schema.ts instead of downloading" })
          .option("commit", { type: "string", describe: "Pin one --rev to this upstream commit and record its sha256" })
          .example("$0 sync --from ../shared/mcp-spec", "fill the cache from a local copy of the spec sources")
          .example("$0 sync --rev draft --commit <sha>", "pin the draft revision to a newer upstream commit"),
      async (args) => {
        process.exitCode = await sync({ revisions: revList(args.rev), from: args.from, commit: args.commit }, log);
      },
    )
    .command(
      "diff",
      "Compare two revisions: every change, and what breaks for clients and servers built on the old one",
      (y) =>
        y
          .option("from", { type: "string", demandOption: true, describe: "The revision you are on" })
          .option("to", { type: "string", demandOption: true, describe: "The revision you move to" })
          .option("format", {
            choices: ["md", "json", "html"] as const,
            default: "md" as const,
            describe: "Report format",
          })
          .option("out", { type: "string", describe: "Write the report to FILE instead of stdout" })
          .option("fail-on", {
            choices: ["breaking", "client", "server"] as const,
            describe: "Exit 1 if there are breaking changes (for anyone, or affecting clients or servers)",
          })
          .example("$0 diff --from 2025-06-18 --to 2025-11-25", "upgrade guide in Markdown")
          .example("$0 diff --from 2025-06-18 --to 2025-11-25 --fail-on client", "CI gate for a client"),
      async (args) => {
        const { diffCommand } = await import("../diff/command.js");
        process.exitCode = diffCommand(
          { from: args.from, to: args.to, format: args.format, out: args.out, failOn: args["fail-on"] },
          log,
          (text) => process.stdout.write(text),
        );
      },
    )
    .command(
      "tools",
      "Typed, validated wrappers for one server's tools and prompts; --check reports what changed on the server",
      (y) =>
        y
          .option("stdio", { type: "string", describe: "Spawn the server with this command line and list over stdio" })
          .option("url", {
            type: "string",
            describe: "List from a server at this URL (Streamable HTTP, or the HTTP+SSE transport of 2024-11-05)",
          })
          .option("header", {
            type: "string",
            array: true,
            describe: 'With --url: send this HTTP header, "Name: value" (repeatable)',
          })
          .option("auth", {
            type: "string",
            describe:
              "With --url: authorize with OAuth (a browser opens once; tokens kept in ~/.config/mcp-gen/credentials.json). " +
              "Optional value: a host config's auth settings as JSON or @FILE (docs/authorization.md)",
          })
          .option("from", {
            type: "string",
            describe: "Read a saved listing (--save) or a tools/list result from FILE",
          })
          .option("rev", { type: "string", describe: "Speak this revision (default: the newest the server accepts)" })
          .option("out", { type: "string", describe: "Write the TypeScript module to FILE.ts" })
          .option("save", { type: "string", describe: "Also write the listing used to FILE.json (for --from)" })
          .option("check", {
            type: "string",
            describe: "Compare with the listing FILE.ts was generated from; exit 1 on changes",
          })
          .option("format", {
            choices: ["md", "json"] as const,
            default: "md" as const,
            describe: "--check report format",
          })
          .option("timeout", {
            type: "number",
            default: 30,
            describe: "Seconds to wait for each answer from the server",
          })
          .example(
            '$0 tools --stdio "npx -y @modelcontextprotocol/server-everything" --out src/everything.ts',
            "typed wrappers",
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
            ...(args.save !== undefined ? { save: args.save } : {}),
            ...(args.check !== undefined ? { check: args.check } : {}),
            format: args.format,
            timeoutMs: args.timeout * 1000,
          },
          log,
          (text) => process.stdout.write(text),
        );
      },
    )
    .command(
      "revisions",
      "List the pinned revisions and where their sources are found",
      (y) => y.options(specDirOption),
      (args) => {
        process.exitCode = listRevisions(args["spec-dir"], print);
      },
    )
    .strict()
    .help()
    .alias("h", "help")
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      if (error) throw error;
      throw new InputError(`${message} (see --help)`);
    });
}

async function main(): Promise<void> {
  try {
    await cli(hideBin(process.argv)).parseAsync();
  } catch (error) {
    if (error instanceof InputError) {
      log(`mcp-gen: error: ${error.message}`);
      process.exitCode = error.exitCode;
      return;
    }
    log(`mcp-gen: internal error (please report): ${(error as Error).stack ?? String(error)}`);
    process.exitCode = EXIT.internal;
  }
}

await main();
