// Errors the CLI reports without a stack trace, each with its exit code.

/** Exit codes: 0 ok, 1 drift or validation failure, 2 usage or input error, 3 internal error (a bug). */
export const EXIT = { ok: 0, drift: 1, input: 2, internal: 3 } as const;

export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** Bad input: a usage mistake, a missing or malformed spec source. Exit 2. */
export class InputError extends Error {
  readonly exitCode: number = EXIT.input;
  constructor(
    message: string,
    readonly location?: SourceLocation,
  ) {
    super(location ? `${location.file}:${location.line}:${location.column}: ${message}` : message);
    this.name = "InputError";
  }
}
