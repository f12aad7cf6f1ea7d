// The key table is the one place triage's keys are written down: each key it names is one the
// screen can read, and the README, `tkt triage --help`, the ? screen and the footer are made
// from it.
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/program.js';
import { FOOTER_ENDING, FOOTER_KEYS, KEY_TABLE, KEYS_COLUMN, keyHelpLines, keyName, readmeKeyTable } from '../../src/triage/keys.js';
import type { KeyPress } from '../../src/util/terminal-input.js';
import { fakeProcess } from '../cli/fake-process.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's Markdown table that starts with `header`. */
function readmeTable(header: string): string {
  const lines = readme.split('\n');
  const start = lines.indexOf(header);
  expect(start, `README table "${header}"`).toBeGreaterThan(-1);
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
  return lines.slice(start, end).join('\n');
}

// What the terminal sends for each special key, as update.ts gets it.
const SPECIAL_PRESSES: Readonly<Record<string, [string, KeyPress]>> = {
  '↑': ['', { upArrow: true }],
  '↓': ['', { downArrow: true }],
  PgUp: ['', { pageUp: true }],
  PgDn: ['', { pageDown: true }],
  Home: ['', { home: true }],
  End: ['', { end: true }],
  Enter: ['', { return: true }],
  Esc: ['', { escape: true }],
  'Ctrl-C': ['c', { ctrl: true }],
};

describe('the key table', () => {
  it("is the README's table of keys", () => {
    // If this fails, change the words in src/triage/keys.ts, then paste readmeKeyTable() into the README.
    expect(readmeTable('| key | what it does |')).toBe(readmeKeyTable());
  });

  it('names only keys that the screen reads by that name', () => {
    const names = KEY_TABLE.flatMap((row) => [...row.keys, row.unlisted ?? {}].flatMap((keys) => Object.keys(keys)));
    expect(names).toContain('Ctrl-C');
    for (const name of names) {
      const [input, press] = SPECIAL_PRESSES[name] ?? [name, {}];
      expect(keyName(input, press), name).toBe(name);
    }
  });

  it('gives each key one action', () => {
    const names = KEY_TABLE.flatMap((row) => [...row.keys, row.unlisted ?? {}].flatMap((keys) => Object.keys(keys)));
    expect(new Set(names).size).toBe(names.length);
  });

  it('lists every row in tkt triage --help, as the ? screen does', async () => {
    const proc = { ...fakeProcess(), stdout: new PassThrough() };
    expect(await runCli(['triage', '--help'], proc)).toBe(0);
    // Every chunk: Node 26's read() gives one chunk at a time.
    let help = '';
    for (let chunk: unknown = proc.stdout.read(); chunk !== null; chunk = proc.stdout.read()) help += String(chunk);
    for (const line of keyHelpLines()) expect(help).toContain(`${line}\n`);
    expect(keyHelpLines()).toHaveLength(KEY_TABLE.length);
  });

  it("names every key in the ? screen but Esc (which /'s line explains): vi's g and G too, as the README does", () => {
    const listed = keyHelpLines().flatMap((line) =>
      line
        .slice(2, 2 + KEYS_COLUMN)
        .trim()
        .split(/ +/),
    );
    const every = KEY_TABLE.flatMap((row) => [...row.keys, row.unlisted ?? {}].flatMap((keys) => Object.keys(keys)));
    expect(every.filter((key) => !listed.includes(key))).toEqual(['Esc']);
    expect(keyHelpLines()).toContain(`  ${'Home End  g G'.padEnd(KEYS_COLUMN)}  to the first ticket, to the last`);
  });

  it('ends the footer with the way out and the way to every key', () => {
    expect(FOOTER_KEYS[0]).toBe('⏎ show');
    expect(FOOTER_KEYS).toContain('p pick up');
    expect(FOOTER_ENDING).toBe('q quit  ? keys');
  });
});
