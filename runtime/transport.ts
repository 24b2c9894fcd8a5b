// The transport contract: structurally the same as the official TypeScript SDK's `Transport`,
// so its stdio, in-memory and Streamable HTTP transports plug into generated clients and
// servers, and ours plug into the SDK (test/runtime.test.ts checks both directions).
import type { JsonRpcMessage, RequestId } from "./jsonrpc.js";

export interface TransportSendOptions {
  relatedRequestId?: RequestId | undefined;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/**
 * How a revision travels over Streamable HTTP, from its model: generated clients and servers hand
 * their revision's binding (methods.ts `HTTP_BINDING`) to the transport, which is how the HTTP
 * transports behave per revision without naming one.
 */
export type HttpBinding = SessionHttpBinding | StatelessHttpBinding;

/** 2025-era: the handshake opens a session (Mcp-Session-Id, a GET stream, DELETE). */
export interface SessionHttpBinding {
  readonly kind: "sessions";
  /** The request that opens a session. */
  readonly handshake: string;
  /** Streams start with a priming event and can be resumed from any point with Last-Event-ID. */
  readonly primedStreams: boolean;
  /** A POST may carry a JSON-RPC batch. */
  readonly batches: boolean;
}

/** 2026-07-28 and later: no sessions; each request's headers mirror its body. */
export interface StatelessHttpBinding {
  readonly kind: "stateless";
  /** The revision served: what a request of any other revision is told is supported. */
  readonly revision: string;
  /** The `params._meta` key of the protocol version (mirrored in MCP-Protocol-Version). */
  readonly versionMeta: string;
  /** Method → the params field mirrored in Mcp-Name. */
  readonly nameFields: { readonly [method: string]: string };
  /** Error codes answered with HTTP 400 whoever raised them. */
  readonly headerMismatch: number;
  readonly missingCapability: number;
  readonly unsupportedVersion: number;
  /** The request with which 2025-era clients open a session on the same endpoint. */
  readonly legacyHandshake: string;
  /** Tool arguments mirrored in Mcp-Param-{name} headers, as their tools' input schemas mark them. */
  readonly paramHeaders: ParamHeadersBinding;
}

/** Where tools and their arguments are: a property marked with `annotation` travels in a header. */
export interface ParamHeadersBinding {
  /** The schema keyword naming a property's header. */
  readonly annotation: string;
  /** The listing request, its result field holding the tools, and each tool's input schema field. */
  readonly list: string;
  readonly items: string;
  readonly schema: string;
  /** The call, and its params fields naming the tool and holding the arguments. */
  readonly call: string;
  readonly name: string;
  readonly arguments: string;
}

export interface Transport {
  start(): Promise<void>;
  /** An array is a JSON-RPC batch: a Peer sends one only to answer a batch the transport delivered. */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /**
   * `extra` carries transport details: ours pass `MessageExtra` (the sender's verified token), the
   * SDK's its request and auth info; the Peer takes `authInfo` from either onto the handler's context.
   */
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
  /**
   * A request this side sent is cancelled: its channel, if it has one, is closed. True when that
   * was the cancellation and no notification is to be sent (2026-07-28 HTTP: one response stream
   * per request); false when the revision's cancellation notification still is (2025-era HTTP
   * closes the request's stream too, as no answer will come on it).
   */
  cancel?: ((requestId: RequestId) => boolean) | undefined;
  /**
   * A request the other side sent will get no answer (it was cancelled): what the transport holds
   * open for that answer (an HTTP response stream) can go.
   */
  unanswered?: ((requestId: RequestId) => void) | undefined;
  /** Generated clients and servers call it before start() with their revision's HTTP binding. */
  setHttpBinding?: ((binding: HttpBinding) => void) | undefined;
}
