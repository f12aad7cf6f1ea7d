// The write-ahead report of `tkt create --from`: written line by line, read back for --resume.
// test/bulk/create-from.test.ts runs whole resumes against the sandbox; these pin down each rule.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReport, readReport, resumedRows, type ReportLine } from '../../src/bulk/report-file.js';
import type { InputRow } from '../../src/bulk/rows.js';
import { UsageError } from '../../src/errors.js';

/** Rows of a file whose row N has the hash hashes[N - 1]. */
const rowsHashed = (...hashes: string[]): InputRow[] => hashes.map((hash, index) => ({ row: index + 1, line: index + 1, values: {}, hash, problems: [] }));

const sending = (row: number, hash: string): ReportLine => ({ row, hash, sending: true });

const IN_DOUBT_BEFORE = 'sent in an earlier run; the answer never came';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tkt-report-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openReport', () => {
  // (That append also fsyncs, so a crash cannot lose the line, shows only in a crash.)
  it('has each line in the file, as JSON Lines, once append returns: before the row is sent', async () => {
    const path = join(dir, 'r.jsonl');
    const report = await openReport(path, false);
    try {
      await report.append(sending(1, 'aa'));
      expect(await readFile(path, 'utf8')).toBe('{"row":1,"hash":"aa","sending":true}\n');
      await report.append({ row: 1, hash: 'aa', ok: true, id: 42 });
      expect(await readFile(path, 'utf8')).toBe('{"row":1,"hash":"aa","sending":true}\n{"row":1,"hash":"aa","ok":true,"id":42}\n');
    } finally {
      await report.close();
    }
    expect(await readReport(path)).toEqual([sending(1, 'aa'), { row: 1, hash: 'aa', ok: true, id: 42 }]);
  });

  it('refuses to overwrite a report that exists, leaving it as it was', async () => {
    const path = join(dir, 'r.jsonl');
    const earlier = '{"row":1,"hash":"aa","ok":true,"id":42}\n';
    await writeFile(path, earlier);
    const refusal = await openReport(path, false).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UsageError);
    expect(refusal).toMatchObject({
      message: `report ${path} already exists: it may list tickets already created`,
      hint: `to skip the rows it shows as created, add --resume ${path}; another report (--report FILE) starts over and creates every row again, a second ticket for each one created before`,
    });
    expect(await readFile(path, 'utf8')).toBe(earlier);
  });

  it('appends after the lines of an existing report when asked to (a resume writing to the same report)', async () => {
    const path = join(dir, 'r.jsonl');
    await writeFile(path, '{"row":1,"hash":"aa","ok":true,"id":42}\n');
    const report = await openReport(path, true);
    await report.append(sending(2, 'bb'));
    await report.close();
    expect(await readReport(path)).toEqual([{ row: 1, hash: 'aa', ok: true, id: 42 }, sending(2, 'bb')]);
  });

  it('says in words why a report cannot be created', async () => {
    const path = join(dir, 'missing', 'r.jsonl');
    await expect(openReport(path, false)).rejects.toThrow(new UsageError(`cannot write the report ${path}: no such file`));
  });
});

describe('readReport', () => {
  it('reads "sending" lines and outcomes in the order written, blank lines and CRLF ends left aside', async () => {
    const path = join(dir, 'r.jsonl');
    await writeFile(path, '{"row":1,"hash":"aa","sending":true}\r\n\r\n{"row":1,"hash":"aa","ok":false,"inDoubt":true,"error":"timed out"}\r\n');
    expect(await readReport(path)).toEqual([sending(1, 'aa'), { row: 1, hash: 'aa', ok: false, inDoubt: true, error: 'timed out' }]);
  });

  it('ignores a torn last line even with blank lines after it, but not a torn line with lines after it', async () => {
    const path = join(dir, 'r.jsonl');
    await writeFile(path, '{"row":1,"hash":"aa","sending":true}\n{"row":1,"ha\n\n  \n');
    expect(await readReport(path)).toEqual([sending(1, 'aa')]);
    await writeFile(path, '{"row":1,"hash":"aa","sending":true}\n{"row":1,"ha\n{"row":2,"hash":"bb","sending":true}\n');
    await expect(readReport(path)).rejects.toThrow(`--resume: ${path} line 2 is not a report line`);
  });

  it('refuses JSON that is not a report line, naming the line and the file a report comes from', async () => {
    const path = join(dir, 'r.jsonl');
    for (const line of ['{"row":"1","hash":"aa","ok":true}', '{"row":1,"ok":true}', '{"row":1,"hash":"aa"}', '{"row":1,"hash":"aa","sending":"yes"}', '[1]']) {
      await writeFile(path, `{"row":1,"hash":"aa","sending":true}\n${line}\n`);
      await expect(readReport(path), line).rejects.toMatchObject({
        message: `--resume: ${path} line 2 is not a report line`,
        hint: 'pass the report a previous "tkt create --from" wrote',
      });
    }
  });

  it('says in words why a report cannot be read', async () => {
    const path = join(dir, 'none.jsonl');
    await expect(readReport(path)).rejects.toThrow(new UsageError(`--resume: cannot read ${path}: no such file`));
    await expect(readReport(dir)).rejects.toThrow(new UsageError(`--resume: cannot read ${dir}: a directory, not a file`));
  });
});

