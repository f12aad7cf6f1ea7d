// What the bin's loader of the commands' bundles (bundle-loader.ts) and npm's postinstall
// (install-cache.ts) both know: the build's bundles, and the names of their cached code's files.
import type { ProgramGrammar } from './cmdutil/quick-parse.js';

/** Written by the build (scripts/build-commands.mjs). */
declare const TKT_COMMAND_BUNDLES: {
  /** Each word that names a command with a bundle (its name and aliases): the bundle's name. */
  commands: Record<string, string>;
  /** The program's options (dist/argv-table.json), which may stand before the command's word. */
  program: ProgramGrammar;
  /** Each bundle, the commands' (commands/NAME.cjs) and the dependencies' they share (vendor/NAME.cjs): a hash of its content. */
  hashes: Record<string, string>;
};

export const COMMAND_BUNDLES = TKT_COMMAND_BUNDLES;

/** What every bundle starts with (scripts/build-commands.mjs writes it): its hash, in a comment. */
export const bundleStamp = (hash: string): string => `/*tkt ${hash}*/`;

/** The install's cache, beside the bundles (dist/code-cache/), written by npm's postinstall. */
export const INSTALL_CACHE = 'code-cache';

/** One file per bundle, build, Node and flags: V8 checks its own version and flags, not the source. */
export function cacheFileName(bundle: string, hash: string, flags: string): string {
  return `${bundle.replace('/', '-')}.${hash}.${process.version}-${process.arch}${flags}.v8`;
}
