// Validator code for a set of declarations: guard and explain functions, and what they need
// (the checks' patterns and constants, and the support code, support-code.ts, where it is inlined).
// Shared by the per-revision validators.ts and by every other module that checks values (tool
// wrappers, which import the support).
import type { Declaration, Model, TypeNode } from "../../model/model.js";
import { CheckFactory, type Usage } from "./checks.js";
import { ValidationPlan } from "./plan.js";
import { CheckPrinter } from "./print-checks.js";
import { supportCode, type SupportFunction } from "./support-code.js";

export type CheckedModel = Pick<Model, "declarations" | "conventions">;

export interface BuilderOptions {
  /** Called for a constraint no check exists for; without it, such a constraint is an error. */
  unsupported?: (what: string) => void;
  /** Guards that record where they failed (default); `false` for tests that compare with the explaining pass alone. */
  trail?: boolean;
}

export class ValidatorBuilder {
  readonly functions: string[] = [];
  private readonly plan: ValidationPlan;
  private readonly usage: Usage = { formats: new Set(), helpers: new Set(), patterns: [] };
  private readonly factory: CheckFactory;
  private readonly printer: CheckPrinter;

  constructor(model: CheckedModel, options: BuilderOptions = {}) {
    this.printer = new CheckPrinter(options.trail);
    this.plan = new ValidationPlan(model);
    this.factory = new CheckFactory(this.plan, this.usage, options.unsupported);
  }

  /** `g_<name>` and `x_<name>` for every declaration. */
  addDeclarations(declarations: readonly Declaration[] = this.plan.model.declarations): void {
    for (const decl of declarations) {
      this.push(this.printer.functions(decl.name, this.factory.declaration(decl), this.plan.recursive.has(decl.name)));
    }
  }

  /** `g_<name>` and `x_<name>` for a type that is not a declaration. */
  addNode(name: string, node: TypeNode): void {
    this.push(this.printer.functions(name, this.factory.node(node), false));
  }

  /**
   * The guard each named type's entry points (`validate`, `is`) call: its own copy `e_<name>` when
   * other guards call `g_<name>` too (see CheckPrinter.entryGuard), else `g_<name>`. Call after
   * every declaration is added.
   */
  entryGuards(names: readonly string[]): Map<string, string> {
    // Every guard named in the printed code, counted in one pass (one of them is its definition).
    const calls = new Map<string, number>();
    for (const [, called] of this.functions.join("\n").matchAll(/\bg_([\w$]+)\(/g)) {
      calls.set(called as string, (calls.get(called as string) ?? 0) + 1);
    }
    const entries = new Map<string, string>();
    for (const name of names) {
      if ((calls.get(name) ?? 0) > 1) {
        this.functions.push(this.printer.entryGuard(name));
        entries.set(name, `e_${name}`);
      } else entries.set(name, `g_${name}`);
    }
    return entries;
  }

  private push(functions: string): void {
    this.functions.push(functions, ...this.printer.takeHoisted());
  }

  /**
   * What a template places of the code built: `support`, the support code the file inlines (the
   * regions of runtime/validation/ it needs, then the checks' patterns and expectation constants),
   * and `functions`, the guard and explain functions. `templateUses` names the support functions
   * the surrounding template calls itself.
   */
  supportView(templateUses: readonly SupportFunction[] = []): { support: string; functions: string } {
    const declarations = this.printer.constantDeclarations();
    const support = supportCode({
      code: [...this.functions, ...declarations].join("\n"),
      templateUses,
      recursive: this.plan.recursive.size > 0,
      usage: this.usage,
    });
    return {
      support: [support, this.constants(declarations)].filter((part) => part !== "").join("\n\n"),
      functions: this.functions.join("\n\n"),
    };
  }

  /**
   * The code built, for a file that imports the support (runtime/validation/) instead of inlining
   * it: `constants`, the checks' patterns and expectation constants, and `functions`.
   */
  codeView(): { constants: string; functions: string } {
    return {
      constants: this.constants(this.printer.constantDeclarations()),
      functions: this.functions.join("\n\n"),
    };
  }

  private constants(declarations: readonly string[]): string {
    return [...this.usage.patterns, declarations.join("\n")].filter((part) => part !== "").join("\n\n");
  }
}
