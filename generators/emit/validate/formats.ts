// The string formats validators check, each emitted into the generated file from its
// template (templates/partials/formats/), so generated code needs no library.
// Which formats exist and how each is read is documented in docs/validators.md.

export interface FormatCheck {
  /** The checking function the template defines. */
  fn: string;
  /** Shared helpers (templates/partials/helpers/) the function calls. */
  helpers: string[];
}

export const FORMATS: Readonly<Record<string, FormatCheck>> = {
  byte: { fn: "isByte", helpers: [] },
  uri: { fn: "isUri", helpers: ["isHexDigit"] },
  "uri-template": { fn: "isUriTemplate", helpers: ["isHexDigit"] },
};
