// The error every model pass throws when the schema does not fit the model; the parser
// turns it into an input error at the named declaration's line.
export class ModelError extends Error {
  constructor(
    message: string,
    /** The declaration the problem is in, when there is one. */
    readonly declaration?: string,
  ) {
    super(message);
    this.name = "ModelError";
  }
}
