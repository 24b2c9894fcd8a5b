// schema.ts → model. The only module that drives ts-morph: one project and one type
// checker serve every revision parsed in a run.
import { Node, Project, ts, type SourceFile } from "./ts-morph.js";
import { InputError, type SourceLocation } from "../errors.js";
import { ModelError } from "../model/errors.js";
import type { MethodInferences } from "../model/inference-table.js";
import type { Declaration, Model } from "../model/model.js";
import { runPasses } from "../model/passes.js";
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
    try {
      const { revision, source, conventions } = input;
      return runPasses({ revision, source, conventions, ...read }, this.inferences, (declarations) =>
        crossCheckShapes(file, declarations),
      );
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      const decl = read.declarations.find((d) => d.name === e.declaration);
      throw new InputError(e.message, decl ? { file: input.path, line: decl.line, column: 1 } : undefined);
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
function crossCheckShapes(file: SourceFile, declarations: Declaration[]): void {
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
      throw new ModelError(
        `${decl.name}: resolved properties [${ours.join(", ")}] differ from the type checker's [${actual.join(", ")}]`,
        decl.name,
      );
    }
  }
}
