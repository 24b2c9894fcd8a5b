// The line of a spawned server's stderr that mcp-gen's one-line errors quote: its last line, or,
// when Node died of an uncaught exception, the error line of Node's report, whose last line (the
// version banner) says nothing about the crash. Node's report is: a source excerpt (file:line, the
// line, a caret under it), the error and its stack, then the banner. Anything else (a Python
// traceback, a server's own message) ends with its most telling line.

/** The last line of Node's report of an uncaught exception: "Node.js v20.20.2". */
const NODE_BANNER = /^Node\.js v\d+\.\d+\.\d+$/;
/** The caret under the excerpt; the error follows it (after a blank line, unless a value was thrown). */
const CARET = /^\^+$/;
const STACK_FRAME = /^at /;

/** `stderr`: the end of what the server wrote; its lines are quoted trimmed. */
export function lastWords(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim());
  const end = lines.findLastIndex((line) => line !== "");
  const last = lines[end] ?? "";
  if (!NODE_BANNER.test(last)) return last;
  const report = lines.slice(0, end);
  const caret = report.findLastIndex((line) => CARET.test(line));
  // Without an excerpt, the error (with its stack) is the block of lines before the banner.
  const blockEnd = report.findLastIndex((line) => line !== "");
  const start = caret >= 0 ? caret + 1 : report.lastIndexOf("", blockEnd) + 1;
  return report.slice(start).find((line) => line !== "" && !STACK_FRAME.test(line)) ?? last;
}
