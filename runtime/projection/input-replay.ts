// Handlers written against a session revision, run for a revision whose server sends the client
// no requests but asks for input in its result (multi round-trip input, 2026-07-28): each request
// a handler sends through its context's helpers (`elicit`, `createMessage`, `listRoots`) becomes
// an input request of an input-required result, and when the client retries with the answers the
// handler runs again from the start, its earlier requests answered at once from the sealed request
// state. So a handler must ask the same things in the same order on every run, and what it does
// before its last request is done once per round. A helper the revision has no input request for
// (`ping`, `tasks/*`) fails for the handler, as do params the revision cannot express.
import { RpcError } from "../jsonrpc.js";
import type { Invoke } from "../server/registry.js";
import { withHelpers } from "./context-helpers.js";
import type { RevisionProjection } from "./shapes.js";
import { toClient } from "./to-client.js";

/** The multi round-trip input the revision's registry gives its handlers (`context.input`). */
interface InputContext {
  readonly state: string | undefined;
  response(key: string, method: string): unknown;
  ask(requests: { [key: string]: { method: string; params?: unknown } }, state?: string): unknown;
}

/** What the request state carries between rounds: the answers so far and what was just asked, by key. */
interface Rounds {
  readonly answers: { [key: string]: { readonly method: string; readonly result: unknown } };
  readonly asked: { [key: string]: string };
}

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function readRounds(state: string | undefined): Rounds {
  if (state === undefined) return { answers: {}, asked: {} };
  try {
    const parsed = JSON.parse(state) as unknown;
    if (isObject(parsed) && isObject(parsed["answers"]) && isObject(parsed["asked"])) return parsed as never;
  } catch {
    // Not this adapter's state: nothing answered yet.
  }
  return { answers: {}, asked: {} };
}

/**
 * How a registry of `target` (a revision with multi round-trip input) runs handlers written
 * against `writtenFor`: with a context that has `writtenFor`'s helpers, its requests carried as
 * input requests.
 */
export function replayInput(writtenFor: RevisionProjection, target: RevisionProjection): Invoke {
  return (run, context) => {
    const input = (context as { input?: InputContext }).input;
    if (input === undefined) throw new TypeError(`${target.revision}'s handler context has no multi round-trip input`);
    const rounds = readRounds(input.state);
    const answers = { ...rounds.answers };
    for (const [key, method] of Object.entries(rounds.asked)) {
      const result = input.response(key, method);
      if (result !== undefined) answers[key] = { method, result };
    }
    const asked: { [key: string]: { method: string; params?: unknown } } = {};
    let calls = 0;
    let wanted: () => void = () => {};
    const needed = new Promise<void>((resolve) => (wanted = resolve));

    const request = (method: string, params: unknown): Promise<unknown> => {
      const key = String(calls++);
      const answer = answers[key];
      if (answer?.method === method) return Promise.resolve(answer.result);
      const shape = Object.hasOwn(target.inputRequests, method) ? (target.inputRequests[method] ?? 0) : undefined;
      const sent = toClient(method, params, shape, target, writtenFor);
      if ("error" in sent) return Promise.reject(new RpcError(sent.error.code, sent.error.message));
      asked[key] = { method, ...(sent.params === undefined ? {} : { params: sent.params }) };
      // Requests made in the same turn (Promise.all) go out together.
      queueMicrotask(wanted);
      // This run stops here: the next round runs the handler again, with this answered.
      return new Promise<never>(() => {});
    };

    const adapted = withHelpers(context, writtenFor.helpers, request);
    const done = Promise.resolve().then(() => run(adapted));
    const askFor = needed.then(() => {
      const next: Rounds = {
        answers,
        asked: Object.fromEntries(Object.entries(asked).map(([key, r]) => [key, r.method])),
      };
      return input.ask(asked, JSON.stringify(next));
    });
    return Promise.race([done, askFor]);
  };
}
