// A source file cut into named regions, from a line `// #region <name>` to a line `// #endregion`
// (indented or not; regions nest): the support code generated validators inline
// (runtime/validation/) is TypeScript kept that way, which the type checker and prettier see
// whole, and a generated file gets only the regions it needs. Only regions are emitted: the text
// outside them (a file's opening comment, its imports) is the source's own, and so is the `export`
// of a declaration in a region the splice is not told to keep exported. What the source exports,
// and whether only as a type, is read from its `export` lines, for modules that import it instead.
import { readFileSync } from "node:fs";

/** A region's name and lines, some of them the regions nested in it. */
interface Region {
  readonly name: string;
  readonly body: (string | Region)[];
}

/** A name the source exports: whether only as a type, and the top-level region it is declared in. */
export interface Export {
  readonly type: boolean;
  readonly region: string | undefined;
}

const START = /^\s*\/\/ #region (\S+)$/;
const END = /^\s*\/\/ #endregion$/;
const EXPORT = /^export (?:declare )?(?:(function|class|const|let|var)|interface|type|namespace) ([\w$]+)/;

export class RegionSource {
  /** Every region's name, nested ones included. */
  readonly names = new Set<string>();
  /** The names its top-level declarations export (a value and a type of one name: not a type). */
  readonly exports = new Map<string, Export>();
  /** The top-level regions, in source order. */
  private readonly regions: Region[] = [];

  constructor(readonly file: string) {
    const open: Region[] = [];
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const start = START.exec(line);
        if (start) {
          const region: Region = { name: start[1] as string, body: [] };
          (open.at(-1)?.body ?? this.regions).push(region);
          this.names.add(region.name);
          open.push(region);
        } else if (END.test(line)) {
          if (!open.pop()) throw new Error(`${file}:${i + 1}: #endregion outside a region`);
        } else {
          open.at(-1)?.body.push(line);
          const exported = EXPORT.exec(line);
          if (exported) this.export(exported[2] as string, exported[1] === undefined, open[0]?.name);
        }
      });
    if (open.length > 0) throw new Error(`${file}: region ${open.at(-1)?.name} has no #endregion`);
  }

  private export(name: string, type: boolean, region: string | undefined): void {
    const known = this.exports.get(name);
    this.exports.set(name, { type: type && (known?.type ?? true), region: known?.region ?? region });
  }

  /**
   * The regions named in `selected`, in source order and a blank line apart, without their marker
   * lines; a nested region is kept only where its enclosing one is. The top-level declarations of
   * a region not in `exported` lose their `export`: it is there for the source's importers.
   */
  splice(selected: ReadonlySet<string>, exported: ReadonlySet<string> = new Set()): string {
    const lines = (region: Region): string[] =>
      region.body.flatMap((line) => (typeof line === "string" ? [line] : selected.has(line.name) ? lines(line) : []));
    return this.regions
      .filter((region) => selected.has(region.name))
      .map((region) => {
        const text = lines(region).join("\n");
        return exported.has(region.name) ? text : text.replace(/^export /gm, "");
      })
      .join("\n\n");
  }
}
