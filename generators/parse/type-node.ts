// TypeScript type syntax → model type nodes. Anything the model cannot represent
// faithfully is rejected with its location instead of being approximated.
import { Node, SyntaxKind, type TypeNode as TsTypeNode } from "./ts-morph.js";
import type { IndexSignature, LiteralValue, PrimitiveName, Property, TypeNode } from "../model/model.js";
import { readTags } from "./jsdoc.js";

export interface ConvertContext {
  /** Names of the file's type declarations. */
  declared: ReadonlySet<string>;
  /** Values of the file's `export const` declarations. */
  constants: ReadonlyMap<string, LiteralValue>;
  fail(at: Node, message: string): never;
}

const KEYWORDS: Partial<Record<SyntaxKind, PrimitiveName>> = {
  [SyntaxKind.StringKeyword]: "string",
  [SyntaxKind.NumberKeyword]: "number",
  [SyntaxKind.BooleanKeyword]: "boolean",
  [SyntaxKind.UnknownKeyword]: "unknown",
  [SyntaxKind.AnyKeyword]: "any",
  [SyntaxKind.ObjectKeyword]: "object",
  [SyntaxKind.UndefinedKeyword]: "undefined",
  [SyntaxKind.NeverKeyword]: "never",
  [SyntaxKind.NullKeyword]: "null",
};

export function convertType(node: TsTypeNode, ctx: ConvertContext): TypeNode {
  const keyword = KEYWORDS[node.getKind()];
  if (keyword) return { kind: "primitive", name: keyword };

  if (Node.isParenthesizedTypeNode(node)) return convertType(node.getTypeNode(), ctx);
  if (Node.isLiteralTypeNode(node)) return convertLiteral(node, ctx);
  if (Node.isArrayTypeNode(node)) return { kind: "array", items: convertType(node.getElementTypeNode(), ctx) };
  if (Node.isUnionTypeNode(node)) {
    return { kind: "union", members: node.getTypeNodes().map((t) => convertType(t, ctx)) };
  }
  if (Node.isIntersectionTypeNode(node)) {
    return { kind: "intersection", members: node.getTypeNodes().map((t) => convertType(t, ctx)) };
  }
  if (Node.isTypeLiteral(node)) return convertMembers(node, ctx);
  if (Node.isTypeQuery(node)) {
    const name = node.getExprName().getText();
    const value = ctx.constants.get(name);
    if (value === undefined) ctx.fail(node, `typeof ${name}: ${name} is not a constant of this schema`);
    return { kind: "typeof", name, value };
  }
  if (Node.isTypeReference(node)) {
    const nameNode = node.getTypeName();
    if (!Node.isIdentifier(nameNode)) ctx.fail(node, `unsupported qualified type name ${nameNode.getText()}`);
    return convertReference(nameNode.getText(), node.getTypeArguments(), node, ctx);
  }
  return ctx.fail(node, `unsupported type construct (${node.getKindName()}): ${abbreviate(node.getText())}`);
}

/** A named type with optional type arguments: a declaration, or one of the supported built-ins. */
export function convertReference(name: string, args: TsTypeNode[], at: Node, ctx: ConvertContext): TypeNode {
  const arity = (n: number) => {
    if (args.length !== n) ctx.fail(at, `${name}<> takes ${n} type argument(s), got ${args.length}`);
  };
  const arg = (i: number): TsTypeNode => args[i] as TsTypeNode;
  switch (name) {
    case "Array":
      arity(1);
      return { kind: "array", items: convertType(arg(0), ctx) };
    case "Record":
      arity(2);
      return { kind: "record", key: convertType(arg(0), ctx), value: convertType(arg(1), ctx) };
    case "Omit": {
      arity(2);
      const keys = convertType(arg(1), ctx);
      const members = keys.kind === "union" ? keys.members : [keys];
      const names = members.map((m) => (m.kind === "literal" && typeof m.value === "string" ? m.value : undefined));
      if (names.some((n) => n === undefined)) ctx.fail(arg(1), "Omit<> keys must be string literals");
      return { kind: "omit", type: convertType(arg(0), ctx), keys: names as string[] };
    }
  }
  if (!ctx.declared.has(name)) ctx.fail(at, `unknown type ${name}`);
  if (args.length > 0) ctx.fail(at, `unsupported generic type ${name}<...>`);
  return { kind: "ref", name };
}

