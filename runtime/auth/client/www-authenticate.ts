// Reading the challenges of a WWW-Authenticate header (RFC 9110 §11.6.1: a comma-separated list
// of `scheme` followed by `name=value` parameters, values as tokens or quoted strings), and what
// an MCP client needs of them: the Bearer or DPoP challenge's resource_metadata (RFC 9728 §5.1),
// scope and error (RFC 6750 §3), and the DPoP algorithms (RFC 9449 §7.1).

export interface Challenge {
  /** Lower case: "bearer", "dpop", … */
  readonly scheme: string;
  /** Parameter names in lower case; a repeated one keeps its first value. */
  readonly params: { readonly [name: string]: string };
}

/** What the answer of a protected resource says about authorization. */
export interface ResourceChallenge {
  /** The schemes the server offers (lower case). */
  readonly schemes: readonly string[];
  readonly resourceMetadata?: string | undefined;
  /** The scope the server asks for, split on spaces. */
  readonly scope?: readonly string[] | undefined;
  /** "invalid_token", "insufficient_scope", "use_dpop_nonce", … */
  readonly error?: string | undefined;
  /** The DPoP challenge's `algs`, split on spaces. */
  readonly dpopAlgorithms?: readonly string[] | undefined;
}

/** Longer headers are cut: nothing a server needs to say takes more. */
const MAX_HEADER = 8192;
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

export function parseChallenges(header: string): Challenge[] {
  const text = header.slice(0, MAX_HEADER);
  let at = 0;
  const challenges: { scheme: string; params: { [name: string]: string } }[] = [];
  const skip = (chars: RegExp) => {
    while (at < text.length && chars.test(text.charAt(at))) at++;
  };
  const token = (): string => {
    const start = at;
    while (at < text.length && TOKEN.test(text.charAt(at))) at++;
    return text.slice(start, at);
  };
  const quoted = (): string => {
    let value = "";
    at++; // the opening quote
    while (at < text.length && text.charAt(at) !== '"') {
      if (text.charAt(at) === "\\" && at + 1 < text.length) at++;
      value += text.charAt(at++);
    }
    at++; // the closing quote
    return value;
  };
  /** At a token followed by "=" (a parameter), not by a space and another token (a new challenge)? */
  const atParameter = (): boolean => {
    const start = at;
    token();
    skip(/[ \t]/);
    const equals = text.charAt(at) === "=";
    at = start;
    return equals;
  };
  while (at < text.length) {
    skip(/[ \t,]/);
    const scheme = token();
    if (scheme === "") {
      // Not a token where a scheme belongs: skip the character and resynchronize.
      at++;
      continue;
    }
    const params: { [name: string]: string } = {};
    challenges.push({ scheme: scheme.toLowerCase(), params });
    skip(/[ \t]/);
    // A token68 (or nothing) after the scheme, instead of parameters: up to the next comma.
    let more = atParameter();
    if (!more) while (at < text.length && text.charAt(at) !== ",") at++;
    while (more) {
      const name = token().toLowerCase();
      skip(/[ \t]/);
      at++; // "="
      skip(/[ \t]/);
      const value = text.charAt(at) === '"' ? quoted() : token();
      if (!(name in params)) params[name] = value;
      // Anything else before the next comma is not this grammar: skipped.
      while (at < text.length && text.charAt(at) !== ",") at++;
      skip(/[ \t,]/);
      // A parameter of this challenge, or the scheme of the next one.
      more = at < text.length && atParameter();
    }
  }
  return challenges;
}

/** The Bearer and DPoP challenges of a response, merged (the first to give a parameter wins). */
export function readChallenge(response: Response): ResourceChallenge {
  const challenges = parseChallenges(response.headers.get("www-authenticate") ?? "");
  const relevant = challenges.filter((c) => c.scheme === "bearer" || c.scheme === "dpop");
  const param = (name: string) => relevant.map((c) => c.params[name]).find((value) => value !== undefined);
  const words = (value: string | undefined) => value?.split(/\s+/).filter((word) => word !== "");
  return {
    schemes: challenges.map((c) => c.scheme),
    resourceMetadata: param("resource_metadata"),
    scope: words(param("scope")),
    error: param("error"),
    dpopAlgorithms: words(relevant.find((c) => c.scheme === "dpop")?.params["algs"]),
  };
}