describe('resumedRows', () => {
  const resume = (lines: readonly ReportLine[], rows: readonly InputRow[]) => resumedRows(lines, rows, 'r.jsonl', 'rows.jsonl');

  it('holds a row in doubt when its "sending" line has no outcome after it', () => {
    const { created, inDoubt } = resume([sending(1, 'aa'), { row: 1, hash: 'aa', ok: true, id: 7 }, sending(2, 'bb')], rowsHashed('aa', 'bb', 'cc'));
    expect([...created.entries()]).toEqual([[1, { row: 1, hash: 'aa', ok: true, id: 7 }]]);
    expect([...inDoubt.entries()]).toEqual([[2, { row: 2, hash: 'bb', ok: false, inDoubt: true, error: IN_DOUBT_BEFORE }]]);
  });

  it('keeps an in-doubt outcome as it was written', () => {
    const outcome = { row: 1, hash: 'aa', ok: false, inDoubt: true, error: 'given up after 30 s' } as const;
    const { created, inDoubt } = resume([sending(1, 'aa'), outcome], rowsHashed('aa'));
    expect(created.size).toBe(0);
    expect(inDoubt.get(1)).toEqual(outcome);
  });

  it('lets a row that failed be sent again: neither created nor in doubt', () => {
    const { created, inDoubt } = resume([sending(1, 'aa'), { row: 1, hash: 'aa', ok: false, status: 400, error: 'bad site' }], rowsHashed('aa'));
    expect(created.size + inDoubt.size).toBe(0);
  });

  // A tkt before 2026-11-27 wrote a 2xx with an unusable body as a failure; the service had the
  // row all the same, and sending it again made a second ticket (an upgrade review).
  it('holds in doubt a failure with a 2xx status, as an older tkt wrote an unusable answer to a row the service had', () => {
    const older = { row: 1, hash: 'aa', ok: false, status: 201, error: 'failed (HTTP 201): the service answered with JSON that does not parse' };
    const { created, inDoubt } = resume([sending(1, 'aa'), older], rowsHashed('aa'));
    expect(created.size).toBe(0);
    expect(inDoubt.get(1)).toEqual({ ...older, inDoubt: true });
  });

  it('follows a row over several runs: in doubt, then sent again and created, then copied as skipped', () => {
    const lines: ReportLine[] = [
      sending(1, 'aa'),
      { row: 1, hash: 'aa', ok: false, inDoubt: true, error: 'timed out' },
      // --resume --retry-in-doubt
      sending(1, 'aa'),
      { row: 1, hash: 'aa', ok: true, id: 9 },
      // A third run copies it as already created; the first outcome that created it stays.
      { row: 1, hash: 'aa', ok: true, id: null, skippedRow: true },
      sending(1, 'aa'),
    ];
    const { created, inDoubt } = resume(lines, rowsHashed('aa'));
    expect(created.get(1)).toEqual({ row: 1, hash: 'aa', ok: true, id: 9 });
    expect(inDoubt.size).toBe(0);
  });

  it('reads the "skipped": true of a report written before it was named skippedRow', async () => {
    const path = join(dir, 'old.jsonl');
    await writeFile(path, '{"row":1,"hash":"aa","ok":true,"id":9,"skipped":true}\n');
    const lines = await readReport(path);
    expect(lines).toEqual([{ row: 1, hash: 'aa', ok: true, id: 9, skippedRow: true }]);
    expect(resume(lines, rowsHashed('aa')).created.get(1)).toMatchObject({ id: 9 });
  });

  it('clears a doubt once a later run sends the row again and it fails', () => {
    const lines: ReportLine[] = [sending(1, 'aa'), sending(1, 'aa'), { row: 1, hash: 'aa', ok: false, status: 400, error: 'bad site' }];
    expect(resume(lines, rowsHashed('aa')).inDoubt.size).toBe(0);
  });

  it('matches rows by number and hash: a row that failed may have been edited since', () => {
    const lines: ReportLine[] = [
      { row: 1, hash: 'aa', ok: true, id: 7 },
      { row: 2, hash: 'old', ok: false, status: 400, error: 'bad site' },
    ];
    const { created } = resume(lines, rowsHashed('aa', 'new'));
    expect([...created.keys()]).toEqual([1]);
  });

  it('refuses a file whose created rows changed, naming each with its ticket', () => {
    const lines: ReportLine[] = [
      { row: 1, hash: 'aa', ok: true, id: 7 },
      { row: 2, hash: 'bb', ok: true, id: null },
    ];
    const attempt = () => resume(lines, rowsHashed('aa', 'b2'));
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(
      expect.objectContaining({
        message: 'r.jsonl does not match rows.jsonl: a row it shows as created or in doubt changed since',
        details: ['row 2 was created as a ticket from different content'],
        hint: 'resume with the file as it was; edit only the rows that failed',
      }),
    );
    expect(() => resume(lines, rowsHashed('a2', 'b2'))).toThrow(
      expect.objectContaining({
        message: 'r.jsonl does not match rows.jsonl: 2 rows it shows as created or in doubt changed since',
        details: ['row 1 was created as #7 from different content', 'row 2 was created as a ticket from different content'],
      }),
    );
  });

  it('refuses a file whose in-doubt row changed, or that lost rows the report names', () => {
    expect(() => resume([sending(2, 'bb')], rowsHashed('aa', 'b2'))).toThrow(
      expect.objectContaining({ details: ['row 2 was sent (in doubt) with different content'] }),
    );
    // Rows taken off the end: the file is said to be shorter, not row 3 to have changed.
    expect(() => resume([{ row: 3, hash: 'cc', ok: true, id: 8 }, sending(4, 'dd')], rowsHashed('aa', 'bb'))).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/ has 2 rows, fewer than the report records \(row 4\)$/),
        details: ['recorded as created or in doubt, not in the file: rows 3-4'],
      }),
    );
  });
});
