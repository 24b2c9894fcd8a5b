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

/** What a Node file-system error code means, in the words of a one-line message. */
const FILE_SYSTEM_REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "not a directory (or a part of the path is a file)",
  EISDIR: "is a directory",
  EEXIST: "already exists",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  ENAMETOOLONG: "name too long",
  ELOOP: "too many levels of symbolic links",
  EBUSY: "busy",
  EMFILE: "too many open files",
};

/** An error from a Node file-system call that names its path. */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string; path: string } {
  return hasCode(error) && typeof error.path === "string";
}

function hasCode(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/** `path: permission denied`: the one line the CLI prints for a file-system error (exit 2). */
export function fileSystemMessage(error: { code: string; path?: string }, path = error.path): string {
  return `${path}: ${FILE_SYSTEM_REASONS[error.code] ?? error.code}`;
}

/**
 * A file-system error as an input error naming `path`: a target rather than its staging file, or
 * the file a read failed on (a read of a directory, EISDIR, names no path of its own).
 */
export function fileSystemError(error: unknown, path: string): unknown {
  return hasCode(error) ? new InputError(fileSystemMessage(error, path)) : error;
}
