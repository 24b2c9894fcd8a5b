// Just enough JSON-RPC to route what a client POSTs; the server's own validators judge the rest.
import { isObject, type JsonRpcMessage } from "../../jsonrpc.js";

export type Classified =
  | { kind: "request"; message: JsonRpcMessage & { id: string | number; method: string } }
  | { kind: "notification"; message: JsonRpcMessage & { method: string } }
  | { kind: "response"; message: JsonRpcMessage };

export function classify(value: unknown): Classified | undefined {
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return undefined;
  const id = value["id"];
  const hasId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (typeof value["method"] === "string") {
    if (hasId)
      return { kind: "request", message: value as unknown as JsonRpcMessage & { id: string | number; method: string } };
    if (id === undefined)
      return { kind: "notification", message: value as unknown as JsonRpcMessage & { method: string } };
    return undefined;
  }
  if (value["method"] === undefined && ("result" in value || "error" in value))
    return { kind: "response", message: value as unknown as JsonRpcMessage };
  return undefined;
}
