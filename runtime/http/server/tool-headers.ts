// The server side of Mcp-Param-* headers (2026-07-28): which arguments of its own tools travel in
// headers, learnt from the tools/list answers the endpoint sends (the listing is where a server
// declares them), and the check of a tool call's headers against its arguments. A tool the
// endpoint has not listed yet is not checked: nothing says which headers it expects. Where tools
// and arguments are comes from the revision's binding.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-behavior-for-custom-headers
import { isObject, type JsonRpcMessage } from "../../jsonrpc.js";
import type { ParamHeadersBinding } from "../../transport.js";
import { readAnnotations, type HeaderAnnotation } from "../header-annotations.js";
import { paramHeaderMismatch } from "../headers.js";

/** Tools remembered at most: a server's own listing, bounded all the same. */
const MAX_TOOLS = 10_000;

export class ToolHeaders {
  private readonly byTool = new Map<string, readonly HeaderAnnotation[]>();
  private readonly binding: ParamHeadersBinding;

  constructor(binding: ParamHeadersBinding) {
    this.binding = binding;
  }

  /** Whether `message` is the listing request whose answer to learn from. */
  lists(message: JsonRpcMessage): boolean {
    return "method" in message && message.method === this.binding.list;
  }

  /** A listing's answer, on its way out: each tool's annotations, or none for a tool that breaks the rules. */
  learn(answer: JsonRpcMessage): void {
    const result = "result" in answer ? answer.result : undefined;
    const tools = isObject(result) ? result[this.binding.items] : undefined;
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      const name = isObject(tool) ? tool[this.binding.name] : undefined;
      if (typeof name !== "string" || !isObject(tool)) continue;
      const annotations = readAnnotations(tool[this.binding.schema], this.binding.annotation);
      if (typeof annotations === "string" || annotations.length === 0) this.byTool.delete(name);
      else if (this.byTool.size < MAX_TOOLS || this.byTool.has(name)) this.byTool.set(name, annotations);
    }
  }

  /** What disagrees between a tool call's Mcp-Param-* headers and its arguments, if anything. */
  mismatch(message: JsonRpcMessage, header: (name: string) => string | undefined): string | undefined {
    if (!("method" in message) || message.method !== this.binding.call) return undefined;
    const params = "params" in message && isObject(message.params) ? message.params : undefined;
    const name = params?.[this.binding.name];
    const annotations = typeof name === "string" ? this.byTool.get(name) : undefined;
    return annotations && paramHeaderMismatch(annotations, params?.[this.binding.arguments], header);
  }
}
