// Errors of the file system said in words, for the lines that name a file or the output.

/** A folder where a file was wanted, whether an open failed on it (EISDIR) or a look found it first. */
export const DIRECTORY_NOT_FILE = 'a directory, not a file';

/** Why a file operation failed, in words: "no such file", not "ENOENT: no such file or directory, open ...". */
export function fileErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR' || code === 'ERR_FS_EISDIR') return DIRECTORY_NOT_FILE;
  const message = error instanceof Error ? error.message : String(error);
  // Node's "EMFILE: too many open files, open '/x'": the words without the code and the call.
  return /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}

/** stdout failing for another reason than its reader leaving: "cannot write the output: no space left on device (ENOSPC)". */
export function outputFailureText(error: NodeJS.ErrnoException): string {
  return `cannot write the output: ${fileErrorText(error)} (${error.code ?? 'unknown'})`;
}
