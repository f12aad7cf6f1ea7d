import { describe, expect, it } from 'vitest';
import { assertProfileName, configFolder, defaultConfigDir } from '../../src/config/paths.js';
import { ExitCode, UsageError } from '../../src/errors.js';

describe('defaultConfigDir', () => {
  it('uses TKT_CONFIG_DIR first, on every platform', () => {
    expect(defaultConfigDir({ TKT_CONFIG_DIR: '/srv/tkt', XDG_CONFIG_HOME: '/x' }, 'linux', () => '/home/a')).toBe('/srv/tkt');
    expect(defaultConfigDir({ TKT_CONFIG_DIR: 'D:\\tkt', APPDATA: 'C:\\x' }, 'win32', () => 'C:\\Users\\a')).toBe('D:\\tkt');
  });

  it('follows XDG on Linux, ignoring an empty or relative XDG_CONFIG_HOME', () => {
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/home/a/cfg' }, 'linux', () => '/home/a')).toBe('/home/a/cfg/tkt');
    expect(defaultConfigDir({}, 'linux', () => '/home/a')).toBe('/home/a/.config/tkt');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '' }, 'linux', () => '/home/a')).toBe('/home/a/.config/tkt');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: 'cfg' }, 'linux', () => '/home/a')).toBe('/home/a/.config/tkt');
    expect(defaultConfigDir({ TKT_CONFIG_DIR: '' }, 'linux', () => '/home/a')).toBe('/home/a/.config/tkt');
    // A blank one is unset too, as every TKT_ variable: not a folder named " " in the current one.
    expect(defaultConfigDir({ TKT_CONFIG_DIR: ' ' }, 'linux', () => '/home/a')).toBe('/home/a/.config/tkt');
  });

  it('takes the home folder from HOME on Linux and macOS and USERPROFILE on Windows, as os.homedir() does, else from the user list', () => {
    const os = process.getBuiltinModule('node:os');
    expect(defaultConfigDir({ HOME: '/home/b' }, 'linux')).toBe('/home/b/.config/tkt');
    expect(defaultConfigDir({ HOME: '/Users/b' }, 'darwin')).toBe('/Users/b/Library/Preferences/tkt');
    expect(defaultConfigDir({}, 'linux')).toBe(`${os.userInfo().homedir}/.config/tkt`);
    expect(defaultConfigDir({ USERPROFILE: 'C:\\Users\\b', HOME: 'C:\\msys\\home\\b' }, 'win32')).toBe('C:\\Users\\b\\AppData\\Roaming\\tkt');
    expect(defaultConfigDir({ HOME: 'C:\\msys\\home\\b' }, 'win32', () => 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\tkt');
  });

  it('takes an empty or relative HOME, USERPROFILE or APPDATA as unset: never a folder in the current one', () => {
    const listed = () => '/home/listed';
    for (const home of ['', 'home', '.', './x', '~']) {
      expect(defaultConfigDir({ HOME: home }, 'linux', listed), JSON.stringify(home)).toBe('/home/listed/.config/tkt');
      expect(defaultConfigDir({ HOME: home }, 'darwin', listed), JSON.stringify(home)).toBe('/home/listed/Library/Preferences/tkt');
    }
    const windows = () => 'C:\\Users\\listed';
    for (const home of ['', 'Users\\b', 'C:Users\\b']) {
      expect(defaultConfigDir({ USERPROFILE: home, APPDATA: home }, 'win32', windows), JSON.stringify(home)).toBe('C:\\Users\\listed\\AppData\\Roaming\\tkt');
    }
    // Nor a relative home folder from the user list: then there is none.
    expect(defaultConfigDir({ HOME: '' }, 'linux', () => '')).toBeUndefined();
    expect(defaultConfigDir({ HOME: 'rel' }, 'linux', () => 'rel')).toBeUndefined();
  });

  it('names the home folder the config folder was found under (which tkt never makes), and none otherwise', () => {
    expect(configFolder({ HOME: '/home/b' }, 'linux')).toEqual({ dir: '/home/b/.config/tkt', home: '/home/b' });
    expect(configFolder({}, 'darwin', () => '/Users/a')).toEqual({ dir: '/Users/a/Library/Preferences/tkt', home: '/Users/a' });
    expect(configFolder({ USERPROFILE: 'C:\\Users\\a' }, 'win32')).toEqual({ dir: 'C:\\Users\\a\\AppData\\Roaming\\tkt', home: 'C:\\Users\\a' });
    expect(configFolder({ TKT_CONFIG_DIR: '/srv/tkt', HOME: '/home/b' }, 'linux')).toEqual({ dir: '/srv/tkt' });
    expect(configFolder({ XDG_CONFIG_HOME: '/cfg', HOME: '/home/b' }, 'linux')).toEqual({ dir: '/cfg/tkt' });
    expect(configFolder({ APPDATA: 'C:\\a' }, 'win32')).toEqual({ dir: 'C:\\a\\tkt' });
  });

  it('never looks the home folder up when TKT_CONFIG_DIR or XDG_CONFIG_HOME names the folder, and answers none when the lookup fails', () => {
    // What os.homedir() throws with HOME unset for a user with no entry in /etc/passwd (docker run --user 54321).
    const noHome = () => {
      throw new Error('A system error occurred: uv_os_homedir returned ENOENT (no such file or directory)');
    };
    expect(defaultConfigDir({ TKT_CONFIG_DIR: '/srv/tkt' }, 'linux', noHome)).toBe('/srv/tkt');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', noHome)).toBe('/cfg/tkt');
    expect(defaultConfigDir({ APPDATA: 'C:\\a' }, 'win32', noHome)).toBe('C:\\a\\tkt');
    for (const platform of ['linux', 'darwin', 'win32'] as const) expect(defaultConfigDir({}, platform, noHome)).toBeUndefined();
    expect(defaultConfigDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', noHome)).toBeUndefined();
  });

  it('uses the macOS and Windows folders, without conf\'s "-nodejs" suffix', () => {
    expect(defaultConfigDir({}, 'darwin', () => '/Users/a')).toBe('/Users/a/Library/Preferences/tkt');
    expect(defaultConfigDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', () => 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\tkt');
    expect(defaultConfigDir({}, 'win32', () => 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\tkt');
  });
});

describe('assertProfileName', () => {
  it.each(['default', 'prod', 'staging-eu', 'team_2', 'a.b', 'X', 'a'.repeat(64)])('accepts %s', (name) => {
    expect(assertProfileName(name)).toBe(name);
  });

  it.each(['', '.', '..', '../evil', 'a/b', 'a\\b', '.hidden', '-flag', '_x', 'with space', 'a'.repeat(65), 'CON', 'nul.txt', 'com1', 'LPT9', 'é'])(
    'refuses %j with exit 2',
    (name) => {
      let caught: unknown;
      try {
        assertProfileName(name);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UsageError);
      expect((caught as UsageError).exitCode).toBe(ExitCode.usage);
      expect((caught as UsageError).message).toContain(JSON.stringify(name));
    },
  );

  it('says which rule a name breaks: the first character, or a name Windows reserves', () => {
    expect(() => assertProfileName('_x')).toThrow(expect.objectContaining({ hint: expect.stringContaining('starting with a letter or digit') }));
    for (const name of ['CON', 'nul.txt', 'com1']) {
      expect(() => assertProfileName(name), name).toThrow(
        expect.objectContaining({
          message: `invalid profile name ${JSON.stringify(name)}: Windows reserves it for a device`,
          hint: expect.stringContaining('CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are reserved'),
        }),
      );
    }
  });
});
