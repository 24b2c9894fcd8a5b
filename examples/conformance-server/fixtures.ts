// The tools, resources and prompts the conformance suite's server scenarios call by name, in the
// shape the registry takes them (createMcpServer), over the generated 2025-11-25 types; each
// revision's conformance server registers them on its own registry.
import type * as T from "../../generated/2025-11-25/types.js";

/** A 1×1 red PNG and 8 samples of 8 kHz silence in WAV. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
const WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

export const text = (value: string): T.TextContent => ({ type: "text", text: value });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const noArguments: T.Tool["inputSchema"] = { type: "object", properties: {} };

/**
 * Keywords the schema's `inputSchema` type does not list ($defs with an $anchor, composition and
 * conditional keywords, additionalProperties) must reach the client untouched; a named object
 * (not a literal in place) may carry them.
 */
const schema2020 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object" as const,
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** What a tool may need besides its arguments, whatever the revision serving it. */
export interface ToolContext {
  log(level: T.LoggingLevel, data: string): Promise<void>;
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
}

export interface ToolFixture {
  readonly tool: T.Tool;
  run(args: { [key: string]: unknown }, context: ToolContext): Promise<T.CallToolResult> | T.CallToolResult;
}

export function stringArgument(args: { [key: string]: unknown }, name: string): string | undefined {
  const value = args[name];
  return typeof value === "string" ? value : undefined;
}

/** The tools every revision's conformance server offers the same way. */
export const sharedTools: readonly ToolFixture[] = [
  {
    tool: { name: "test_simple_text", description: "Returns a simple text", inputSchema: noArguments },
    run: () => ({ content: [text("This is a simple text response for testing.")] }),
  },
  {
    tool: { name: "test_image_content", description: "Returns an image", inputSchema: noArguments },
    run: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
  },
  {
    tool: { name: "test_audio_content", description: "Returns a sound", inputSchema: noArguments },
    run: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
  },
  {
    tool: { name: "test_embedded_resource", description: "Returns an embedded resource", inputSchema: noArguments },
    run: () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  },
  {
    tool: {
      name: "test_multiple_content_types",
      description: "Returns text, an image and a resource",
      inputSchema: noArguments,
    },
    run: () => ({
      content: [
        text("Multiple content types test:"),
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: '{"test":"data","value":123}',
          },
        },
      ],
    }),
  },
  {
    tool: {
      name: "test_tool_with_logging",
      description: "Logs three messages while it runs",
      inputSchema: noArguments,
    },
    run: async (_args, context) => {
      await context.log("info", "Tool execution started");
      await pause(50);
      await context.log("info", "Tool processing data");
      await pause(50);
      await context.log("info", "Tool execution completed");
      return { content: [text("Logged three messages")] };
    },
  },
  {
    tool: { name: "test_error_handling", description: "Always fails", inputSchema: noArguments },
    run: () => ({ isError: true, content: [text("This tool intentionally returns an error for testing")] }),
  },
  {
    tool: {
      name: "test_tool_with_progress",
      description: "Reports progress 0, 50 and 100 of 100",
      inputSchema: noArguments,
    },
    run: async (_args, context) => {
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await pause(50);
        await context.progress({ progress, total: 100 });
      }
      return { content: [text("Progress reported")] };
    },
  },
  {
    tool: {
      name: "json_schema_2020_12_tool",
      description: "Declares its input with JSON Schema 2020-12 keywords",
      inputSchema: schema2020,
    },
    run: (args) => ({ content: [text(`Received ${JSON.stringify(args)}`)] }),
  },
];

/** A resource: where it is, what the listing says, and what a read gives. */
export interface ResourceFixture {
  readonly name: string;
  readonly uri: string;
  readonly config: { description: string; mimeType: string };
  read(uri: string, variables: { [name: string]: string | string[] }): T.ReadResourceResult["contents"];
}

export const resources: readonly ResourceFixture[] = [
  {
    name: "static-text",
    uri: "test://static-text",
    config: { description: "A text resource", mimeType: "text/plain" },
    read: (uri) => [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }],
  },
  {
    name: "static-binary",
    uri: "test://static-binary",
    config: { description: "A binary resource", mimeType: "image/png" },
    read: (uri) => [{ uri, mimeType: "image/png", blob: PNG }],
  },
  {
    name: "watched-resource",
    uri: "test://watched-resource",
    config: { description: "A resource to subscribe to", mimeType: "text/plain" },
    read: (uri) => [{ uri, mimeType: "text/plain", text: "Watched resource content." }],
  },
  {
    // A template: every URI it matches is read with its `id`.
    name: "template-data",
    uri: "test://template/{id}/data",
    config: { description: "Data for one id", mimeType: "application/json" },
    read: (uri, { id }) => [
      {
        uri,
        mimeType: "application/json",
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
  },
];

/** A prompt argument: a string, described. */
const argument = (description: string) => ({ type: "string", description }) as const;

/** Completion values for prompt arguments: a fixed list, filtered by what was typed. */
export function complete(value: string): string[] {
  return ["paris", "park", "party", "test", "testValue1"].filter((candidate) => candidate.startsWith(value));
}

export interface PromptFixture {
  readonly name: string;
  readonly config: {
    description: string;
    argsSchema?: {
      type: "object";
      properties: { [name: string]: ReturnType<typeof argument> };
      required: readonly string[];
    };
    complete?: { [name: string]: (value: string) => string[] };
  };
  messages(args: { [name: string]: string | undefined }): T.PromptMessage[];
}

export const prompts: readonly PromptFixture[] = [
  {
    name: "test_simple_prompt",
    config: { description: "A prompt without arguments" },
    messages: () => [{ role: "user", content: text("This is a simple prompt for testing.") }],
  },
  {
    name: "test_prompt_with_arguments",
    config: {
      description: "A prompt with two arguments",
      argsSchema: {
        type: "object",
        properties: { arg1: argument("First test argument"), arg2: argument("Second test argument") },
        required: ["arg1", "arg2"],
      },
      complete: { arg1: complete, arg2: complete },
    },
    messages: (args) => [
      { role: "user", content: text(`Prompt with arguments: arg1='${args["arg1"]}', arg2='${args["arg2"]}'`) },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    config: {
      description: "A prompt that embeds a resource",
      argsSchema: {
        type: "object",
        properties: { resourceUri: argument("URI of the resource to embed") },
        required: ["resourceUri"],
      },
    },
    messages: (args) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: args["resourceUri"] ?? "test://example-resource",
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      { role: "user", content: text("Please process the embedded resource above.") },
    ],
  },
  {
    name: "test_prompt_with_image",
    config: { description: "A prompt with an image" },
    messages: () => [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: text("Please analyze the image above.") },
    ],
  },
];
