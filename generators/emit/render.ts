// Handlebars lays out a file from its view model (templates.ts); prettier formats the result.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChunkedSource } from "./artifact.js";
import { formatCache } from "./format-cache.js";
import { openFormatPool, PRETTIER, type FormatPool } from "./format-pool.js";
import { layoutChunk } from "./validate/layout.js";

export { renderTemplate } from "./templates.js";

let prettier: typeof import("prettier") | undefined;
let pool: FormatPool | undefined;

/**
 * Runs `work` with prettier on worker threads (formatWorkerCount(): one on a machine with two
 * cores or more): the repository build, whose formatting then overlaps the next revision's parse.
 * Each worker loads prettier once, so this pays only for many files.
 */
export async function withFormatWorkers<T>(work: () => Promise<T>): Promise<T> {
  if (pool) return work();
  pool = openFormatPool();
  if (!pool) return work();
  try {
    return await work();
  } finally {
    const closing = pool;
    pool = undefined;
    await closing.close();
  }
}

export async function formatTypeScript(source: string, file: string): Promise<string> {
  const options = { ...PRETTIER, filepath: file };
  // Without the cache, the workers' prettier is the only one needed.
  if (pool && formatCache() === "off") return pool.format(source, options);
  return cachedFormat(["prettier", JSON.stringify(options), source], async () => {
    if (pool) return pool.format(source, options);
    // Loaded on first use: commands that format nothing (diff --format json), and runs the cache
    // serves whole, do not pay for it.
    prettier ??= await import("prettier");
    return prettier.format(source, options);
  });
}

/** Prettier's version, read without loading prettier (a cache key part). */
const prettierVersion = (() => {
  let version: string | undefined;
  return () =>
    (version ??= (
      JSON.parse(readFileSync(createRequire(import.meta.url).resolve("prettier/package.json"), "utf8")) as {
        version: string;
      }
    ).version);
})();

/**
 * `format()`'s result from the cache (formatCache()) when it holds one for `parts` (with prettier's
 * version: formatted text is prettier's output, whoever computed it), else computed and kept.
 * Prettier is deterministic, and on large files it is most of a run's time.
 */
async function cachedFormat(parts: readonly string[], format: () => Promise<string>): Promise<string> {
  const cache = formatCache();
  if (cache === "off") return format();
  const hash = createHash("sha256").update(prettierVersion());
  for (const part of parts) hash.update("\0").update(part);
  const key = hash.digest("hex");
  const cached = join(cache, key.slice(0, 2), key);
  try {
    return readFileSync(cached, "utf8");
  } catch {
    // Not cached yet.
  }
  const formatted = await format();
  try {
    mkdirSync(join(cache, key.slice(0, 2)), { recursive: true });
    const temp = `${cached}.${process.pid}.tmp`;
    writeFileSync(temp, formatted);
    renameSync(temp, cached);
  } catch {
    // A read-only install still works, only slower.
  }
  return formatted;
}

/** The line of a chunked file's frame where its chunks go. */
export const CHUNKS = "// @@chunks@@";
const CHUNK_BREAK = "// @@chunk-break@@";
/** Unformatted chunk → formatted, for this process (whatever the disk cache says). */
const formattedChunks = new Map<string, Promise<string>>();
/** Fresh chunks go to prettier in batches of about this many characters, so that workers share a file. */
const BATCH_CHARS = 64 * 1024;

/**
 * Formats a chunked file: the frame, and each distinct chunk once per process. Prettier on the
 * validator functions was most of a cold `generate`, so a chunk is first laid out by layoutChunk
 * (validate/layout.ts: prettier's layout for the subset of TypeScript the validator printer
 * writes; test/validators-layout.test.ts checks it against prettier on every revision); the few
 * it does not model go to prettier, a file's in batches of prettier calls. Prettier formats
 * top-level statements independently of each other, so this gives the bytes formatting the whole
 * file would (`mcp-gen check` compares them with the checked-in files).
 */
export function formatChunked(source: ChunkedSource, file: string): Promise<string> {
  // The whole file at once first: laying out its chunks takes a few hundred ms even when prettier's
  // part is all cached.
  return cachedFormat(
    ["chunked", JSON.stringify({ ...PRETTIER, filepath: file }), source.frame, ...source.chunks],
    () => formatChunks(source, file),
  );
}

