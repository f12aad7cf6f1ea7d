// The bin's way into a command's own bundle (dist/commands/NAME.cjs, src/command-bundle.ts), built
// to dist/bundles.cjs. A bundle is compiled with V8's code cache of an earlier run, kept in the
// config folder (cache/code/), so that a run parses and compiles almost none of tkt's own
// JavaScript: on Node 20, which has no compile cache of its own, that work was half of what a
// request command cost over a bare script (docs/architecture.md, "Command bundles").
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { Script } from 'node:vm';
import { inFolder } from './util/folder-path.js';
import { releaseBytes } from './util/release-bytes.js';
import type { BundleRun } from './command-bundle.js';
import { defaultConfigDir } from './config/paths.js';
import { namesProxy } from './api/proxy-env.js';
import { commandWord, type ProgramGrammar } from './cmdutil/quick-parse.js';
import { BUILD_CHANGED } from './util/build-changed.js';

// For the bin, which tells another build's file met outside a run's error handling as it does.
export { buildChangedLines } from './util/build-changed.js';

/** Written by the build (scripts/build-commands.mjs). */
declare const TKT_COMMAND_BUNDLES: {
  /** Each word that names a command with a bundle (its name and aliases): the bundle's name. */
  commands: Record<string, string>;
  /** The program's options (dist/argv-table.json), which may stand before the command's word. */
  program: ProgramGrammar;
  /** Each bundle, the commands' (commands/NAME.cjs) and the dependencies' they share (vendor/NAME.cjs): a hash of its content. */
  hashes: Record<string, string>;
};

/** How a bundle asks for another file: the rest of its command, a dependency (scripts/build-commands.mjs). */
const BUNDLE_PREFIX = 'tkt-bundle:';

interface CodeCache {
  /** The folder of the cached code, or undefined: nothing is read or written. */
  dir: string | undefined;
  /** What the V8 flags the code is compiled under add to its files' names. */
  flags: string;
  /** The scripts compiled without usable cached code: written when the run ends well. */
  stale: Array<{ script: Script; file: string }>;
  /** The exports of each bundle run so far (each runs once a run: one instance of each module). */
  loaded: Map<string, unknown>;
}

/**
 * The cache's folder: in the config folder, once tkt has one (a CI job that never logged in gets
 * no folder made for it); none when NODE_DISABLE_COMPILE_CACHE is set, as for Node's own cache.
 * Cached code runs as the user: unless the config folder, cache/ and cache/code/ are each the
 * user's (or root's) and closed to writes by others, none is used at all, since whoever may write
 * one of them could put another folder in the place of the one checked.
 */
function cacheFolder(env: Record<string, string | undefined>): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined && env.NODE_DISABLE_COMPILE_CACHE !== '') return undefined;
  const config = defaultConfigDir(env);
  // A user with no home folder has no config folder either (docker run --user 54321).
  if (config === undefined) return undefined;
  // The config folder may be a symbolic link (to a dotfiles folder): the folder it names is checked.
  const folders: Array<[string, (file: string) => Stats]> = [
    [config, statSync],
    [inFolder(config, 'cache'), lstatSync],
    [inFolder(config, 'cache', 'code'), lstatSync],
  ];
  for (const [index, [folder, stat]] of folders.entries()) {
    let info: Stats;
    try {
      info = stat(folder);
    } catch {
      // cache/ or cache/code/ not made yet: a run that ends well makes them, private (saveCache).
      return index === 0 ? undefined : folders.at(-1)![0];
    }
    if (!info.isDirectory() || !closedToOthers(info)) return undefined;
  }
  return folders.at(-1)![0];
}

/** A folder only its owner, the user or root, may write to (Windows keeps files private by ACLs). */
function closedToOthers(info: Stats): boolean {
  if (process.getuid === undefined) return true;
  return (info.uid === process.getuid() || info.uid === 0) && (info.mode & 0o022) === 0;
}

/**
 * The bundle of the command `argv` runs, found after any global options as commander finds it
 * (`tkt --profile work list`), ready to run; undefined when it has none. The bundle reads the
 * whole command line again and leaves to the full CLI what it cannot read.
 */
