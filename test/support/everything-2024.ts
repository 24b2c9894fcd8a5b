// server-everything 0.6.2 (official SDK 1.0.1, 2024-11-05 only), installed through the local
// package test/fixtures/peers, and the session the generated 2024-11-05 client runs with it. The
// same session runs over stdio (test/everything-2024.test.ts) and over HTTP+SSE
// (test/legacy-sse.test.ts), so it is written once here.
import { expect, it } from "vitest";
import { createClient, type Client, type CreateMessageRequest } from "../../generated/2024-11-05/index.js";
import type { JsonObject, Transport } from "../../runtime/index.js";

export { everything2024File } from "./everything-2024-process.js";

export interface Everything2024Session {
  readonly client: Client;
  /** The sampling requests the server sent. */
  readonly sampled: CreateMessageRequest["params"][];
  /** What the client could tell no caller about (messages its validators rejected, transport trouble). */
  readonly errors: Error[];
}

/** The generated 2024-11-05 client over `transport`, answering sampling; not yet connected. */
export function everything2024Client(transport: Transport): Everything2024Session {
  const sampled: CreateMessageRequest["params"][] = [];
  const errors: Error[] = [];
  const client = createClient({
    transport,
    clientInfo: { name: "mcp-gen-test", version: "1" },
    handlers: {
      createMessage: (params) => {
        sampled.push(params);
        return { role: "assistant", content: { type: "text", text: "a sampled answer" }, model: "test-model" };
      },
    },
    onError: (error) => errors.push(error),
  });
  return { client, sampled, errors };
}

const text = (result: { content: unknown[] }) =>
  result.content.map((part) => (part as { text?: string }).text ?? JSON.stringify(part)).join("\n");

/** The session's tests, declared in the calling describe block; `session()` is connected by then. */
export function everything2024SessionTests(session: () => Everything2024Session): void {
  it("lists its tools, prompts and all resources (ten pages), each result valid for 2024-11-05", async () => {
    const { client } = session();
    expect(client.server.serverInfo).toMatchObject({ name: "example-servers/everything", version: "1.0.0" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "echo",
      "add",
      "longRunningOperation",
      "sampleLLM",
      "getTinyImage",
    ]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "simple_prompt",
      "complex_prompt",
    ]);
    const pages = [];
    for await (const page of client.listResourcesPages()) pages.push(page.resources.length);
    expect(pages).toEqual(Array(10).fill(10));
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "test://static/resource/{id}",
    ]);
  });

  it("calls every tool, answering its sampling request and following its progress", async () => {
    const { client, sampled } = session();
    expect(text(await client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    expect(text(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))).toBe("The sum of 2 and 3 is 5.");

    const progress: JsonObject[] = [];
    const long = await client.callTool(
      { name: "longRunningOperation", arguments: { duration: 0.2, steps: 2 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(text(long)).toMatch(/^Long running operation completed\. Duration: 0\.2 seconds, Steps: 2\./);
    expect(progress.map((p) => [p["progress"], p["total"]])).toEqual([
      [1, 2],
      [2, 2],
    ]);

    // This server version prints the whole sampling result object into its text ("[object Object]").
    expect(text(await client.callTool({ name: "sampleLLM", arguments: { prompt: "say hi", maxTokens: 10 } }))).toBe(
      "LLM sampling result: [object Object]",
    );
    expect(sampled.at(-1)).toMatchObject({ maxTokens: 10, messages: [{ role: "user" }] });

    const image = await client.callTool({ name: "getTinyImage", arguments: {} });
    const png = image.content.find((part) => part.type === "image") as { data: string } | undefined;
    expect(png).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      Buffer.from(png?.data ?? "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("reads text and blob resources, gets prompts with arguments, sets the log level", async () => {
    const { client } = session();
    const textResource = await client.readResource({ uri: "test://static/resource/1" });
    expect(textResource.contents[0]).toMatchObject({ uri: "test://static/resource/1", mimeType: "text/plain" });
    const blob = await client.readResource({ uri: "test://static/resource/2" });
    expect(blob.contents[0]).toHaveProperty("blob");
    const prompt = await client.getPrompt({
      name: "complex_prompt",
      arguments: { temperature: "0.5", style: "terse" },
    });
    expect(prompt.messages.map((m) => m.content.type)).toEqual(["text", "text", "image"]);
    expect(await client.setLevel({ level: "debug" })).toEqual({});
  });

  it("gets a typed error for an unknown tool and for an unknown resource, and the session goes on", async () => {
    const { client } = session();
    await expect(client.callTool({ name: "no-such-tool", arguments: {} })).rejects.toMatchObject({
      message: expect.stringContaining("no-such-tool"),
    });
    await expect(client.readResource({ uri: "test://static/resource/1000" })).rejects.toThrow();
    expect(await client.ping()).toEqual({});
  });
}
