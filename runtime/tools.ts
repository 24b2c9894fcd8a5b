// @mcp-gen/runtime/tools: what the typed wrappers of every `mcp-gen tools` module share. The
// clients they take (any whose `callTool`, `getPrompt` take the call's params first), the result
// types, and the one method of a tool or prompt: its arguments checked before anything is sent, a
// tool's structured result after. A module adds the types, validators and method table of its
// server's tools and prompts.
import { ValidationError, type Validator } from "./validation/index.js";

/**
 * What the tool wrappers need from a client: a `callTool` taking the call's params first. The
 * generated client of every revision (`createClient` from `@mcp-gen/runtime/<revision>`) has it,
 * and so do the official SDK's `Client`s (`@modelcontextprotocol/sdk` v1, `@modelcontextprotocol/client` v2).
 */
export interface ToolsClient {
  callTool(params: { name: string; arguments?: { [key: string]: unknown } }, ...rest: never[]): Promise<object>;
}

/**
 * What a tool method takes after the tool's arguments: the client's own `callTool` parameters
 * after params, passed on as they are (options for mcp-gen's clients and SDK v2; a result schema,
 * then options, for SDK v1).
 */
export type ToolCallRest<C extends ToolsClient> = C["callTool"] extends (params: never, ...rest: infer R) => unknown
  ? R
  : never;

/** `T` without the keys `K`. Unlike `Omit`, it keeps T's declared members when T has an index signature. */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/**
 * A tool's result as the client returns it, with `isError` always present; when the call
 * succeeded, `structuredContent` has been checked against the tool's output schema and has its
 * type (the client's own `structuredContent` type is dropped, so a misspelt property does not
 * compile). A client result without `content` (SDK v1 also declares the 2024-10-07 `toolResult`
 * form, which it returns only when given its compatibility schema) is left out.
 */
export type ToolResult<C extends ToolsClient, Output> = CallResult<Awaited<ReturnType<C["callTool"]>>, Output>;
type CallResult<R, Output> = R extends { content: unknown }
  ? Without<R, "isError" | "structuredContent"> &
      (
        | { readonly isError: false; readonly structuredContent: Output }
        | { readonly isError: true; readonly structuredContent?: unknown }
      )
  : never;

/**
 * What the prompt wrappers need from a client: a `getPrompt` taking the call's params first, as
 * the generated clients and the official SDK's have.
 */
export interface PromptsClient {
  getPrompt(params: { name: string; arguments?: { [key: string]: string } }, ...rest: never[]): Promise<unknown>;
}

/** What a prompt method takes after the prompt's arguments: the client's own `getPrompt` parameters after params. */
export type PromptCallRest<C extends PromptsClient> = C["getPrompt"] extends (
  params: never,
  ...rest: infer R
) => unknown
  ? R
  : never;

/** A prompt's result as the client returns it. */
export type PromptResult<C extends PromptsClient> = Awaited<ReturnType<C["getPrompt"]>>;

/**
 * The method of the tool `name` on `client`: `args` (`{}` when left out) are checked against
 * `input` before anything is sent, and a successful call's `structuredContent` against `output`
 * (when the tool has an output schema); a failed check throws ValidationError. The rest of the
 * method's parameters are passed on to `callTool` after params. A module types the method.
 */
export function toolMethod(
  client: ToolsClient,
  name: string,
  input: Validator<unknown>,
  output: Validator<unknown> | undefined,
): (args: unknown, ...rest: never[]) => Promise<object> {
  return async (args, ...rest) => {
    const sent = args === undefined ? {} : args;
    checked(input, sent, `arguments of tool ${JSON.stringify(name)}`);
    const result: { isError?: unknown; structuredContent?: unknown } = await client.callTool(
      { name, arguments: sent as { [key: string]: unknown } },
      ...rest,
    );
    const isError = result.isError === true;
    if (output !== undefined && !isError) {
      checked(output, result.structuredContent, `structuredContent of tool ${JSON.stringify(name)}`);
    }
    return { ...result, isError };
  };
}

/** The method of the prompt `name` on `client`: `args` (`{}` when left out) are checked against `input` first. */
export function promptMethod(
  client: PromptsClient,
  name: string,
  input: Validator<unknown>,
): (args: unknown, ...rest: never[]) => Promise<unknown> {
  return async (args, ...rest) => {
    const sent = args === undefined ? {} : args;
    checked(input, sent, `arguments of prompt ${JSON.stringify(name)}`);
    return client.getPrompt({ name, arguments: sent as { [key: string]: string } }, ...rest);
  };
}

function checked(validator: Validator<unknown>, value: unknown, what: string): void {
  const result = validator.validate(value);
  if (!result.ok) throw new ValidationError(what, result.issues);
}
