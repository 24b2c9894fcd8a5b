// Small functions the checks of a generated validator call (string length in code points,
// `multipleOf`, `uniqueItems`) and the format checks share (formats.ts). A generated validators.ts
// inlines the region of each one it calls (generators/emit/validate/support-code.ts), without the
// `export`; an `mcp-gen tools` module imports them.

// #region codePoints
/** String length in Unicode code points, as JSON Schema counts it. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
// #endregion

// #region decimal
/** The value of the ASCII digits s[from, to), or -1 if one of them is not a digit. */
export function decimal(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    n = n * 10 + d;
  }
  return n;
}
// #endregion

// #region isAlphanumeric
/** An ASCII letter or digit. */
export function isAlphanumeric(c: number): boolean {
  const lower = c | 32;
  return (c >= 48 && c <= 57) || (lower >= 97 && lower <= 122);
}
// #endregion

// #region isHexDigit
export function isHexDigit(c: number): boolean {
  const lower = c | 32;
  return (c >= 48 && c <= 57) || (lower >= 97 && lower <= 102);
}
// #endregion

// #region multipleOf
/** `multipleOf`, as ajv decides it: the quotient is an integer (floating-point division, like ajv). */
export function multipleOf(value: number, step: number): boolean {
  return Number.isInteger(value / step);
}
// #endregion

// #region uniqueItems
/** `uniqueItems`: no two items are equal as JSON values (objects compared key by key). */
export function uniqueItems(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Readonly<Record<string, unknown>>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
// #endregion
