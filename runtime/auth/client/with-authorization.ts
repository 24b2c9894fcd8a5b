// The seam between authorization and the HTTP transports: a fetch that authorizes the requests
// to one MCP server. Every HTTP client transport takes a `fetch` option, so this plugs into all of
// them unchanged. A request to the server's origin carries its token; on 401 the wrapper has the
// session refresh or authorize and sends the request again, on 403 insufficient_scope it steps up
// (a bounded number of times), on a DPoP nonce challenge it sends again with the nonce. Requests
// to any other origin pass through untouched: a token never leaves the origin it is for, not
// even by redirection (an authorized request follows same-origin redirects only).
import { AuthorizationError, shown } from "./errors.js";
import type { Fetch } from "./http-context.js";
import type { StoredTokens } from "./provider.js";
import { AuthorizationSession, type AuthorizationOptions, type Recovery } from "./authorization-session.js";
import { readChallenge } from "./www-authenticate.js";

export interface WithAuthorizationOptions extends AuthorizationOptions {
  /** The MCP server's URL: tokens go to its origin only, and are asked for it. */
  readonly server: string | URL;
  /** Authorizations for more scope per request before giving up (default 2). */
  readonly maxStepUps?: number;
}

/** Redirects an authorized request follows (same origin only). */
const MAX_REDIRECTS = 5;
/** Times one request is sent, whatever happens in between: the rules below end sooner; this is the backstop. */
const MAX_SENDS = 8;

/** `fetch` authorizing every request to `options.server`'s origin; give it to a transport's `fetch` option. */
export function withAuthorization(fetch: Fetch, options: WithAuthorizationOptions | AuthorizationSession): Fetch {
  const session =
    options instanceof AuthorizationSession ? options : new AuthorizationSession(options.server, fetch, options);
  const maxStepUps = options instanceof AuthorizationSession ? 2 : (options.maxStepUps ?? 2);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== session.server.origin) return fetch(input, init);
    const request = await replayable(input, init);
    let last: Recovery | undefined;
    let stepUps = 0;
    let nonces = 0;
    for (let sends = 1; ; sends++) {
      const { response, tokens, newNonce } = await send(fetch, session, request);
      const challenge = response.status === 401 || response.status === 403 ? readChallenge(response) : undefined;
      // Not a challenge OAuth can answer (Basic, Negotiate, …): the caller's to deal with.
      if (!challenge || (challenge.schemes.length > 0 && !challenge.schemes.some(oauth))) return response;
      const nonce = challenge.error === "use_dpop_nonce" && newNonce && nonces++ === 0;
      if (!nonce && response.status === 403 && challenge.error !== "insufficient_scope") return response;
      await response.body?.cancel().catch(() => {});
      if (sends === MAX_SENDS)
        throw new AuthorizationError(
          "refused",
          session.key,
          `the server still refuses the request after ${sends} attempts`,
        );
      // RFC 9449 §9: the server wants its new nonce in the proof; once per request.
      if (nonce) continue;
      if (response.status === 401) {
        // A token just authorized for and refused at once will not do better the next time.
        if (last === "authorized")
          throw new AuthorizationError(
            "refused",
            session.key,
            `the server refused the access token just issued (HTTP 401${describe(challenge.error)})`,
          );
        last = await session.unauthorized(challenge, tokens, last === undefined);
        continue;
      }
      if (stepUps++ >= maxStepUps)
        throw new AuthorizationError(
          "insufficient-scope",
          session.key,
          `the server still refuses the request for lack of scope after ${maxStepUps} new authorizations${
            challenge.scope ? ` (it asks for ${shown(challenge.scope.join(" "))})` : ""
          }`,
        );
      last = await session.insufficientScope(challenge, tokens);
    }
  };
}

const oauth = (scheme: string) => scheme === "bearer" || scheme === "dpop";
const describe = (error: string | undefined) => (error === undefined ? "" : `: ${shown(error, 60)}`);

/** A request as parts that can be sent again: its body read once. */
interface Replayable {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly body: ArrayBuffer | string | undefined;
  readonly init: RequestInit;
}

async function replayable(input: string | URL | Request, init: RequestInit | undefined): Promise<Replayable> {
  if (input instanceof Request) {
    const request = init ? new Request(input, init) : input;
    const body = request.body ? await request.arrayBuffer() : undefined;
    return {
      url: new URL(request.url),
      method: request.method,
      headers: new Headers(request.headers),
      body,
      init: { signal: request.signal },
    };
  }
  const given = init?.body;
  const body =
    given === undefined || given === null
      ? undefined
      : typeof given === "string"
        ? given
        : await new Response(given).arrayBuffer();
  return {
    url: new URL(input),
    method: init?.method ?? "GET",
    headers: new Headers(init?.headers),
    body,
    init: init ?? {},
  };
}

/** Sends the request with the current token, following same-origin redirects with it. */
async function send(
  fetch: Fetch,
  session: AuthorizationSession,
  request: Replayable,
): Promise<{ response: Response; tokens: StoredTokens | undefined; newNonce: boolean }> {
  let { url, method, body } = request;
  for (let hop = 0; ; hop++) {
    const { headers: authorization, tokens } = await session.credentials(method, url);
    const headers = new Headers(request.headers);
    for (const [name, value] of Object.entries(authorization)) headers.set(name, value);
    const response = await fetch(url, { ...request.init, method, headers, body: body ?? null, redirect: "manual" });
    const newNonce = session.observe(url, response);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) {
      if (response.type === "opaqueredirect")
        throw new AuthorizationError(
          "redirect",
          session.key,
          "an authorized request was redirected, and the redirect cannot be followed here",
        );
      return { response, tokens, newNonce };
    }
    await response.body?.cancel().catch(() => {});
    const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
    if (next?.origin !== session.server.origin)
      throw new AuthorizationError(
        "redirect",
        session.key,
        `the server redirected an authorized request to ${shown(next?.origin ?? location)}: not followed (the token is only for ${session.server.origin})`,
      );
    if (hop >= MAX_REDIRECTS)
      throw new AuthorizationError("redirect", session.key, `more than ${MAX_REDIRECTS} redirects`);
    // 307 and 308 repeat the request as it was; the others turn it into a GET without a body.
    if (response.status !== 307 && response.status !== 308) {
      method = "GET";
      body = undefined;
    }
    url = next;
  }
}
