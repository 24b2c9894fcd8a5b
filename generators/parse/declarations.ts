// Top-level statements of schema.ts → model declarations and constants, in source order.
import { Node, VariableDeclarationKind, type SourceFile } from "./ts-morph.js";
import type { Constant, Declaration, LiteralValue } from "../model/model.js";
import { readTags, type TagFacts } from "./jsdoc.js";
import { convertMembers, convertReference, convertType, literalValue, type ConvertContext } from "./type-node.js";

export function readDeclarations(
  file: SourceFile,
  fail: ConvertContext["fail"],
): { constants: Constant[]; declarations: Declaration[] } {
  const declared = new Set<string>();
  const constantValues = new Map<string, LiteralValue>();
  const constants: Constant[] = [];
  const lineOf = lineNumbers(file.getFullText());

  // First pass: names and constant values, so references may point forward.
  for (const statement of file.getStatements()) {
    if (Node.isInterfaceDeclaration(statement) || Node.isTypeAliasDeclaration(statement)) {
      const name = statement.getName();
      if (declared.has(name)) fail(statement, `duplicate declaration ${name}`);
      declared.add(name);
    } else if (Node.isVariableStatement(statement)) {
      if (statement.getDeclarationKind() !== VariableDeclarationKind.Const) {
        fail(statement, "only `const` declarations are supported");
      }
      const tags = readTags(statement, fail);
      for (const decl of statement.getDeclarations()) {
        const init = decl.getInitializer();
        const value = init ? literalValue(init) : undefined;
        if (value === undefined) fail(decl, `constant ${decl.getName()} must be initialised with a literal`);
        constantValues.set(decl.getName(), value);
        constants.push({
          name: decl.getName(),
          value,
          line: lineOf(decl.getStart()),
          ...category(tags),
          ...tags.markers,
        });
      }
    } else if (!Node.isEmptyStatement(statement)) {
      fail(statement, `unsupported top-level statement (${statement.getKindName()})`);
    }
  }

  const ctx: ConvertContext = { declared, constants: constantValues, fail };
  const declarations: Declaration[] = [];
  for (const statement of file.getStatements()) {
    if (Node.isInterfaceDeclaration(statement)) {
      if (statement.getTypeParameters().length > 0) fail(statement, "unsupported generic interface");
      const tags = readTags(statement, fail);
      const body = convertMembers(statement, ctx);
      declarations.push({
        kind: "interface",
        name: statement.getName(),
        line: lineOf(statement.getStart()),
        ...category(tags),
        ...tags.markers,
        ...(tags.constraints ? { constraints: tags.constraints } : {}),
        extends: statement.getExtends().map((heritage) => {
          const expr = heritage.getExpression();
          if (!Node.isIdentifier(expr)) fail(heritage, `unsupported base type ${heritage.getText()}`);
          return convertReference(expr.getText(), heritage.getTypeArguments(), heritage, ctx);
        }),
        properties: body.properties,
        ...(body.indexSignature ? { indexSignature: body.indexSignature } : {}),
      });
    } else if (Node.isTypeAliasDeclaration(statement)) {
      if (statement.getTypeParameters().length > 0) fail(statement, "unsupported generic type alias");
      const tags = readTags(statement, fail);
      const typeNode = statement.getTypeNode();
      if (!typeNode) fail(statement, "type alias without a type");
      declarations.push({
        kind: "alias",
        name: statement.getName(),
        line: lineOf(statement.getStart()),
        ...category(tags),
        ...tags.markers,
        ...(tags.constraints ? { constraints: tags.constraints } : {}),
        type: convertType(typeNode, ctx),
      });
    }
  }
  return { constants, declarations };
}

function category(tags: TagFacts): { category?: string } {
  return tags.category ? { category: tags.category } : {};
}

/**
 * The 1-based line of a position, counting "\n" as ts-morph's getStartLineNumber() does, by a binary
 * search over the line breaks: getStartLineNumber() scans the file from its start on every call.
 */
function lineNumbers(text: string): (position: number) => number {
  const breaks: number[] = [];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) breaks.push(at);
  return (position) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((breaks[mid] as number) < position) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}
