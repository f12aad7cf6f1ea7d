import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inFolder } from '../../src/util/folder-path.js';

describe('inFolder', () => {
  it('puts the names under the folder, one separator between each', () => {
    expect(inFolder('/home/ana/.config/tkt', 'tokens', 'default.json')).toBe(['/home/ana/.config/tkt', 'tokens', 'default.json'].join(sep));
  });

  it('adds no second separator after a folder written with a trailing one, and none before a relative folder', () => {
    expect(inFolder(`/tmp/cfg${sep}`, 'config.json')).toBe(`/tmp/cfg${sep}config.json`);
    expect(inFolder('/tmp/cfg/', 'config.json')).toBe('/tmp/cfg/config.json');
    expect(inFolder('cfg', 'config.json')).toBe(`cfg${sep}config.json`);
    expect(inFolder('/', 'tkt')).toBe(`/tkt`);
  });

  it('answers the names alone for an empty folder, as path.join does (never a path from the root)', () => {
    expect(inFolder('', 'config.json')).toBe('config.json');
  });
});