export function bundledRun(argv: readonly string[], env: Record<string, string | undefined> = process.env): BundleRun | undefined {
  const hasBundle = (word: string) => Object.hasOwn(TKT_COMMAND_BUNDLES.commands, word);
  const word = commandWord(argv, TKT_COMMAND_BUNDLES.program, hasBundle);
  if (word === undefined) return undefined;
  const name = TKT_COMMAND_BUNDLES.commands[word]!;
  const cache: CodeCache = { dir: cacheFolder(env), flags: v8FlagsFor(env), stale: [], loaded: new Map() };
  const run = (load(`commands/${name}`, cache) as { run: BundleRun }).run;
  return async (argv) => {
    const ran = await run(argv);
    // A bundle that left the command line to the full CLI compiled only its parse: nothing to keep.
    if (ran && cache.dir !== undefined) process.once('exit', (code) => code === 0 && saveCache(cache));
    return ran;
  };
}

/**
 * The folder for Node's own compile cache of the full CLI (dist/main.js and its chunks: bin/tkt.js
 * enables it on Node 22.1+), `node/` beside the bundles' cached code, made private; undefined
 * where that cache has no folder (cacheFolder). Node would choose a folder in the shared temporary
 * folder, written even by a run that has no config folder, whose files another user could have
 * put there first.
 */
export function nodeCacheFolder(env: Record<string, string | undefined> = process.env): string | undefined {
  const folder = cacheFolder(env);
  if (folder === undefined) return undefined;
  const node = inFolder(folder, 'node');
  try {
    mkdirSync(node, { recursive: true, mode: 0o700 });
    // A user whose runs all go through the full CLI (aliases, watch) would otherwise keep every Node's.
    pruneNodeFolders(node);
    return node;
  } catch {
    // The cache only saves time: without its folder the run compiles, as without a config folder.
    return undefined;
  }
}

/**
 * Behind a proxy the HTTP client sets V8's --liftoff-only (src/api/undici-core.ts: its HTTP
 * parser's WebAssembly), and V8 takes cached code only under the flags it was made with: set
 * during the run, the flag made every proxied run refuse its cache and write it anew. With a
 * proxy in the environment it is set here, before anything is compiled (node:v8, 2.5 ms, only
 * then), and that code is kept apart.
 */
function v8FlagsFor(env: Record<string, string | undefined>): string {
  if (!namesProxy(env)) return '';
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  return PROXY_FLAGS;
}

/** What the flags of a run behind a proxy add to its cache files' names. */
const PROXY_FLAGS = '-liftoff';

/** Runs the bundle dist/`bundle`.cjs as a CommonJS module, the first time it is asked for in the run, and returns its exports. */
function load(bundle: string, cache: CodeCache): unknown {
  if (cache.loaded.has(bundle)) return cache.loaded.get(bundle);
  const file = inFolder(__dirname, `${bundle}.cjs`);
  const hash = TKT_COMMAND_BUNDLES.hashes[bundle]!;
  const source = readBundle(file, hash);
  const cacheFile = cache.dir === undefined ? undefined : inFolder(cache.dir, cacheFileName(bundle, hash, cache.flags));
  const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
  const script = new Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  // V8 took what it needed of the cached code: its 300-400 KB go now, not at a collection that
  // may come after the run's peak (Node 22+; 0.07 MB less at the peak of tkt show on Node 24).
  if (cachedData !== undefined) releaseBytes(cachedData);
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) cache.stale.push({ script, file: cacheFile });
  const module = { exports: {} };
  // A bundle holds all it runs but Node's built-ins and the other files of dist/ it names: no
  // module is looked up on disk (node:module's createRequire alone took 2.6 MB of memory on Node 24).
  const bundleRequire = (id: string): unknown => {
    if (id.startsWith(BUNDLE_PREFIX)) return load(id.slice(BUNDLE_PREFIX.length), cache);
    const builtin: unknown = process.getBuiltinModule(id);
    if (builtin === undefined) throw new Error(`tkt: ${file} requires ${id}, which is neither a built-in of this Node nor bundled`);
    return builtin;
  };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, bundleRequire, module, file, path.dirname(file));
  cache.loaded.set(bundle, module.exports);
  return module.exports;
}

/** One file per bundle, build, Node and flags: V8 checks its own version and flags, not the source. */
function cacheFileName(bundle: string, hash: string, flags: string): string {
  return `${bundle.replace('/', '-')}.${hash}.${process.version}-${process.arch}${flags}.v8`;
}

/** What every bundle starts with (scripts/build-commands.mjs writes it): its hash, in a comment. */
const bundleStamp = (hash: string): string => `/*tkt ${hash}*/`;

