// Where tkt keeps its files, and which profile names may become file names.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { OperationError, UsageError } from '../errors.js';
import { envValue } from '../util/env.js';
import { inFolder } from '../util/folder-path.js';

/**
 * The user's home folder: HOME on Linux and macOS, USERPROFILE on Windows (what os.homedir()
 * answers when they are set), else the user list's (os.userInfo(), which, unlike os.homedir(),
 * reads no variable). An empty or relative one counts as unset: os.homedir() answers it as it is,
 * and a config folder relative to the current one put a token in the workspace. node:os, which a
 * request needs for nothing else, is loaded only then (about 0.1 MB of memory on Node 24).
 * os.userInfo() throws where the user has no entry in the user list (docker run --user 54321,
 * Kubernetes runAsUser); `userHome` is that lookup.
 */
function homeFolder(env: Record<string, string | undefined>, platform: NodeJS.Platform, userHome: () => string): string {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const named = env[platform === 'win32' ? 'USERPROFILE' : 'HOME'];
  if (named !== undefined && paths.isAbsolute(named)) return named;
  const listed = userHome();
  if (!paths.isAbsolute(listed)) throw new Error(`the home folder of the user list is not absolute: ${JSON.stringify(listed)}`);
  return listed;
}

/** The config folder, and the home folder it is under when it is found from that: tkt never makes a home folder. */
export interface ConfigFolder {
  dir: string;
  home?: string;
}

/**
 * TKT_CONFIG_DIR (unless empty or blank), else the OS config folder for "tkt"; undefined when
 * that folder is under a home folder that cannot be found (homeFolder). The home folder is looked
 * up only then: TKT_CONFIG_DIR, APPDATA or XDG_CONFIG_HOME serve a user without one.
 */
export function configFolder(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  userHome: () => string = () => process.getBuiltinModule('node:os').userInfo().homedir,
): ConfigFolder | undefined {
  const configured = envValue(env, 'TKT_CONFIG_DIR');
  if (configured !== undefined) return { dir: configured };
  // A relative APPDATA or XDG_CONFIG_HOME would be a folder in the current one: ignored, as XDG says of its own.
  const appData = env.APPDATA;
  if (platform === 'win32' && appData && path.win32.isAbsolute(appData)) return { dir: path.win32.join(appData, 'tkt') };
  const xdg = env.XDG_CONFIG_HOME;
  if (platform !== 'win32' && platform !== 'darwin' && xdg && path.posix.isAbsolute(xdg)) return { dir: inFolder(xdg, 'tkt') };
  let home: string;
  try {
    home = homeFolder(env, platform, userHome);
  } catch {
    return undefined;
  }
  if (platform === 'win32') return { dir: path.win32.join(home, 'AppData', 'Roaming', 'tkt'), home };
  if (platform === 'darwin') return { dir: inFolder(home, 'Library', 'Preferences', 'tkt'), home };
  return { dir: inFolder(home, '.config', 'tkt'), home };
}

/** The config folder's path (configFolder), for what only reads it. */
export function defaultConfigDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  userHome?: () => string,
): string | undefined {
  return configFolder(env, platform, userHome)?.dir;
}

/** Exit 1 for what must be kept in a config folder when there is none (defaultConfigDir). */
export function noConfigFolderError(): OperationError {
  return new OperationError('no config folder: HOME is unset or not absolute, and this user has no home folder in the user list', {
    hint: 'set TKT_CONFIG_DIR to a folder you may write (or HOME); a run with TKT_URL and TKT_TOKEN needs none',
  });
}

/**
 * Exit 1 before `file` is written under a home folder that does not exist (ConfigFolder.home):
 * tkt makes its own folder, and .config in a home folder, but a HOME naming no folder is a
 * mistake, and making it would leave a tree of folders where nobody looks.
 */
export function assertHomeFolder(home: string | undefined, file: string): void {
  if (home === undefined || existsSync(home)) return;
  const variable = process.platform === 'win32' ? 'USERPROFILE' : 'HOME';
  throw new OperationError(`cannot write ${file}: the home folder ${home} does not exist`, {
    hint: `set ${variable} to your home folder, or TKT_CONFIG_DIR to a folder you may write; a run with TKT_URL and TKT_TOKEN needs none`,
  });
}

/** The settings file (profiles, global settings, aliases) in the config folder `dir`. */
export function settingsFileIn(dir: string): string {
  return inFolder(dir, 'config.json');
}

// Profile names become file names (tokens/<name>.json), so no separators, no leading dot
// and no names Windows reserves (CON, NUL, COM1...), whatever the extension.
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/** `from`: where the name was given (--profile, TKT_PROFILE), said with it as the unknown-profile error says it. */
export function assertProfileName(name: string, from?: string): string {
  const said = `invalid profile name ${JSON.stringify(name)}${from === undefined ? '' : ` (${from})`}`;
  if (WINDOWS_RESERVED.test(name))
    throw new UsageError(`${said}: Windows reserves it for a device`, {
      hint: 'choose another name: CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are reserved, with any extension (nul.txt) and in any case',
    });
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(said, {
      hint: 'use up to 64 letters, digits, ".", "-" or "_", starting with a letter or digit',
    });
  }
  return name;
}
