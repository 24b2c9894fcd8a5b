// The two metadata documents of discovery, read from untrusted JSON into typed objects: protected
// resource metadata (RFC 9728 §2) and authorization server metadata (RFC 8414 §2, which OpenID
// Connect Discovery's provider metadata extends). Only the members an MCP client uses are kept; a
// member of the wrong kind makes the whole document unusable, with the reason.
import { isObject, optional, type Json } from "./http-context.js";

export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[] | undefined;
  readonly dpop_signing_alg_values_supported?: readonly string[] | undefined;
  readonly dpop_bound_access_tokens_required?: boolean | undefined;
}

export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string | undefined;
  readonly token_endpoint: string;
  readonly registration_endpoint?: string | undefined;
  readonly scopes_supported?: readonly string[] | undefined;
  readonly grant_types_supported?: readonly string[] | undefined;
  readonly code_challenge_methods_supported?: readonly string[] | undefined;
  readonly token_endpoint_auth_methods_supported?: readonly string[] | undefined;
  readonly token_endpoint_auth_signing_alg_values_supported?: readonly string[] | undefined;
  readonly client_id_metadata_document_supported?: boolean | undefined;
  readonly authorization_response_iss_parameter_supported?: boolean | undefined;
  readonly dpop_signing_alg_values_supported?: readonly string[] | undefined;
}

type Kind = keyof typeof optional;

/** Copies the listed members of `value`, each checked; the first of the wrong kind is the problem. */
function pick(value: Json, members: { readonly [name: string]: Kind }): Json | string {
  const picked: Json = {};
  for (const [name, kind] of Object.entries(members)) {
    const member = value[name];
    if (!optional[kind](member)) return `"${name}" is not ${kind === "strings" ? "a list of strings" : `a ${kind}`}`;
    if (member !== undefined) picked[name] = member;
  }
  return picked;
}

/** The document as protected resource metadata, or what is wrong with it. */
export function parseResourceMetadata(value: unknown): ProtectedResourceMetadata | string {
  if (!isObject(value)) return "not a JSON object";
  const picked = pick(value, {
    resource: "string",
    authorization_servers: "strings",
    scopes_supported: "strings",
    dpop_signing_alg_values_supported: "strings",
    dpop_bound_access_tokens_required: "boolean",
  });
  if (typeof picked === "string") return picked;
  if (typeof picked["resource"] !== "string") return 'no "resource"';
  const servers = picked["authorization_servers"];
  if (!Array.isArray(servers) || servers.length === 0) return 'no "authorization_servers"';
  return picked as unknown as ProtectedResourceMetadata;
}

/** The document as authorization server metadata, or what is wrong with it. */
export function parseServerMetadata(value: unknown): AuthorizationServerMetadata | string {
  if (!isObject(value)) return "not a JSON object";
  const picked = pick(value, {
    issuer: "string",
    authorization_endpoint: "string",
    token_endpoint: "string",
    registration_endpoint: "string",
    scopes_supported: "strings",
    grant_types_supported: "strings",
    code_challenge_methods_supported: "strings",
    token_endpoint_auth_methods_supported: "strings",
    token_endpoint_auth_signing_alg_values_supported: "strings",
    client_id_metadata_document_supported: "boolean",
    authorization_response_iss_parameter_supported: "boolean",
    dpop_signing_alg_values_supported: "strings",
  });
  if (typeof picked === "string") return picked;
  if (typeof picked["issuer"] !== "string") return 'no "issuer"';
  if (typeof picked["token_endpoint"] !== "string") return 'no "token_endpoint"';
  return picked as unknown as AuthorizationServerMetadata;
}
