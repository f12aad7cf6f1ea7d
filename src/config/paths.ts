// Where tkt keeps its files, and which profile names may become file names.
import path from 'node:path';
import { OperationError, UsageError } from '../errors.js';
import { envValue } from '../util/env.js';
import { inFolder } from '../util/folder-path.js';

/**
 * The user's home folder: HOME on Linux and macOS, which is what os.homedir() answers there when
 * HOME is set, else os.homedir(). node:os, which a request needs for nothing else, is loaded only
 * then (about 0.1 MB of memory on Node 24). os.homedir() throws where HOME is unset and the user
 * has no entry in the user list (docker run --user 54321, Kubernetes runAsUser).
 */
function homeFolder(env: Record<string, string | undefined>, platform: NodeJS.Platform): string {
  return (platform !== 'win32' && env.HOME) || process.getBuiltinModule('node:os').homedir();
}

/**
 * TKT_CONFIG_DIR (unless empty or blank), else the OS config folder for "tkt"; undefined when
 * that folder is under a home folder `home` cannot find. The home folder is looked up only then:
 * TKT_CONFIG_DIR or XDG_CONFIG_HOME serve a user without one.
 */
export function defaultConfigDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: () => string = () => homeFolder(env, platform),
): string | undefined {
  const configured = envValue(env, 'TKT_CONFIG_DIR');
  if (configured !== undefined) return configured;
  if (platform === 'win32' && env.APPDATA) return path.win32.join(env.APPDATA, 'tkt');
  // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  if (platform !== 'win32' && platform !== 'darwin' && xdg && path.posix.isAbsolute(xdg)) return inFolder(xdg, 'tkt');
  let homeDir: string;
  try {
    homeDir = home();
  } catch {
    return undefined;
  }
  if (platform === 'win32') return path.win32.join(homeDir, 'AppData', 'Roaming', 'tkt');
  if (platform === 'darwin') return inFolder(homeDir, 'Library', 'Preferences', 'tkt');
  return inFolder(homeDir, '.config', 'tkt');
}

/** Exit 1 for what must be kept in a config folder when there is none (defaultConfigDir). */
export function noConfigFolderError(): OperationError {
  return new OperationError('no config folder: HOME is unset and this user has no home folder in the user list', {
    hint: 'set TKT_CONFIG_DIR to a folder you may write (or HOME); a run with TKT_URL and TKT_TOKEN needs none',
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
