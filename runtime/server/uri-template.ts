// RFC 6570 URI templates as resource templates use them: the variables a template names (as
// types, from the template's string literal, and at run time), and matching a URI against the
// template to recover their values. Matching reverses expansion: a simple `{var}` takes
// unreserved and percent-encoded characters only (no `/`), `{+var}` and `{#var}` take anything,
// `{/var}`, `{.var}` and `{;var}` take one segment per variable, `{?var}` and `{&var}` read the
// query's name=value pairs.

type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

type Expressions<T extends string> = T extends `${string}{${infer E}}${infer Rest}` ? E | Expressions<Rest> : never;
type Body<E extends string> = E extends `${"+" | "#" | "." | "/" | ";" | "?" | "&"}${infer Rest}` ? Rest : E;
type Split<L extends string> = L extends `${infer A},${infer B}` ? A | Split<B> : L;
type NameOf<V extends string> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;
type Exploded<E extends string> =
  Split<Body<E>> extends infer V extends string ? (V extends `${infer N}*` ? N : never) : never;
type AllVars<E extends string> = NameOf<Split<Body<E>>>;
type QueryVars<E extends string> = E extends `${"?" | "&"}${string}` ? AllVars<E> : never;

/** The variables of a template literal type: `"file:///{path}"` → `{ path: string }`; `{?q}` optional, `{/p*}` a list. */
export type TemplateVariables<T extends string> = Simplify<
  {
    [K in AllVars<Expressions<T>> as K extends QueryVars<Expressions<T>> ? never : K]: K extends Exploded<
      Expressions<T>
    >
      ? string[]
      : string;
  } & {
    [K in QueryVars<Expressions<T>>]?: K extends Exploded<Expressions<T>> ? string[] : string;
  }
>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The names a template string uses, as a union of their literal types. */
export type TemplateVariableName<T extends string> = AllVars<Expressions<T>>;

interface Variable {
  name: string;
  explode: boolean;
}
interface Expression {
  operator: Operator;
  variables: Variable[];
}

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class UriTemplate {
  readonly variables: readonly string[];
  private readonly parts: (string | Expression)[] = [];
  private readonly regex: RegExp;
  /** Where each expression's text is captured in the regex. */
  private readonly groups: Expression[] = [];

  constructor(readonly template: string) {
    let at = 0;
    while (at < template.length) {
      const open = template.indexOf("{", at);
      if (open < 0) {
        this.parts.push(template.slice(at));
        break;
      }
      const close = template.indexOf("}", open);
      if (close < 0) throw new TypeError(`${template}: unclosed expression`);
      if (open > at) this.parts.push(template.slice(at, open));
      this.parts.push(parseExpression(template.slice(open + 1, close), template));
      at = close + 1;
    }
    const names = this.parts.flatMap((p) => (typeof p === "string" ? [] : p.variables.map((v) => v.name)));
    this.variables = [...new Set(names)];
    let source = "^";
    for (const part of this.parts) {
      if (typeof part === "string") source += escape(part);
      else {
        this.groups.push(part);
        source += expressionPattern(part);
      }
    }
    this.regex = new RegExp(`${source}$`);
  }

  /** Whether a string is a template (has an expression) rather than a plain URI. */
  static isTemplate(uri: string): boolean {
    return /\{[^}]*\}/.test(uri);
  }

  /** The variables' values when `uri` is an expansion of this template; undefined otherwise. */
  match(uri: string): { [name: string]: string | string[] } | undefined {
    const found = this.regex.exec(uri);
    if (!found) return undefined;
    const values: { [name: string]: string | string[] } = {};
    try {
      this.groups.forEach((expression, i) => readExpression(expression, found[i + 1] ?? "", values));
    } catch {
      return undefined; // a malformed percent-encoding: not an expansion
    }
    return values;
  }
}

function parseExpression(text: string, template: string): Expression {
  const first = text.charAt(0);
  const operator = (OPERATORS.has(first) ? first : "") as Operator;
  const body = operator === "" ? text : text.slice(1);
  const variables = body.split(",").map((spec) => {
    const explode = spec.endsWith("*");
    const name = (explode ? spec.slice(0, -1) : spec).replace(/:\d+$/, "");
    if (!/^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/.test(name))
      throw new TypeError(`${template}: ${JSON.stringify(spec)} is not a variable`);
    return { name, explode };
  });
  return { operator, variables };
}

/** What an expression's whole expansion may look like; one capture group. */
function expressionPattern({ operator, variables }: Expression): string {
  const n = variables.length;
  switch (operator) {
    case "":
      return `([^/?#]*)`;
    case "+":
      return `(.*)`;
    case "#":
      return `(?:#(.*))?`;
    case "/":
    case ".":
    case ";": {
      const prefix = escape(operator);
      const repeat = variables.some((v) => v.explode) ? "*" : `{0,${n}}`;
      return `((?:${prefix}[^/?#${operator === "." ? "." : ""}]*)${repeat})`;
    }
    case "?":
    case "&":
      return `(?:${escape(operator)}([^#]*))?`;
  }
}

function readExpression(expression: Expression, text: string, into: { [name: string]: string | string[] }): void {
  const { operator, variables } = expression;
  const decode = (value: string) => decodeURIComponent(value);
  if (operator === "?" || operator === "&") {
    const pairs = text === "" ? [] : text.split("&").map((pair) => pair.split("=") as [string, string?]);
    for (const variable of variables) {
      const values = pairs.filter(([name]) => decode(name) === variable.name).map(([, value]) => decode(value ?? ""));
      if (values.length === 0) continue;
      into[variable.name] = variable.explode ? values : values.join(",");
    }
    return;
  }
  const items =
    operator === "/" || operator === "." || operator === ";"
      ? text.split(operator).slice(1)
      : text === ""
        ? []
        : variables.length > 1
          ? text.split(",")
          : [text];
  if (variables.length === 1 && variables[0]?.explode) {
    into[variables[0].name] = items.map((item) => decode(operator === ";" ? item.replace(/^[^=]*=?/, "") : item));
    return;
  }
  variables.forEach((variable, i) => {
    const item = items[i];
    if (item === undefined) return;
    into[variable.name] = decode(operator === ";" ? item.replace(/^[^=]*=?/, "") : item);
  });
}