function convertLiteral(node: Node & { getLiteral(): Node }, ctx: ConvertContext): TypeNode {
  const literal = node.getLiteral();
  if (Node.isStringLiteral(literal) || Node.isNoSubstitutionTemplateLiteral(literal)) {
    return { kind: "literal", value: literal.getLiteralValue() };
  }
  if (Node.isNumericLiteral(literal)) return { kind: "literal", value: literal.getLiteralValue() };
  if (Node.isTrueLiteral(literal)) return { kind: "literal", value: true };
  if (Node.isFalseLiteral(literal)) return { kind: "literal", value: false };
  if (literal.getKind() === SyntaxKind.NullKeyword) return { kind: "primitive", name: "null" };
  const value = literalValue(literal);
  if (value !== undefined) return { kind: "literal", value };
  return ctx.fail(node, `unsupported literal type ${node.getText()}`);
}

/** The value of a literal expression (`"x"`, `1`, `-1`, `true`), or undefined. */
export function literalValue(expr: Node): LiteralValue | undefined {
  if (Node.isAsExpression(expr) && expr.getTypeNode()?.getText() === "const") return literalValue(expr.getExpression());
  if (Node.isStringLiteral(expr) || Node.isNoSubstitutionTemplateLiteral(expr)) return expr.getLiteralValue();
  if (Node.isNumericLiteral(expr)) return expr.getLiteralValue();
  if (Node.isTrueLiteral(expr)) return true;
  if (Node.isFalseLiteral(expr)) return false;
  if (Node.isPrefixUnaryExpression(expr) && expr.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = expr.getOperand();
    if (Node.isNumericLiteral(operand)) return -operand.getLiteralValue();
  }
  return undefined;
}

type MemberContainer = Node & { getMembers(): Node[] };

/** Members of a type literal or interface body. */
export function convertMembers(
  container: MemberContainer,
  ctx: ConvertContext,
): { kind: "object"; properties: Property[]; indexSignature?: IndexSignature } {
  const properties: Property[] = [];
  let indexSignature: IndexSignature | undefined;
  for (const member of container.getMembers()) {
    if (Node.isPropertySignature(member)) {
      if (member.isReadonly()) ctx.fail(member, "unsupported readonly property");
      const nameNode = member.getNameNode();
      if (!Node.isIdentifier(nameNode) && !Node.isStringLiteral(nameNode)) {
        ctx.fail(member, `unsupported property name ${nameNode.getText()}`);
      }
      const name = Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText();
      if (properties.some((p) => p.name === name)) ctx.fail(member, `duplicate property ${name}`);
      const typeNode = member.getTypeNode();
      if (!typeNode) ctx.fail(member, `property ${name} has no type`);
      const tags = readTags(member, ctx.fail);
      if (tags.category) ctx.fail(member, "@category belongs on declarations, not properties");
      properties.push({
        name,
        optional: member.hasQuestionToken(),
        type: convertType(typeNode, ctx),
        ...(tags.constraints ? { constraints: tags.constraints } : {}),
        ...tags.markers,
      });
    } else if (Node.isIndexSignatureDeclaration(member)) {
      if (indexSignature) ctx.fail(member, "more than one index signature");
      const keyType = member.getKeyTypeNode().getText();
      if (keyType !== "string" && keyType !== "number") ctx.fail(member, `unsupported index key type ${keyType}`);
      const returnType = member.getReturnTypeNode();
      if (!returnType) ctx.fail(member, "index signature has no type");
      const tags = readTags(member, ctx.fail);
      indexSignature = {
        keyName: member.getKeyName(),
        keyType,
        type: convertType(returnType, ctx),
        ...(tags.constraints ? { constraints: tags.constraints } : {}),
      };
    } else {
      ctx.fail(member, `unsupported member (${member.getKindName()}): ${abbreviate(member.getText())}`);
    }
  }
  return indexSignature ? { kind: "object", properties, indexSignature } : { kind: "object", properties };
}

function abbreviate(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > 60 ? line.slice(0, 57) + "..." : line;
}
