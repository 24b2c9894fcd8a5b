// The tools, resources and prompts the conformance suite's server scenarios call by name, as
// plain data and small functions over the generated 2025-11-25 types.
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

export interface ToolFixture<Context = ToolContext> {
  readonly tool: T.Tool;
  run(args: { [key: string]: unknown }, context: Context): Promise<T.CallToolResult> | T.CallToolResult;
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

export const resources: T.Resource[] = [
  { uri: "test://static-text", name: "static-text", description: "A text resource", mimeType: "text/plain" },
  { uri: "test://static-binary", name: "static-binary", description: "A binary resource", mimeType: "image/png" },
  {
    uri: "test://watched-resource",
    name: "watched-resource",
    description: "A resource to subscribe to",
    mimeType: "text/plain",
  },
];

export const resourceTemplates: T.ResourceTemplate[] = [
  {
    uriTemplate: "test://template/{id}/data",
    name: "template-data",
    description: "Data for one id",
    mimeType: "application/json",
  },
];

export function readResource(uri: string): T.ReadResourceResult["contents"] | undefined {
  if (uri === "test://static-text")
    return [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }];
  if (uri === "test://static-binary") return [{ uri, mimeType: "image/png", blob: PNG }];
  if (uri === "test://watched-resource") return [{ uri, mimeType: "text/plain", text: "Watched resource content." }];
  const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
  if (id === undefined) return undefined;
  return [
    { uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
  ];
}

export const prompts: T.Prompt[] = [
  { name: "test_simple_prompt", description: "A prompt without arguments" },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with two arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt that embeds a resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt with an image" },
];

export function getPrompt(name: string, args: { [key: string]: string }): T.PromptMessage[] | undefined {
  switch (name) {
    case "test_simple_prompt":
      return [{ role: "user", content: text("This is a simple prompt for testing.") }];
    case "test_prompt_with_arguments":
      return [{ role: "user", content: text(`Prompt with arguments: arg1='${args["arg1"]}', arg2='${args["arg2"]}'`) }];
    case "test_prompt_with_embedded_resource":
      return [
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
      ];
    case "test_prompt_with_image":
      return [
        { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
        { role: "user", content: text("Please analyze the image above.") },
      ];
  }
  return undefined;
}

/** Completion values for prompt and template arguments: a fixed list, filtered by what was typed. */
export function complete(value: string): T.CompleteResult["completion"] {
  const values = ["paris", "park", "party", "test", "testValue1"].filter((candidate) => candidate.startsWith(value));
  return { values, total: values.length, hasMore: false };
}
