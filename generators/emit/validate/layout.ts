// The validator functions in prettier's layout, without prettier. Prettier on the validator chunks
// was most of a cold `generate` (about two thirds of the text it formats). The chunks come from the
// CheckPrinter and the validator-entry template, one statement a line, in a small subset of
// TypeScript; this parses that subset and prints it with prettier's rules for it (its layout
// algorithm over the same document shapes: groups, indents, soft lines). Anything outside the
// subset, or any statement that would need a break this does not model, makes `layoutChunk` return
// undefined and the chunk goes to prettier. test/validators-layout.test.ts formats every chunk of
// every revision with prettier and compares, so the output stays byte-identical to prettier's.

const WIDTH = 100;

class Unsupported extends Error {}
const unsupported = (what: string): never => {
  throw new Unsupported(what);
};

// ---- documents (prettier's, reduced to what is used here) ----

type Doc = string | Doc[] | Group | Indent | Line | IfBreak;
interface Group {
  kind: "group";
  contents: Doc;
  /** Prettier would pick among several layouts here (a hugged last argument): only its flat one is modelled. */
  flatOnly?: boolean;
}
interface Indent {
  kind: "indent";
  contents: Doc;
}
interface Line {
  kind: "line";
  soft: boolean;
}
interface IfBreak {
  kind: "ifBreak";
  broken: Doc;
  flat: Doc;
}

const group = (contents: Doc, flatOnly = false): Group => ({ kind: "group", contents, flatOnly });
const indent = (contents: Doc): Indent => ({ kind: "indent", contents });
const line: Line = { kind: "line", soft: false };
const softline: Line = { kind: "line", soft: true };
const ifBreak = (broken: Doc, flat: Doc = ""): IfBreak => ({ kind: "ifBreak", broken, flat });

type Mode = 0 | 1; // 0 flat, 1 break
interface Cmd {
  ind: number;
  mode: Mode;
  doc: Doc;
}

/** Whether `next` fits in `width` columns, up to the first line break of the rest (prettier's `fits`). */
function fits(next: Cmd, rest: Cmd[], width: number): boolean {
  let restIdx = rest.length;
  const cmds: { mode: Mode; doc: Doc }[] = [next];
  while (width >= 0) {
    if (cmds.length === 0) {
      if (restIdx === 0) return true;
      cmds.push(rest[--restIdx] as Cmd);
      continue;
    }
    const { mode, doc } = cmds.pop() as { mode: Mode; doc: Doc };
    if (typeof doc === "string") width -= doc.length;
    else if (Array.isArray(doc)) for (let i = doc.length - 1; i >= 0; i--) cmds.push({ mode, doc: doc[i] as Doc });
    else if (doc.kind === "indent" || doc.kind === "group") cmds.push({ mode, doc: doc.contents });
    else if (doc.kind === "ifBreak") cmds.push({ mode, doc: mode === 1 ? doc.broken : doc.flat });
    else if (mode === 1) return true;
    else if (!doc.soft) width -= 1;
  }
  return false;
}

/** Prettier's printDocToString for these documents, starting at indentation `ind` (in spaces). */
function print(doc: Doc, ind: number): string {
  let out = "";
  let pos = ind;
  const cmds: Cmd[] = [{ ind, mode: 1, doc }];
  while (cmds.length > 0) {
    const { ind, mode, doc } = cmds.pop() as Cmd;
    if (typeof doc === "string") {
      out += doc;
      pos += doc.length;
    } else if (Array.isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) cmds.push({ ind, mode, doc: doc[i] as Doc });
    } else if (doc.kind === "indent") {
      cmds.push({ ind: ind + 2, mode, doc: doc.contents });
    } else if (doc.kind === "group") {
      if (mode === 0) cmds.push({ ind, mode: 0, doc: doc.contents });
      else {
        const next: Cmd = { ind, mode: 0, doc: doc.contents };
        if (fits(next, cmds, WIDTH - pos)) cmds.push(next);
        else if (doc.flatOnly) unsupported("a layout prettier chooses among several");
        else cmds.push({ ind, mode: 1, doc: doc.contents });
      }
    } else if (doc.kind === "ifBreak") {
      cmds.push({ ind, mode, doc: mode === 1 ? doc.broken : doc.flat });
    } else if (mode === 0) {
      if (!doc.soft) {
        out += " ";
        pos += 1;
      }
    } else {
      // Prettier trims the spaces a line ends in; only a `" "` from a flat line can end one here.
      let end = out.length;
      while (end > 0 && out.charCodeAt(end - 1) === 32) end--;
      if (end < out.length) out = out.slice(0, end);
      out += "\n" + " ".repeat(ind);
      pos = ind;
    }
  }
  return out;
}

