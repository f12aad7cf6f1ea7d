import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/util/lock-file.js';
import { useTempDirs } from '../config/temp-dir.js';
import { childScript } from '../helpers/child-script.js';

const tempDir = useTempDirs();
// PID 2^22+1 is above Linux's pid_max default: no such process.
const DEAD_PID = String(4_194_305);
const noWait = { waitMs: 0, clock: { now: () => Date.now(), sleep: async () => {} } };

/**
 * A process that takes `lock` when its stdin says "go", marks the hold with a file only one
 * holder can create (printing "overlap" when another holder's mark is there), holds for a few
 * milliseconds, and releases.
 */
async function holderScript(outDir: string): Promise<string> {
  return childScript(
    outDir,
    { acquireLock: 'util/lock-file.ts' },
    `
    import fs from 'node:fs';
    const [lock, mark] = process.argv.slice(2);
    process.stdout.write('ready\\n');
    process.stdin.once('data', async () => {
      const release = await acquireLock(lock, { waitMs: 20_000 });
      let overlap = false;
      try { fs.closeSync(fs.openSync(mark, 'wx')); } catch { overlap = true; }
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (!overlap) fs.rmSync(mark);
      release();
      process.stdout.write(overlap ? 'overlap\\n' : 'alone\\n');
      process.stdin.destroy();
    });`,
  );
}

/** Starts `count` holders, sends "go" to all once all are ready; resolves with what each printed last. */
async function raceHolders(script: string, lock: string, mark: string, count: number): Promise<string[]> {
  const children = Array.from({ length: count }, () => spawn(process.execPath, [script, lock, mark], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const outputs = children.map(
    (child) =>
      new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => (text += chunk));
        child.on('error', reject);
        child.on('exit', () => resolve(text.trim().split('\n').at(-1) ?? ''));
      }),
  );
  await Promise.all(children.map((child) => new Promise((resolve) => child.stdout.once('data', resolve))));
  for (const child of children) child.stdin.write('go\n');
  return Promise.all(outputs);
}

describe('a stale lock', () => {
  it('is taken over by one of the processes that find it at once; the others wait for that holder', async () => {
    // Each checked the stale lock, removed it and created its own in separate steps, and a late
    // one removed the new holder's lock: 26 overlapping holds in 6 rounds of 12 processes.
    const dir = tempDir();
    const script = await holderScript(tempDir());
    const lock = path.join(dir, 'state.lock');
    const mark = path.join(dir, 'held');
    for (let round = 0; round < 4; round++) {
      fs.writeFileSync(lock, DEAD_PID);
      expect(await raceHolders(script, lock, mark, 12)).toEqual(Array(12).fill('alone'));
    }
    // No lock and no claim of a take-over left behind.
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('releasing', () => {
  it('leaves a lock that another process took over meanwhile', async () => {
    // A holder hung past staleAfterMs has its lock taken over; its late release removed the new holder's.
    const dir = tempDir();
    const lock = path.join(dir, 'config.json.lock');
    const release = await acquireLock(lock, noWait);
    fs.rmSync(lock);
    fs.writeFileSync(lock, DEAD_PID);

    release();

    expect(fs.readFileSync(lock, 'utf8')).toBe(DEAD_PID);
  });

  it('leaves a take-over claim of a taker that died to be removed once old', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'state.lock');
    fs.writeFileSync(lock, DEAD_PID);
    const info = fs.lstatSync(lock, { bigint: true });
    const claim = `${lock}.${info.ino}-${info.mtimeNs}.takeover`;
    fs.writeFileSync(claim, '');
    const start = Date.now();
    let now = start;
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };

    const release = await acquireLock(lock, { waitMs: 60_000, clock });

    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
    // It waited for the claim to be 10 s old, then took the lock over.
    expect(now - start).toBeGreaterThan(10_000);
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
