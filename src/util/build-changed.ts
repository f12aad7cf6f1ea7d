// A run under way while tkt's own files are replaced (an upgrade: npm replaces an installed
// package in place) finds another build's files, or none, where its own were.

/** The code of the error a command's bundle gives for another build's file (src/bundle-loader.ts). */
export const BUILD_CHANGED = 'TKT_BUILD_CHANGED';

/**
 * What a run that met another build's files says, or undefined for any other failure: a bundle
 * of another build (BUILD_CHANGED), or a file of the full CLI (dist/chunks/) gone.
 */
export function buildChangedMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as NodeJS.ErrnoException;
  if (code === BUILD_CHANGED) return error.message;
  if (code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]chunks[\\/]/.test(error.message))
    return `tkt's files changed while it ran (an upgrade?): ${error.message}`;
  return undefined;
}