// ---- expressions ----

type Expr =
  | { t: "id"; name: string }
  | { t: "lit"; text: string }
  | { t: "bin"; op: string; l: Expr; r: Expr }
  | { t: "un"; op: string; arg: Expr }
  | { t: "call"; callee: Expr; args: Expr[]; isNew: boolean }
  | { t: "mem"; obj: Expr; name: string }
  | { t: "idx"; obj: Expr; index: Expr }
  | { t: "as"; expr: Expr; type: string }
  | { t: "cond"; test: Expr; yes: Expr; no: Expr }
  | { t: "arrow"; params: string; body: Expr }
  | { t: "arr"; items: Expr[] }
  | { t: "obj"; props: [string, Expr][] };

const PRECEDENCE: Record<string, number> = {};
[
  ["??"],
  ["||"],
  ["&&"],
  ["|"],
  ["^"],
  ["&"],
  ["==", "===", "!=", "!=="],
  ["<", ">", "<=", ">=", "in", "instanceof"],
  [">>", "<<", ">>>"],
  ["+", "-"],
  ["*", "/", "%"],
  ["**"],
].forEach((ops, i) => ops.forEach((op) => (PRECEDENCE[op] = i)));
const LOGICAL = new Set(["??", "||", "&&"]);
const EQUALITY = new Set(["==", "===", "!=", "!=="]);

/** Prettier's shouldFlatten: `a op1 b op2 c` printed as one chain. */
function shouldFlatten(parentOp: string, op: string): boolean {
  if (PRECEDENCE[op] !== PRECEDENCE[parentOp]) return false;
  if (parentOp === "**") return false;
  if (EQUALITY.has(parentOp) && EQUALITY.has(op)) return false;
  if ((op === "%" && (parentOp === "*" || parentOp === "/")) || (parentOp === "%" && (op === "*" || op === "/")))
    return false;
  if (op !== parentOp && (op === "*" || op === "/") && (parentOp === "*" || parentOp === "/")) return false;
  if ([">>", "<<", ">>>"].includes(op) && [">>", "<<", ">>>"].includes(parentOp)) return false;
  return true;
}

const TOKEN =
  /\s*(?:("(?:[^"\\\n]|\\.)*")|(\d+(?:\.\d+)?)|([A-Za-z_$][\w$]*)|(===|!==|==|!=|<=|>=|&&|\|\||\?\?|=>|\+\+|[-+*%<>!()[\]{},.?:;=]))/y;

class Parser {
  private readonly tokens: string[] = [];
  private i = 0;

  constructor(source: string) {
    const text = source.trimEnd();
    let at = 0;
    while (at < text.length) {
      TOKEN.lastIndex = at;
      const m = TOKEN.exec(text);
      if (!m) unsupported(`token at ${text.slice(at, at + 20)}`);
      const match = m as RegExpExecArray;
      this.tokens.push((match[1] ?? match[2] ?? match[3] ?? match[4]) as string);
      at = TOKEN.lastIndex;
    }
  }

  get done(): boolean {
    return this.i >= this.tokens.length;
  }
  peek(k = 0): string | undefined {
    return this.tokens[this.i + k];
  }
  next(): string {
    const t = this.tokens[this.i++];
    if (t === undefined) unsupported("unexpected end");
    return t as string;
  }
  expect(t: string): void {
    if (this.next() !== t) unsupported(`expected ${t}`);
  }
  end(): void {
    if (!this.done) unsupported(`trailing ${this.peek()}`);
  }

