// Inputs that are not files of text (docs/cli.md section 7): `create --from /dev/zero` and `api --input
// /dev/zero` once took 600 MB before failing with "Invalid string length". Now each is exit 2
// at once, naming the option and the file, and nothing is sent.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BY_ID, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

const describePosix = process.platform === 'win32' ? describe.skip : describe;
const requests = () => Object.values(h.sandbox.stats.byRoute).reduce((sum, count) => sum + count, 0);

describePosix('inputs that are not text', () => {
  it.each([
    [['create', '--from', '/dev/zero'], /--from: cannot read \/dev\/zero: not text: it holds NUL bytes/],
    [['api', 'POST', '/api/TicketsApi', '--input', '/dev/zero'], /cannot read --input \/dev\/zero: not text: it holds NUL bytes/],
    [['reply', '1001', '--message-file', '/dev/zero'], /--message-file \/dev\/zero: not text: it holds NUL bytes/],
  ])('tkt %j is exit 2 before any request', async (argv, expected) => {
    const before = requests();
    const result = await h.cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(expected);
    expect(requests()).toBe(before);
  });

  it('a binary file given as a description is exit 2', async () => {
    const file = path.join(h.configDir, 'image.png');
    fs.writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
    const result = await h.cli(['create', ...validCreateArgs({ ...BY_ID, description: null, 'description-file': file })]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--description-file ${file}: not text: it holds NUL bytes (binary data?)`);
  });

  it('binary data as the IDs on stdin is exit 2 before any request', async () => {
    const before = requests();
    const result = await h.cli(['read', '-'], { stdin: '1001\n\u0000\u0000' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the IDs on stdin: not text: it holds NUL bytes (binary data?)');
    expect(requests()).toBe(before);
  });

  it('binary data on stdin for --description - is exit 2', async () => {
    const result = await h.cli(['reply', '1001', '--message', '-'], { stdin: 'abc\u0000def' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--message -: stdin is not text: it holds NUL bytes (binary data?)');
  });
});
