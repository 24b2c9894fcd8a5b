// schema.ts → model. The only module that drives ts-morph: one project and one type
// checker serve every revision parsed in a run.
import { Node, Project, ts, type SourceFile } from "./ts-morph.js";
import { InputError, type SourceLocation } from "../errors.js";
import { buildEnvelopes, hasBatches } from "../model/envelopes.js";
import { ModelError } from "../model/errors.js";
import { buildMethodMap, type MethodInferences } from "../model/method-map.js";
import { buildProtocol } from "../model/protocol.js";
import { MODEL_VERSION, type Declaration, type Model } from "../model/model.js";
import { resolveShapes } from "../model/resolve-shapes.js";
import { readDeclarations } from "./declarations.js";

export interface SchemaInput {
  revision: string;
  /** Where the text came from; used in error messages. */
  path: string;
  text: string;
  source: Model["source"];
  conventions: Model["conventions"];
}

export class SchemaParser {
  // ES5's lib only: it declares the only built-in types a schema may use (Array, Record, Omit; see
  // convertReference), in less than half the text of ES2022's lib, which the checker parsed and
  // bound on every run (0.2-0.3 s). A schema naming a later built-in fails either way, with file:line.
  private readonly project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es5.d.ts"], noEmit: true },
  });

  constructor(private readonly inferences: MethodInferences) {}

  parse(input: SchemaInput): Model {
    // One virtual file per revision, so a run that parses all six shares the checker's lib work.
    const file = this.project.createSourceFile(`/${input.revision}/schema.ts`, input.text, { overwrite: true });
    const fail = (at: Node, message: string): never => {
      throw new InputError(message, locate(input.path, file, at.getStart()));
    };
    this.checkDiagnostics(input.path, file);

    const read = readDeclarations(file, fail);
    const located = (name: string | undefined, message: string): InputError => {
      const decl = read.declarations.find((d) => d.name === name);
      return new InputError(message, decl ? { file: input.path, line: decl.line, column: 1 } : undefined);
    };
    try {
      const declarations = resolveShapes(read.declarations);
      crossCheckShapes(file, declarations, (name, message) => {
        throw located(name, message);
      });
      const methods = buildMethodMap(declarations, this.inferences);
      const envelopes = buildEnvelopes(declarations, this.inferences.messageUnion);
      if (!envelopes) {
        throw new ModelError(`no ${this.inferences.messageUnion} union: cannot tell JSON-RPC messages apart`);
      }
      return {
        modelVersion: MODEL_VERSION,
        revision: input.revision,
        source: input.source,
        conventions: input.conventions,
        constants: read.constants,
        declarations,
        envelopes,
        methods,
        protocol: buildProtocol(
          declarations,
          methods,
          read.constants,
          this.inferences.protocol,
          {
            revision: input.revision,
            batches: hasBatches(envelopes),
          },
          this.inferences.paramCapabilities,
        ),
      };
    } catch (e) {
      if (e instanceof ModelError) throw located(e.declaration, e.message);
      throw e;
    }
  }

  private checkDiagnostics(path: string, file: SourceFile): void {
    const program = this.project.getProgram().compilerObject;
    const syntactic = program.getSyntacticDiagnostics(file.compilerNode);
    const diagnostics = syntactic.length > 0 ? syntactic : program.getSemanticDiagnostics(file.compilerNode);
    const first = diagnostics[0];
    if (!first) return;
    const message = ts.flattenDiagnosticMessageText(first.messageText, " ");
    const more = diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : "";
    throw new InputError(`${message}${more}`, locate(path, file, first.start ?? 0));
  }
}

function locate(path: string, file: SourceFile, position: number): SourceLocation {
  const { line, column } = file.getLineAndColumnAtPos(position);
  return { file: path, line, column };
}

/**
 * Our own inheritance resolution must give every object type the same property names and
 * optionality as TypeScript's checker; a difference means the model misreads the schema.
 */
function crossCheckShapes(
  file: SourceFile,
  declarations: Declaration[],
  fail: (name: string, message: string) => never,
): void {
  for (const decl of declarations) {
    if (!decl.resolved) continue;
    const node = decl.kind === "interface" ? file.getInterface(decl.name) : file.getTypeAlias(decl.name);
    if (!node) continue;
    const actual = node
      .getType()
      .getProperties()
      .map((s) => `${s.getName()}${s.hasFlags(ts.SymbolFlags.Optional) ? "?" : ""}`)
      .sort();
    const ours = decl.resolved.properties.map((p) => `${p.name}${p.optional ? "?" : ""}`).sort();
    if (actual.join() !== ours.join()) {
      fail(
        decl.name,
        `${decl.name}: resolved properties [${ours.join(", ")}] differ from the type checker's [${actual.join(", ")}]`,
      );
    }
  }
}
