// A run under way while tkt's own files are replaced (an upgrade: npm replaces an installed
// package in place) finds another build's files, or none, where its own were.

/** The code of the error a command's bundle gives for another build's file (src/bundle-loader.ts). */
export const BUILD_CHANGED = 'TKT_BUILD_CHANGED';

/**
 * The lines a run that met another build's files ends with, or undefined for any other failure:
 * a bundle of another build (BUILD_CHANGED), or a file of the full CLI (dist/) gone. Told by the
 * run's error handling (src/cli-run.ts), and by the bin for what comes before it or after it.
 */
export function buildChangedLines(error: unknown): [string, string] | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code } = error as NodeJS.ErrnoException;
  const message =
    code === BUILD_CHANGED
      ? error.message
      : code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]/.test(error.message)
        ? `tkt's files changed while it ran (an upgrade?): ${error.message}`
        : undefined;
  // The same line again on the next run is no upgrade under way: files of the installation are missing.
  return message === undefined ? undefined : [`error: ${message}`, 'hint: run the command again (if it says this again, reinstall tkt)'];
}
