// The rule for tests that need tmux or a shell: fail in CI when the tool is missing, skip elsewhere.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { skipWithout } from './tools.js';

const saved = process.env.CI;
afterEach(() => {
  if (saved === undefined) delete process.env.CI;
  else process.env.CI = saved;
  vi.restoreAllMocks();
});

describe('skipWithout', () => {
  it('runs the tests when every tool is there', () => {
    expect(skipWithout(['sh'], 'x.test.ts')).toBe(false);
  });

  it('fails in CI when a tool is missing, naming it', () => {
    process.env.CI = 'true';
    expect(() => skipWithout(['sh', 'tkt-no-such-tool'], 'x.test.ts')).toThrow(/x\.test\.ts needs tkt-no-such-tool/);
  });

  it('takes an absolute path for a file that must be there', () => {
    process.env.CI = 'true';
    expect(skipWithout([import.meta.filename], 'x.test.ts')).toBe(false);
    expect(() => skipWithout(['/tkt/no/such/file'], 'x.test.ts')).toThrow(/x\.test\.ts needs \/tkt\/no\/such\/file/);
  });

  it('skips loudly outside CI', () => {
    delete process.env.CI;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(skipWithout(['tkt-no-such-tool'], 'x.test.ts')).toBe(true);
    expect(warn).toHaveBeenCalledWith('SKIPPED x.test.ts: tkt-no-such-tool not installed');
  });
});
