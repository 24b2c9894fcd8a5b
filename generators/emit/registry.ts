// generated/<rev>/registry.ts: the typed face of `createMcpServer` (runtime/server/mcp-server.ts)
// for one revision: tool, resource and prompt configs, handlers and results in the revision's own
// types, the handler context, and the checks of input answers where the revision has multi
// round-trip results. The facts the registry runs on are methods.ts REGISTRY_FACTS.
import type { Model } from "../model/model.js";
import type { Artifact } from "./artifact.js";
import { headerView } from "./artifact.js";
import { ImportList, stringLiteral } from "./code.js";
import { registryFacts } from "./registry-facts.js";
import { renderTemplate } from "./render.js";

export const registryArtifact: Artifact = {
  file: "registry.ts",
  emit(model: Model, env) {
    const { logLevelType, toolResult, stateless, outputSchemas, cacheFields, cacheOwner, inputMethods } =
      registryFacts(model);
    const ir = model.protocol.inputRequired;
    const runtime = `${env.runtimeImport}`;
    const core = `${runtime}/server/mcp-server.js`;
    const imports = new ImportList();
    imports.addNamespace("./types.js", "T");
    imports.addTypes(`${runtime}/server/index.js`, [
      "Accepted",
      "Parsed",
      "Schema",
      "TemplateVariableName",
      "TemplateVariables",
    ]);
    imports.add(core, "createRegistryServer", false);
    imports.addTypes(core, [
      "Complete",
      "IsTemplate",
      "McpServerCore",
      "McpServerCoreOptions",
      "NoArguments",
      "NoOutput",
      "Registered",
    ]);
    imports.add("./server.js", "createServer", false);
    imports.addTypes("./server.js", ["Answer", "RequestContext", "ServerHandlers", "ServerOptions"]);
    imports.add("./methods.js", "SESSION", false);
    imports.add("./methods.js", "REGISTRY_FACTS", false);
    imports.addTypes("./methods.js", ["ClientRequestMap", "HTTP_BINDING", "ServerNotificationMap"]);
    if (ir) {
      imports.addTypes("./methods.js", ["ServerRequestMap"]);
      imports.add("./validators.js", "validators", false);
    }
    return renderTemplate("registry", {
      ...headerView(model, env),
      imports: imports.render(),
      logLevelType: `T.${logLevelType}`,
      toolResult: `T.${toolResult}`,
      stateless,
      outputSchemas,
      caching: cacheFields && {
        fields: cacheFields.map(stringLiteral).join(" | "),
        option: `Partial<Pick<T.${cacheOwner}, ${cacheFields.map(stringLiteral).join(" | ")}>>`,
      },
      inputRequired: ir && {
        result: `T.${ir.result}`,
        methods: inputMethods.map((m) => stringLiteral(m.method)).join(" | "),
        checks: `{ ${inputMethods
          .map((m) => `${stringLiteral(m.method)}: validators.${(m.result as { name: string }).name}.is`)
          .join(", ")} }`,
      },
    });
  },
};
