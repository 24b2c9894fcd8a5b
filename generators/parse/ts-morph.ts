// ts-morph, loaded with require rather than import: an ESM import of a CommonJS package first scans
// its sources for their named exports (cjs-module-lexer), about 0.2 s of every generating run spent
// on the TypeScript compiler ts-morph bundles. The parser modules import ts-morph from here.
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const { Node, Project, SyntaxKind, VariableDeclarationKind, ts } = tsMorph;
export type Node<T extends TsMorph.ts.Node = TsMorph.ts.Node> = TsMorph.Node<T>;
export type SyntaxKind = TsMorph.SyntaxKind;
export type { SourceFile, TypeNode } from "ts-morph";