  expression(): Expr {
    const test = this.binary(0);
    if (this.peek() !== "?") return test;
    this.next();
    const yes = this.expression();
    this.expect(":");
    return { t: "cond", test, yes, no: this.expression() };
  }

  private binary(min: number): Expr {
    let left = this.unary();
    for (;;) {
      const op = this.peek();
      if (op === "as") {
        this.next();
        left = { t: "as", expr: left, type: this.type() };
        continue;
      }
      const prec = op === undefined ? undefined : PRECEDENCE[op];
      if (prec === undefined || prec < min || op === "**") return left;
      this.next();
      left = { t: "bin", op: op as string, l: left, r: this.binary(prec + 1) };
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t === "!" || t === "-" || t === "typeof") {
      this.next();
      return { t: "un", op: t === "typeof" ? "typeof " : t, arg: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private primary(): Expr {
    const t = this.next();
    if (t === "(") {
      // An arrow function's parameters, or parentheses.
      if (/^[A-Za-z_$]/.test(this.peek() ?? "") && this.peek(1) === ")" && this.peek(2) === "=>") {
        const params = this.next();
        this.expect(")");
        this.expect("=>");
        return { t: "arrow", params, body: this.expression() };
      }
      const e = this.expression();
      this.expect(")");
      return e;
    }
    if (t === "[") {
      const items: Expr[] = [];
      while (this.peek() !== "]") {
        items.push(this.expression());
        if (this.peek() === ",") this.next();
      }
      this.next();
      return { t: "arr", items };
    }
    if (t === "{") {
      const props: [string, Expr][] = [];
      while (this.peek() !== "}") {
        const key = this.next();
        if (!/^[A-Za-z_$][\w$]*$/.test(key)) unsupported("object key");
        this.expect(":");
        props.push([key, this.expression()]);
        if (this.peek() === ",") this.next();
      }
      this.next();
      return { t: "obj", props };
    }
    if (t === "new") {
      const callee: Expr = { t: "id", name: this.next() };
      this.expect("(");
      return { t: "call", callee, args: this.args(), isNew: true };
    }
    if (t.startsWith('"')) return { t: "lit", text: stringText(t) };
    if (/^\d/.test(t)) {
      if (!/^(0|[1-9]\d*)(\.\d*[1-9])?$/.test(t)) unsupported("number literal");
      return { t: "lit", text: t };
    }
    if (/^[A-Za-z_$]/.test(t) && !["as", "function", "return", "const", "let", "if"].includes(t))
      return { t: "id", name: t };
    return unsupported(`token ${t}`);
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const t = this.peek();
      if (t === ".") {
        this.next();
        const name = this.next();
        if (!/^[A-Za-z_$][\w$]*$/.test(name)) unsupported("member name");
        e = { t: "mem", obj: e, name };
      } else if (t === "[") {
        this.next();
        const index = this.expression();
        this.expect("]");
        e = { t: "idx", obj: e, index };
      } else if (t === "(") {
        this.next();
        e = { t: "call", callee: e, args: this.args(), isNew: false };
      } else return e;
    }
  }

  private args(): Expr[] {
    const args: Expr[] = [];
    while (this.peek() !== ")") {
      args.push(this.expression());
      if (this.peek() === ",") this.next();
      else if (this.peek() !== ")") unsupported("argument list");
    }
    this.next();
    return args;
  }

  /** A type after `as`, kept as written (the printer writes types in prettier's spelling). */
  type(): string {
    let depth = 0;
    let text = "";
    for (;;) {
      const t = this.peek();
      if (t === undefined) break;
      if (depth === 0 && [")", "]", ",", ";", "?", ":", "}", "&&", "||", "===", "!=="].includes(t)) break;
      if (t === "<" || t === "[" || t === "(") depth++;
      if (t === ">" || t === "]" || t === ")") depth--;
      this.next();
      text += t === "," ? ", " : t === "readonly" ? "readonly " : t;
    }
    if (!/^[\w$.<>, [\]]+$/.test(text) || text === "") unsupported("type");
    return text;
  }

  /** The rest of the tokens as written, for parts kept verbatim (parameter lists). */
  rest(): string[] {
    const rest = this.tokens.slice(this.i);
    this.i = this.tokens.length;
    return rest;
  }
}

/** A string literal as prettier prints it: double quotes unless that needs more escapes (its makeString). */
function stringText(raw: string): string {
  const content = raw.slice(1, -1);
  const doubles = (content.match(/"/g) ?? []).length;
  const singles = (content.match(/'/g) ?? []).length;
  const quote = doubles > singles ? "'" : '"';
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(/\\(.)|(["'])/gs, (match, escaped: string | undefined, q: string | undefined) => {
    if (escaped === other) return escaped;
    if (q === quote) return "\\" + q;
    if (q) return q;
    return /^[^\n\r"'0-7\\bfnrt-vx\u2028\u2029]$/.test(escaped as string) ? (escaped as string) : "\\" + escaped;
  });
  return quote + body + quote;
}

type Parent = "if" | "return" | "callee" | "unary" | "member" | "declarator" | "binary" | "other";

/** Parentheses prettier keeps (or adds) around `e` as the child of a `parent` expression. */
function needsParens(e: Expr, parent: Expr, key: Key): boolean {
  if (e.t === "bin" || e.t === "as" || e.t === "cond" || e.t === "arrow") {
    if (parent.t === "un") return true;
    if (parent.t === "call") return key === "callee";
    if (parent.t === "mem" || parent.t === "idx") return key === "object";
    if (parent.t === "as") return e.t !== "as";
    if (parent.t === "bin") {
      if (e.t !== "bin") return true;
      const po = parent.op;
      const no = e.op;
      // Mixed logical operators get parentheses even where precedence makes them optional.
      if (LOGICAL.has(po) && LOGICAL.has(no) && po !== no) return true;
      const pp = PRECEDENCE[po] as number;
      const np = PRECEDENCE[no] as number;
      if (pp > np) return true;
      if (key === "right" && pp === np) return true;
      if (pp === np && !shouldFlatten(po, no)) return true;
      if (pp < np && no === "%") return po === "+" || po === "-";
      if (["|", "^", "&", ">>", "<<", ">>>"].includes(po)) return true;
      return false;
    }
    if (parent.t === "cond") return e.t === "arrow";
  }
  if (e.t === "un" && parent.t === "un") return false;
  if (e.t === "lit" && /^\d/.test(e.text) && parent.t === "mem") return true;
  return false;
}

type Key = "left" | "right" | "callee" | "object" | "arg" | "other";

/** `e` as the `key` child of `parent`, in parentheses where prettier prints them. */
function paren(e: Expr, parent: Expr, key: Key): Doc {
  // What prettier's binary printing asks of the parent node.
  const ctx: Parent =
    parent.t === "un"
      ? "unary"
      : parent.t === "call" && key === "callee"
        ? "callee"
        : parent.t === "mem" && key === "object"
          ? "member"
          : parent.t === "bin"
            ? "binary"
            : "other";
  const d = doc(e, ctx, parent);
  return needsParens(e, parent, key) ? ["(", d, ")"] : d;
}

/** Prettier's document for an expression; `ctx` is what prettier's binary printing asks of the parent. */
function doc(e: Expr, ctx: Parent, parent?: Expr): Doc {
  switch (e.t) {
    case "id":
      return e.name;
    case "lit":
      return e.text;
    case "un":
      return [e.op, paren(e.arg, e, "arg")];
    case "as":
      return [paren(e.expr, e, "other"), " as ", e.type];
    case "mem":
      return [paren(e.obj, e, "object"), ".", e.name];
    case "idx":
      return [paren(e.obj, e, "object"), "[", doc(e.index, "other"), "]"];
    case "cond":
      if (e.test.t === "cond" || e.yes.t === "cond" || e.no.t === "cond") unsupported("nested conditional");
      // A return's `test ? a : b` breaks before `?` and `:` (the entry points); elsewhere only flat.
      return group(
        [
          paren(e.test, e, "other"),
          indent([line, "? ", paren(e.yes, e, "other"), line, ": ", paren(e.no, e, "other")]),
        ],
        ctx !== "return" || (e.test.t !== "call" && e.test.t !== "id"),
      );
    case "arrow":
      return group(["(", e.params, ") => ", doc(e.body, "other")], true);
    case "arr":
      return e.items.length === 0 ? "[]" : group(["[", join(e.items.map((i) => doc(i, "other"))), "]"], true);
    case "obj":
      return e.props.length === 0
        ? "{}"
        : group([
            "{",
            indent([line, e.props.flatMap(([k, v], i) => [i === 0 ? "" : [",", line], k, ": ", doc(v, "other")])]),
            ifBreak(","),
            line,
            "}",
          ]);
    case "call":
      return call(e);
    case "bin":
      return binary(e, ctx, parent);
  }
}

const join = (docs: Doc[]): Doc => docs.flatMap((d, i) => (i === 0 ? [d] : [", ", d]));

function call(e: Extract<Expr, { t: "call" }>): Doc {
  let calls = 0;
  for (let c: Expr = e; c.t === "call" || c.t === "mem" || c.t === "idx"; c = c.t === "call" ? c.callee : c.obj) {
    if (c.t === "call") calls++;
  }
  // Longer member chains have layouts of their own (printMemberChain's expanded form).
  if (calls > 2) unsupported("member chain");
  const callee = paren(e.callee, e, "callee");
  const last = e.args[e.args.length - 1];
  const hug = last !== undefined && (last.t === "arrow" || last.t === "obj" || last.t === "arr");
  const args: Doc =
    e.args.length === 0
      ? "()"
      : group(
          [
            "(",
            indent([softline, e.args.flatMap((a, i) => (i === 0 ? [doc(a, "other")] : [",", line, doc(a, "other")]))]),
            ifBreak(","),
            softline,
            ")",
          ],
          hug,
        );
  const d: Doc = [e.isNew ? "new " : "", callee, args];
  return e.callee.t === "mem" ? group(d) : d;
}

/** printBinaryishExpressions: a chain of same-precedence operators as one list of parts. */
function binaryParts(e: Expr & { t: "bin" }, insideParens: boolean, parent: Expr | undefined): Doc[] {
  let parts: Doc[];
  if (e.l.t === "bin" && shouldFlatten(e.op, e.l.op)) parts = binaryParts(e.l, insideParens, e);
  else parts = [group(paren(e.l, e, "left"))];
  const right: Doc = [e.op, line, paren(e.r, e, "right")];
  const logical = LOGICAL.has(e.op);
  const type = (x: Expr | undefined) => (x?.t === "bin" ? (LOGICAL.has(x.op) ? "L" : "B") : x?.t);
  const shouldGroup =
    !(insideParens && logical) && type(parent) !== type(e) && type(e.l) !== type(e) && type(e.r) !== type(e);
  parts.push(" ", shouldGroup ? group(right) : right);
  return parts;
}

function binary(e: Expr & { t: "bin" }, ctx: Parent, parent?: Expr): Doc {
  const inside = ctx === "if";
  const parts = binaryParts(e, inside, parent);
  if (inside) return parts;
  if (ctx === "callee" || ctx === "unary" || ctx === "member") return group([indent([softline, ...parts]), softline]);
  if (ctx === "return" || ctx === "declarator") return group(parts);
  const firstGroup = parts.findIndex((p) => typeof p === "object" && !Array.isArray(p) && p.kind === "group");
  const head = parts.slice(0, firstGroup === -1 ? 1 : firstGroup + 1);
  return group([...head, indent(parts.slice(head.length))]);
}

function expr(text: string): Expr {
  const p = new Parser(text);
  const e = p.expression();
  p.end();
  return e;
}

// ---- statements ----

/** A statement's document without its indentation; `undefined` for block punctuation handled by the caller. */
function statement(s: string): Doc {
  const then = ifThen(s);
  if (then) return group(["if (", test(then[0]), ")", indent([line, simple(then[1])])]);
  const m = /^if \((.*)\) \{$/.exec(s);
  if (m) return [group(["if (", test(m[1] as string), ")"]), " {"];
  return simple(s);
}

/** `if (<test>) <statement>;` as its test and statement: the test ends at the parenthesis that closes `if (`. */
function ifThen(s: string): [string, string] | undefined {
  if (!s.startsWith("if (") || !s.endsWith(";")) return undefined;
  for (let i = s.indexOf(") ", 4); i >= 0; i = s.indexOf(") ", i + 1)) {
    const test = s.slice(4, i);
    if (balanced(test)) return [test, s.slice(i + 2)];
  }
  return undefined;
}

/** An `if` test: in a group of its own, unless it is `!(a || b)` (prettier's hug of a negated chain). */
function test(text: string): Doc {
  const e = expr(text);
  const d = doc(e, "if");
  let arg = e.t === "un" && e.op === "!" ? e.arg : undefined;
  if (arg?.t === "un" && arg.op === "!") arg = arg.arg;
  if (arg?.t === "bin" && LOGICAL.has(arg.op)) return d;
  return group([indent([softline, d]), softline]);
}

/**
 * `export const name: type = value;`, a named export of validators.ts: a member chain breaks after
 * the `=` (prettier's break-after-operator layout), a function type between its parentheses.
 */
function exported(s: string): Doc {
  const m = /^export const ([\w$]+)(?:: \((.*?)\) => ([\w$. ]+))? = (.*);$/.exec(s);
  if (!m) return unsupported("export");
  const value = expr(m[4] as string);
  let chain: Expr = value;
  while (chain.t === "mem") chain = chain.obj;
  if (chain.t !== "id" || value.t !== "mem") unsupported("exported value");
  let left: Doc = `export const ${m[1]}`;
  if (m[2] !== undefined) {
    const params = (m[2] as string).split(", ");
    for (const p of params) if (!/^[\w$]+\??: [\w$.<>[\]]+$/.test(p)) unsupported("parameter");
    left = [
      left,
      ": ",
      group([
        "(",
        indent([softline, params.flatMap((p, i) => (i === 0 ? [p] : [",", line, p]))]),
        ifBreak(","),
        softline,
        `) => ${m[3]}`,
      ]),
    ];
  }
  return [group([group(left), " =", group(indent([line, doc(value, "other")]))]), ";"];
}

function simple(s: string): Doc {
  let m: RegExpExecArray | null;
  if (/^(return (true|false)|continue|break( [\w$]+)?|[\w$]+\+\+);$/.test(s)) return s;
  if ((m = /^return (.*);$/.exec(s))) {
    const e = expr(m[1] as string);
    if (e.t === "bin")
      return ["return ", group([ifBreak("("), indent([softline, doc(e, "return")]), softline, ifBreak(")")]), ";"];
    return ["return ", doc(e, "return"), ";"];
  }
  if ((m = /^(const|let) ([\w$]+)(: [^=]+)? = (.*);$/.exec(s))) {
    // Assignments have layouts of their own: only flat ones here.
    const e = expr(m[4] as string);
    return [group([`${m[1]} ${m[2]}${m[3] ?? ""} = `, doc(e, "declarator")], true), ";"];
  }
  if ((m = /^([\w$]+) \+= (.*);$/.exec(s))) {
    return [group([`${m[1]} += `, doc(expr(m[2] as string), "declarator")], true), ";"];
  }
  if (/^[\w$]+[.(]/.test(s) && s.endsWith(";")) {
    const e = expr(s.slice(0, -1));
    if (e.t !== "call") unsupported("expression statement");
    return [doc(e, "other"), ";"];
  }
  return unsupported(`statement ${s}`);
}

function balanced(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0 && !inString;
}

/** A function header, `function name(params): type {`. */
function header(s: string): Doc {
  const m = /^function ([\w$]+)\((.*)\): ([\w$.<>, []+) \{$/.exec(s);
  if (!m) return unsupported("function header");
  const params = (m[2] as string).split(", ");
  for (const p of params) if (!/^[\w$]+\??: [\w$.<>[\]]+$/.test(p)) unsupported("parameter");
  return [
    `function ${m[1]}`,
    group([
      "(",
      indent([softline, params.flatMap((p, i) => (i === 0 ? [p] : [",", line, p]))]),
      ifBreak(","),
      softline,
      ")",
      `: ${m[3]}`,
    ]),
    " {",
  ];
}

const VERBATIM =
  /^(\/\*\*? .* \*\/|\/\/ .*|export interface [\w$]+ \{|export const [\w$]+(: [\w$.<>]+)? = \{|readonly [\w$]+: [\w$.<>]+;|\};|\}|\} else \{|\{|[\w$]+: \{|default:|try \{|\} catch \{|\} catch \(error\) \{|for \(.*\) \{|for \(const [\w$]+ in [\w$]+\) return false;|switch \(.*\) \{)$/;

/**
 * A chunk of validators.ts (one or more top-level functions, one statement a line) in prettier's
 * layout, or undefined when it uses anything this does not model (prettier then formats it).
 */
export function layoutChunk(chunk: string): string | undefined {
  try {
    return layout(chunk);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function layout(chunk: string): string {
  const out: string[] = [];
  // Open blocks; a switch's cases indent their statements one more level.
  const stack: ("block" | "switch" | "case" | "object")[] = [];
  let m: RegExpExecArray | null;
  let blank = false;
  // A statement the template wrapped (`export const ... =` and its value on the next line) is one line here.
  const lines = chunk.split("\n").map((l) => l.trim());
  for (let i = lines.length - 2; i >= 0; i--) {
    if ((lines[i] as string).endsWith(" =")) lines.splice(i, 2, `${lines[i]} ${lines[i + 1]}`);
  }
  for (const s of lines) {
    if (s === "") {
      blank = out.length > 0;
      continue;
    }
    if (blank) {
      // Prettier keeps one blank line between top-level statements, and the chunks only have them there.
      if (stack.length > 0) unsupported("blank line inside a function");
      out.push("");
      blank = false;
    }
    if (s.startsWith("}")) {
      if (stack[stack.length - 1] === "case") stack.pop();
      if (stack.pop() === undefined) unsupported("unbalanced braces");
    }
    const caseLabel = /^(case (.+)|default):( \{)?$/.exec(s);
    if (caseLabel) {
      if (stack[stack.length - 1] === "case") stack.pop();
      if (stack[stack.length - 1] !== "switch") unsupported("case outside a switch");
    }
    const ind = 2 * stack.length;
    let text: string;
    if (caseLabel) {
      text = caseLabel[2] !== undefined ? `case ${flat(caseLabel[2])}:${caseLabel[3] ?? ""}` : s;
    } else if (s.startsWith("function ")) text = print(header(s), ind);
    else if (/^switch \(/.test(s)) text = `switch (${flat(s.slice(8, -3))}) {`;
    else if (VERBATIM.test(s)) text = s;
    else if (s.startsWith("export const ")) text = print(exported(s), ind);
    else if ((m = /^([\w$]+): (.*),$/.exec(s)) && stack[stack.length - 1] === "object")
      text = print([m[1] as string, ": ", doc(expr(m[2] as string), "other"), ","], ind);
    else text = printStatement(s, ind);
    // A line kept as written that is too long: prettier would break it somewhere this does not model.
    if (
      !text.includes("\n") &&
      ind + text.length > WIDTH &&
      (VERBATIM.test(s) || caseLabel || /^switch \(/.test(s)) &&
      !/^(\/[/*]|readonly )/.test(s)
    ) {
      unsupported("long line");
    }
    out.push(" ".repeat(ind) + text);
    if (caseLabel) stack.push(caseLabel[3] ? "block" : "case");
    else if (s.endsWith("{")) stack.push(/^switch \(/.test(s) ? "switch" : / = \{$/.test(s) ? "object" : "block");
  }
  if (stack.length > 0) unsupported("unbalanced braces");
  return out.join("\n") + "\n";
}

/** Statements printed at an indentation: five in six lines of the validator chunks are repeats. */
const printed = new Map<string, string>();

function printStatement(s: string, ind: number): string {
  const key = `${ind} ${s}`;
  let text = printed.get(key);
  if (text === undefined) {
    text = print(statement(s), ind);
    printed.set(key, text);
  }
  return text;
}

/** An expression that must fit on its line as it is. */
function flat(text: string): string {
  const d = doc(expr(text), "other");
  const printed = print(group(d, true), 0);
  if (printed.includes("\n")) unsupported("broken expression");
  return printed;
}
