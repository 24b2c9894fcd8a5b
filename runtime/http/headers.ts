// The request headers that mirror a request's body at stateless revisions (2026-07-28 and later):
// MCP-Protocol-Version, Mcp-Method, Mcp-Name and the Mcp-Param-* headers of annotated tool
// arguments; how a value is written into one (plain, or the Base64 sentinel form) and read back;
// what a client sends and what a server checks. Which method mirrors which field comes from the
// revision's binding. Spec:
// https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
import { isObject, type JsonRpcMessage } from "../jsonrpc.js";
import type { StatelessHttpBinding } from "../transport.js";
import { annotatedValue, type HeaderAnnotation } from "./header-annotations.js";

export const VERSION_HEADER = "MCP-Protocol-Version";
export const METHOD_HEADER = "Mcp-Method";
export const NAME_HEADER = "Mcp-Name";
export const PARAM_HEADER_PREFIX = "Mcp-Param-";

const SENTINEL = /^=\?base64\?(.*)\?=$/s;
/** Visible ASCII with inner spaces: what a header carries as it is. */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  // In slices: a spread of a long array would overflow the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary);
}

/** A value as a header carries it: as it is when that is safe and unambiguous, else `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  return PLAIN.test(value) && !SENTINEL.test(value) ? value : `=?base64?${toBase64(value)}?=`;
}

/** Canonical Base64: whole 4-character groups, padding only at the end (atob alone is lenient). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header's value as the sender meant it; undefined when it is malformed (bad Base64, not UTF-8). */
export function decodeHeaderValue(raw: string): string | undefined {
  const encoded = SENTINEL.exec(raw)?.[1];
  if (encoded === undefined) return PLAIN.test(raw) ? raw : undefined;
  if (!BASE64.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The request's params, when it has an object of them. */
function paramsOf(message: JsonRpcMessage): { [key: string]: unknown } | undefined {
  return "params" in message && isObject(message.params) ? message.params : undefined;
}

/** The protocol version a request claims in its `_meta`. */
export function claimedVersion(message: JsonRpcMessage, binding: StatelessHttpBinding): string | undefined {
  const meta = paramsOf(message)?.["_meta"];
  const version = isObject(meta) ? meta[binding.versionMeta] : undefined;
  return typeof version === "string" ? version : undefined;
}

/** The value a request's Mcp-Name mirrors (a tool's or prompt's name, a resource's uri). */
function nameOf(message: JsonRpcMessage, binding: StatelessHttpBinding): string | undefined {
  if (!("method" in message)) return undefined;
  const field = binding.nameFields[message.method];
  const value = field === undefined ? undefined : paramsOf(message)?.[field];
  return typeof value === "string" ? value : undefined;
}

/** The headers a client sends with a request to mirror its body (Mcp-Param-* aside). */
export function mirroredHeaders(message: JsonRpcMessage, binding: StatelessHttpBinding): { [name: string]: string } {
  const headers: { [name: string]: string } = {};
  const version = claimedVersion(message, binding);
  if (version !== undefined) headers[VERSION_HEADER] = version;
  if ("method" in message) headers[METHOD_HEADER] = message.method;
  const name = nameOf(message, binding);
  if (name !== undefined) headers[NAME_HEADER] = encodeHeaderValue(name);
  return headers;
}

/**
 * The Mcp-Param-* headers of a tool call: one per annotated argument that has a value. A string
 * goes as it is, an integer in decimal, a boolean as `true` or `false`; null, a missing argument
 * or a value of another kind (which the server's own validation refuses) gets no header.
 */
export function paramHeaders(annotations: readonly HeaderAnnotation[], args: unknown): { [name: string]: string } {
  const headers: { [name: string]: string } = {};
  for (const annotation of annotations) {
    const value = annotatedValue(args, annotation);
    const text =
      typeof value === "string"
        ? value
        : typeof value === "boolean" || (typeof value === "number" && Number.isSafeInteger(value))
          ? String(value)
          : undefined;
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${annotation.name}`] = encodeHeaderValue(text);
  }
  return headers;
}

/** An argument's value as its header would carry it; undefined for null, absence or another kind. */
function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || (typeof value === "number" && Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/**
 * What disagrees between a tool call's Mcp-Param-* headers and its arguments, for the server's
 * check: an annotated argument with a value needs its header, equal once decoded (integers
 * compared as numbers, so `42.0` is 42); without a value no header is expected.
 */
export function paramHeaderMismatch(
  annotations: readonly HeaderAnnotation[],
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const annotation of annotations) {
    const name = `${PARAM_HEADER_PREFIX}${annotation.name}`;
    const value = annotatedValue(args, annotation);
    const raw = header(name);
    const expected = headerText(value);
    // No value (or one the server's own validation refuses): no header expected, none checked.
    if (expected === undefined) continue;
    if (raw === undefined) return `the ${name} header is required: the call's arguments set it`;
    const sent = decodeHeaderValue(raw);
    if (sent === undefined) return `${name} is malformed`;
    const same = typeof value === "number" ? sent.trim() !== "" && Number(sent) === value : sent === expected;
    if (!same) return `${name} ${JSON.stringify(sent)} does not match the argument's ${JSON.stringify(value)}`;
  }
  return undefined;
}

/**
 * What disagrees between a request's headers and its body, as a message for the header-mismatch
 * error; undefined when they agree. A body without the field a header mirrors is left to the
 * server's own validation (a missing `_meta` is invalid params, not a header problem).
 */
export function headerMismatch(
  message: JsonRpcMessage,
  header: (name: string) => string | undefined,
  binding: StatelessHttpBinding,
): string | undefined {
  const version = claimedVersion(message, binding);
  if (version !== undefined) {
    const sent = header(VERSION_HEADER);
    if (sent === undefined) return `the ${VERSION_HEADER} header is required`;
    if (sent !== version)
      return `${VERSION_HEADER} ${JSON.stringify(sent)} does not match the body's ${JSON.stringify(version)}`;
  }
  if ("method" in message) {
    const sent = header(METHOD_HEADER);
    if (sent === undefined) return `the ${METHOD_HEADER} header is required`;
    if (sent !== message.method)
      return `${METHOD_HEADER} ${JSON.stringify(sent)} does not match the body's ${JSON.stringify(message.method)}`;
  }
  const name = nameOf(message, binding);
  if (name !== undefined) {
    const raw = header(NAME_HEADER);
    if (raw === undefined) return `the ${NAME_HEADER} header is required for ${(message as { method: string }).method}`;
    const sent = decodeHeaderValue(raw);
    if (sent === undefined) return `${NAME_HEADER} is malformed`;
    if (sent !== name)
      return `${NAME_HEADER} ${JSON.stringify(sent)} does not match the body's ${JSON.stringify(name)}`;
  }
  return undefined;
}