async function formatChunks({ frame, chunks }: ChunkedSource, file: string): Promise<string> {
  // The frame's pieces go to the format workers before the chunks are laid out here.
  const framed = formatModule(frame, file);
  const fresh: string[] = [];
  for (const chunk of new Set(chunks)) {
    if (formattedChunks.has(chunk)) continue;
    const laidOut = layoutChunk(chunk);
    if (laidOut === undefined) fresh.push(chunk);
    else formattedChunks.set(chunk, Promise.resolve(laidOut));
  }
  formatBatches(fresh, file);
  const [formatted, ...body] = await Promise.all([
    framed,
    ...chunks.map((c) => formattedChunks.get(c) as Promise<string>),
  ]);
  const at = formatted.indexOf(`${CHUNKS}\n`);
  if (at < 0) throw new Error(`${file}: no ${CHUNKS} line in the formatted frame`);
  return formatted.slice(0, at) + body.join("\n") + formatted.slice(at + CHUNKS.length + 1);
}

/** Sends fresh chunks to prettier, a batch of them a call, and records their formatted promises. */
function formatBatches(fresh: readonly string[], file: string): void {
  for (let start = 0; start < fresh.length;) {
    let end = start;
    let size = 0;
    while (end < fresh.length && (end === start || size < BATCH_CHARS)) size += (fresh[end++] as string).length;
    const batch = fresh.slice(start, end);
    const pieces = formatTypeScript(batch.join(`\n\n${CHUNK_BREAK}\n\n`), file).then((formatted) => {
      const split = formatted.split(new RegExp(`\\n*${CHUNK_BREAK}\\n*`));
      if (split.length !== batch.length) throw new Error(`${file}: formatting merged or split its chunks`);
      return split.map((piece) => `${piece.replace(/\n+$/, "")}\n`);
    });
    batch.forEach((chunk, i) =>
      formattedChunks.set(
        chunk,
        pieces.then((p) => p[i] as string),
      ),
    );
    start = end;
  }
}

const DOC_COMMENT = /^\/\*\*(?:(?: [^\n]*\S)? \*\/|(?:[^\n]*\S)?(?:\n \*(?: [^\n]*\S)?)*\n \*\/)\n$/;

/** What starts a top-level statement (or the comment before one) in the emitted modules. */
const STATEMENT =
  /^(export |import |function |async function |const |let |type |interface |class |declare |\/\*\*|\/\/ )/;

/**
 * An emitted module cut into top-level pieces: before a line that starts a statement or a comment
 * at column 0, after a blank line or after a block comment, where the previous line ends a
 * statement or a comment. `blank`: a blank line comes before the piece (prettier keeps one).
 */
export function splitModule(source: string): { text: string; blank: boolean }[] {
  const lines = source.split("\n");
  const pieces: { text: string; blank: boolean }[] = [];
  let current: string[] = [];
  let blank = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    let next = i;
    while (next < lines.length && (lines[next] as string).trim() === "") next++;
    const previous = current[current.length - 1];
    const cut =
      previous !== undefined &&
      next < lines.length &&
      STATEMENT.test(lines[next] as string) &&
      ((next > i && /^(\S.*)?[;}]$|^\S.*\*\/$/.test(previous)) ||
        (next === i && /^ ?\*\/$|^\/\*\*.*\*\/$/.test(previous)));
    if (cut) {
      pieces.push({ text: current.join("\n") + "\n", blank });
      current = [];
      blank = next > i;
      i = next - 1;
      continue;
    }
    if (current.length === 0 && line.trim() === "") continue;
    current.push(line);
  }
  if (current.length > 0) pieces.push({ text: current.join("\n") + "\n", blank });
  return pieces;
}

/**
 * Formats a module as its top-level pieces (splitModule), each distinct piece once per process:
 * the six revisions share much of their code, and prettier was most of a cold `generate`. Prettier
 * formats top-level statements independently and keeps one blank line where the source has one,
 * so this gives the bytes formatting the whole module would (test/generate-format.test.ts). A
 * piece prettier cannot parse on its own means the cut was wrong: the module is then formatted whole.
 */
export async function formatModule(source: string, file: string): Promise<string> {
  const pieces = splitModule(source);
  if (pieces.length < 2) return formatTypeScript(source, file);
  const fresh: string[] = [];
  for (const { text } of pieces) {
    if (formattedChunks.has(text)) continue;
    // A doc comment of its own, already in prettier's layout (every line after the first " *", no
    // trailing spaces): prettier prints it as it is.
    if (DOC_COMMENT.test(text)) formattedChunks.set(text, Promise.resolve(text));
    else fresh.push(text);
  }
  formatBatches([...new Set(fresh)], file);
  try {
    const formatted = await Promise.all(pieces.map((p) => formattedChunks.get(p.text) as Promise<string>));
    return formatted.map((text, i) => (i > 0 && pieces[i]?.blank ? "\n" : "") + text).join("");
  } catch {
    moduleFallbacks.count++;
    return formatTypeScript(source, file);
  }
}

/** How many modules formatModule had to format whole (a piece that did not parse alone): for tests. */
export const moduleFallbacks = { count: 0 };
