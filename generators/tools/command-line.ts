// `--stdio "<command line>"` → command and arguments, as a POSIX shell splits words: blanks
// separate, single quotes keep everything, double quotes keep all but `\"` and `\\`, a backslash
// outside quotes keeps the next character. No expansion of any kind: the server is spawned
// without a shell.
import { InputError } from "../errors.js";

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) word += line.charAt(++i);
      else word += c;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line.charAt(++i);
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote) throw new InputError(`--stdio: unclosed ${quote} in ${JSON.stringify(line)}`);
  if (word !== undefined) words.push(word);
  if (words.length === 0) throw new InputError("--stdio: empty command line");
  return words;
}