/**
 * The text of a bundle of this build. The build keeps every bundle ASCII: read as Latin-1, the
 * text is the same, without decoding. Each is a CommonJS module in the function Node would wrap
 * it in, written by the build: a wrapper added here would copy the whole text once more. npm
 * replaces an installed tkt in place, so a run under way through an upgrade (a person at a
 * prompt, `tkt mcp`) would load the next build's file, whose modules are not this build's: each
 * file starts with its hash (bundleStamp), and another build's stops the run with a line saying so.
 */
function readBundle(file: string, hash: string): string {
  let source: string;
  try {
    // Read whole, then released once copied to the string, as the cached code is (load).
    const bytes = readFileSync(file);
    source = bytes.toString('latin1');
    releaseBytes(bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw buildChanged(`${file} is gone`);
    throw error;
  }
  if (!source.startsWith(bundleStamp(hash))) throw buildChanged(`${file} is of another build`);
  return source;
}

function buildChanged(what: string): Error {
  return Object.assign(new Error(`tkt's files changed while it ran (an upgrade?): ${what}`), { code: BUILD_CHANGED });
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the code V8 compiled for each stale bundle in this run (the functions it ran, so the
 * next run of the same command compiles almost nothing), each file whole or not at all (a
 * concurrent run reads the old one or the new one), then removes the files no run of this build
 * under this Node can take: older builds', other Node versions' (a user who upgrades either
 * would keep them forever), bundles this build no longer has. Only here, never on a run that
 * took its cache. The cache only saves time: a failure to write it is no failure of the run.
 */
function saveCache(cache: CodeCache): void {
  let written = false;
  for (const { script, file } of cache.stale) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, file);
      written = true;
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Nothing was written where nothing could be.
      }
    }
  }
  if (written && cache.dir !== undefined) pruneCache(cache.dir);
}

/**
 * How many cache files of each bundle that this run cannot take (another build's, another Node
 * version's) are kept, the most recently written: two builds or two Nodes used in turn with one
 * config folder (a global install and a project's, nvm) would otherwise each remove the other's on
 * every write, and neither would ever run from its cache. A user who only upgrades keeps at most
 * this many besides the current ones.
 */
const OTHERS_KEPT = 2;

/**
 * Removes the cache files of `dir` that no bundle of this build can take under this Node, with a
 * proxy or without, but the OTHERS_KEPT newest of each bundle; and Node's own of other Node
 * versions, as many.
 */
function pruneCache(dir: string): void {
  const readable = new Set(
    Object.entries(TKT_COMMAND_BUNDLES.hashes).flatMap(([bundle, hash]) => ['', PROXY_FLAGS].map((flags) => cacheFileName(bundle, hash, flags))),
  );
  try {
    // Temporary files are other runs' writes under way.
    const others = readdirSync(dir).filter((name) => name.endsWith('.v8') && !readable.has(name));
    const byBundle = new Map<string, string[]>();
    for (const name of others) {
      const bundle = /^(.+)\.[0-9a-f]{16}\./.exec(name)?.[1] ?? name;
      const names = byBundle.get(bundle);
      if (names === undefined) byBundle.set(bundle, [name]);
      else names.push(name);
    }
    for (const names of byBundle.values()) removeAllButNewest(dir, names);
    pruneNodeFolders(inFolder(dir, 'node'));
  } catch {
    // What is left is removed by a later write.
  }
}

/** Node's compile cache keeps a folder per Node version (v22.23.3-x64-<flags>-<uid>) and never removes one: this does, but this Node's and the OTHERS_KEPT newest. */
function pruneNodeFolders(node: string): void {
  const nodeVersion = `${process.version}-${process.arch}-`;
  removeAllButNewest(
    node,
    readdirSync(node).filter((name) => !name.startsWith(nodeVersion)),
  );
}

/**
 * Removes the files or folders `names` of `dir` but the OTHERS_KEPT last modified. An entry
 * another run removed meanwhile is gone already; a link is dated by itself (a broken one too).
 */
function removeAllButNewest(dir: string, names: readonly string[]): void {
  if (names.length <= OTHERS_KEPT) return;
  const modified = names.flatMap((name) => {
    try {
      return [{ name, at: lstatSync(inFolder(dir, name)).mtimeMs }];
    } catch {
      return [];
    }
  });
  modified.sort((a, b) => b.at - a.at);
  for (const { name } of modified.slice(OTHERS_KEPT)) rmSync(inFolder(dir, name), { recursive: true, force: true });
}
