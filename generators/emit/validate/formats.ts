// The string formats validators check, each a region of runtime/validation/formats.ts that a
// generated validators.ts inlines (and a tools module imports), so generated code needs no library.
// Which formats exist and how each is read is documented in docs/validators.md.

export interface FormatCheck {
  /** The checking function its region defines. */
  fn: string;
  /** Shared helpers (regions of runtime/validation/helpers.ts) the function calls. */
  helpers: string[];
  /** Other formats whose functions it calls. */
  formats?: string[];
}

export const FORMATS: Readonly<Record<string, FormatCheck>> = {
  byte: { fn: "isByte", helpers: [] },
  date: { fn: "isDate", helpers: ["decimal"] },
  "date-time": { fn: "isDateTime", helpers: [], formats: ["date", "time"] },
  duration: { fn: "isDuration", helpers: ["decimal"] },
  email: { fn: "isEmail", helpers: ["isAlphanumeric"] },
  hostname: { fn: "isHostname", helpers: ["isAlphanumeric"] },
  ipv4: { fn: "isIpv4", helpers: [] },
  ipv6: { fn: "isIpv6", helpers: ["isHexDigit"], formats: ["ipv4"] },
  "json-pointer": { fn: "isJsonPointer", helpers: [] },
  time: { fn: "isTime", helpers: ["decimal"] },
  uri: { fn: "isUri", helpers: ["isHexDigit"] },
  "uri-template": { fn: "isUriTemplate", helpers: ["isHexDigit"] },
  uuid: { fn: "isUuid", helpers: [] },
};

/** The formats, and those their functions call, whose regions a file using `used` needs. */
export function formatsNeeded(used: Iterable<string>): string[] {
  const needed = new Set<string>();
  const add = (format: string) => {
    if (needed.has(format)) return;
    needed.add(format);
    for (const callee of FORMATS[format]?.formats ?? []) add(callee);
  };
  for (const format of used) add(format);
  return [...needed].sort();
}
