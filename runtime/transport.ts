// The transport contract: structurally the same as the official TypeScript SDK's `Transport`,
// so its stdio, in-memory and Streamable HTTP transports plug into generated clients and
// servers, and ours plug into the SDK (test/runtime.test.ts checks both directions).
import type { JsonRpcMessage, RequestId } from "./jsonrpc.js";

export interface TransportSendOptions {
  relatedRequestId?: RequestId | undefined;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

export interface Transport {
  start(): Promise<void>;
  /** An array is a JSON-RPC batch: a Peer sends one only to answer a batch the transport delivered. */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** `extra` carries transport details (the SDK passes request and auth info); generated code ignores it. */
  onmessage?: (<T extends JsonRpcMessage>(message: T, extra?: object) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}
