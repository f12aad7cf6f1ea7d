import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCreateFrom } from '../../src/bulk/create-from.js';
import type { CreateFromOptions } from '../../src/bulk/create-from-options.js';
import { readReport, type ReportEntry, type ReportLine } from '../../src/bulk/report-file.js';
import { detectFormat, readRows, rowHash } from '../../src/bulk/rows.js';
import { ExitCode } from '../../src/errors.js';
import { formatDate } from '../../src/output/time.js';
import { createHarness, loginAs, type Harness } from '../helpers/harness.js';
import { addressOnlyAnswers, frontEnv, halvedAnswers, startFrontServer } from '../helpers/sandbox-state.js';
import type { TestServer } from '../api/server.js';

/** A requester no lookup knows, with an e-mail: tkt sends it, the service refuses it (400). */
const GHOST_EMAIL = { email: 'ghost@nowhere.example' };

/** The outcome lines of a report (each row's "sending" line left out). */
const outcomes = (lines: readonly ReportLine[]) => lines.filter((line): line is ReportEntry => 'ok' in line);

const REGISTER_ROUTE = 'POST /api/TicketsApi/register';
const NEW_ROUTE = 'POST /api/TicketsApi/new';

describe('reading rows', () => {
  it('reads JSON Lines with blank lines skipped, numbers as text and lists for tag', () => {
    const rows = readRows('{"title":"A","site":1,"tag":[3,4]}\n\n{"Title":"B","tag":"5;6"}\n', 'jsonl', 'register');
    expect(rows.map((r) => [r.row, r.line, r.values, r.problems])).toEqual([
      [1, 1, { title: 'A', site: '1', tag: ['3', '4'] }, []],
      [2, 3, { title: 'B', tag: ['5', '6'] }, []],
    ]);
  });

  it('reads CSV with header names in any case, empty cells left out and ;-separated lists', () => {
    const rows = readRows('Title,Site,tag,priority\n"Printer, 2nd floor",HQ,1;2,\n', 'csv', 'register');
    expect(rows[0]!.values).toEqual({ title: 'Printer, 2nd floor', site: 'HQ', tag: ['1', '2'] });
    expect(rows[0]!.line).toBe(2);
  });

  it('refuses a CSV header with unknown or foreign columns, naming each', () => {
    expect(() => readRows('title,colour\nA,red\n', 'csv', 'register')).toThrow(/CSV header/);
    expect(() => readRows('title,subcategory,colour\nA,B,C\n', 'csv', 'new')).toThrow(
      expect.objectContaining({ details: ['column "subcategory" cannot be used with --integration', 'unknown column "colour"'] }),
    );
  });

  it('flags bad JSON lines and short CSV records as row problems, not file errors', () => {
    const jsonRows = readRows('{"title":"A"}\nnot json\n[1]\n{"title":{"x":1}}\n', 'jsonl', 'register');
    expect(jsonRows.map((r) => r.problems.length)).toEqual([0, 1, 1, 1]);
    const csvRows = readRows('title,site\nA\n', 'csv', 'register');
    expect(csvRows[0]!.problems).toEqual(['has 1 fields, the header has 2']);
  });

  it('gives the same hash to the same content whatever the format or column order', () => {
    const [fromJson] = readRows('{"site":"HQ","title":"A"}\n', 'jsonl', 'register');
    const [fromCsv] = readRows('title,site\nA,HQ\n', 'csv', 'register');
    expect(fromJson!.hash).toBe(fromCsv!.hash);
    expect(rowHash({ title: 'A', site: 'HQ' })).not.toBe(rowHash({ title: 'A', site: 'Remote' }));
  });

  it('reads a report, ignoring a torn last line left by a crash mid-write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tkt-report-'));
    try {
      const path = join(dir, 'r.jsonl');
      await writeFile(path, '{"row":1,"hash":"ab","ok":true,"id":7}\n{"row":2,"hash":"cd","ok":false,"status":400,"error":"x"}\n{"row":3,"ha');
      expect(await readReport(path)).toEqual([
        { row: 1, hash: 'ab', ok: true, id: 7 },
        { row: 2, hash: 'cd', ok: false, status: 400, error: 'x' },
      ]);
      await writeFile(path, 'garbage\n{"row":1,"hash":"ab","ok":true,"id":7}\n');
      await expect(readReport(path)).rejects.toThrow(/line 1 is not a report line/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('tells the format from the extension, else from the first character', () => {
    expect(detectFormat('a.csv', '{')).toBe('csv');
    expect(detectFormat('a.ndjson', 'x')).toBe('jsonl');
    expect(detectFormat('a.json', '[{"title":"A"}]')).toBe('json');
    expect(detectFormat('rows.txt', ' {"title":"A"}')).toBe('jsonl');
    expect(detectFormat('rows.txt', 'title,site')).toBe('csv');
  });
});

describe('tkt create --from', () => {
  let h: Harness;
  let dir: string;

  beforeAll(async () => {
    h = await createHarness({ login: 'tech' });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tkt-from-'));
    h.sandbox.resetStats();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const ticketsTitled = (prefix: string) => h.sandbox.state.tickets.filter((t) => t.title.startsWith(prefix));

  async function write(name: string, text: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  it('creates one ticket per JSON Lines row with names resolved, and writes the report', async () => {
    const file = await write(
      'tickets.jsonl',
      [
        '{"title":"jsonl-1 printer","description":"jammed","requester":"aberg","site":"Head Office","department":"IT","status":"Open","priority":"high"}',
        '',
        '{"title":"jsonl-2 vpn","description":"down","requester":"Peter Novak","site":"remote","department":"Operations","status":"open","tag":[1,2]}',
      ].join('\n'),
    );
    const result = await h.cli(['create', '--from', file, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const [first, second] = ticketsTitled('jsonl-').sort((a, b) => a.title.localeCompare(b.title));
    expect(first).toMatchObject({ title: 'jsonl-1 printer', siteId: 1, departmentId: 1, ticketStatusId: 1, ticketPriorityId: 3 });
    expect(second).toMatchObject({ title: 'jsonl-2 vpn', siteId: 3, departmentId: 4 });
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBe(2);

    // One JSON document (docs/cli.md section 3), not JSON Lines.
    const lines = JSON.parse(result.stdout) as { row: number; ok: boolean; id: number }[];
    expect(lines.sort((a, b) => a.row - b.row)).toEqual([
      { row: 1, ok: true, id: first!.id },
      { row: 2, ok: true, id: second!.id },
    ]);
    const report = outcomes(await readReport(`${file}.report.jsonl`));
    expect(report.map((entry) => [entry.row, entry.ok, entry.id]).sort()).toEqual([
      [1, true, first!.id],
      [2, true, second!.id],
    ]);
  });

  it('takes cc as a JSON list, as --cc given once per address', async () => {
    const file = await write(
      'cc.jsonl',
      '{"title":"cc-list","description":"d","requester":"aberg","site":1,"department":1,"status":1,"cc":["boss@example.com","lead@example.com"]}\n',
    );
    const result = await h.cli(['create', '--from', file]);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    expect(ticketsTitled('cc-list')[0]).toMatchObject({ cc: 'boss@example.com, lead@example.com' });
  });

  it('creates from CSV with quoted fields and attachments found next to the file; -q prints the IDs', async () => {
    await write('screen.txt', 'log line\n');
    const file = await write(
      'tickets.csv',
      'title,description,requester,site,department,status,attach\r\n' +
        '"csv-1 ""quoted"", with comma","two\r\nlines",alind,Harbour Depot,Finance,Pending,screen.txt\r\n' +
        'csv-2 plain,text,kmensah,1,2,1,\r\n',
    );
    const result = await h.cli(['create', '--from', file, '-q']);
    expect(result.code).toBe(0);
    const created = ticketsTitled('csv-');
    expect(created.map((t) => t.title).sort()).toEqual(['csv-1 "quoted", with comma', 'csv-2 plain']);
    const quoted = created.find((t) => t.title.startsWith('csv-1'))!;
    expect(quoted.description).toBe('two\nlines');
    expect(quoted.siteId).toBe(2);
    expect(h.sandbox.state.attachments.filter((a) => a.ticketId === quoted.id).map((a) => a.fileName)).toEqual(['screen.txt']);
    expect(result.stdout.trim().split('\n').map(Number).sort()).toEqual(created.map((t) => t.id).sort());
  });

  it('fails the rows whose files the service did not keep: each named, the tickets created, exit 1; --json carries kept and skipped', async () => {
    await write('kept.txt', 'log line\n');
    await write('build.exe', 'MZ');
    const rows =
      'title,description,requester,site,department,status,attach\r\n' + 'skip-1,d,aberg,1,1,1,kept.txt;build.exe\r\n' + 'skip-2,d,aberg,1,1,1,kept.txt\r\n';
    const human = await h.cli(['create', '--from', await write('skips.csv', rows)]);
    expect(human.code).toBe(ExitCode.failed);
    const [one, two] = [ticketsTitled('skip-1')[0]!, ticketsTitled('skip-2')[0]!];
    expect(h.sandbox.state.attachments.filter((a) => a.ticketId === one.id).map((a) => a.fileName)).toEqual(['kept.txt']);
    expect(human.stdout).toContain(`row 1: created #${one.id}`);
    expect(human.stdout).toContain(`row 2: created #${two.id}`);
    expect(human.stderr).toContain(`✗ row 1: the service did not keep build.exe`);
    expect(human.stderr).toMatch(/error: the service did not keep files of 1 of 2 rows: row 1/);

    const json = await h.cli(['create', '--from', await write('skips-again.csv', rows.replace(/skip-/g, 'again-')), '--json']);
    expect(json.code).toBe(ExitCode.failed);
    const lines = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(lines.find((line) => line.row === 1)).toMatchObject({ ok: true, kept: ['kept.txt'], skipped: ['build.exe'] });
    expect(lines.find((line) => line.row === 2)).toMatchObject({ ok: true, kept: ['kept.txt'], skipped: [] });
  });

  it('rejects the whole file before any request when rows are bad, naming every bad row', async () => {
    const file = await write(
      'bad.jsonl',
      [
        '{"title":"bad-ok","description":"d","requester":"aberg","site":1,"department":1,"status":1}',
        `{"title":"${'x'.repeat(256)}","description":"d","requester":"aberg","site":1,"department":1,"status":1}`,
        '{"title":"bad-missing","requester":"aberg","site":1}',
        '{"title":"bad-due","description":"d","requester":"aberg","site":1,"department":1,"status":1,"due":"next tuesday","attach":"nope.txt"}',
        '{"title":"bad-site","description":"d","requester":"aberg","site":"Atlantis","department":1,"status":1}',
      ].join('\n'),
    );
    const result = await h.cli(['create', '--from', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/4 of 5 rows in .*bad\.jsonl are not valid; nothing was sent/);
    expect(result.stderr).toMatch(/row 2 \(line 2\): title: 256 characters, the service accepts at most 255/);
    expect(result.stderr).toMatch(/row 3 \(line 3\): missing description, department, status/);
    expect(result.stderr).toMatch(/row 4 \(line 4\): due: .*; attach: .*nope\.txt: no such file/);
    expect(result.stderr).toMatch(/row 5 \(line 5\): unknown site "Atlantis"/);
    expect(result.stderr).not.toMatch(/row 1/);
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
    expect(ticketsTitled('bad-')).toEqual([]);
    await expect(readFile(`${file}.report.jsonl`)).rejects.toThrow(/ENOENT/);
  });

  it("lists every problem of a row in one pass: its values' formats and each name no lookup knows", async () => {
    const file = await write(
      'many-problems.csv',
      [
        'title,description,requester,site,department,status,due,cc',
        'many-1,d,nobody,Atlantis,IT,Open,,',
        'many-2,d,aberg,Atlantis,Nowhere,Open,next tuesday,not-an-address',
        'many-3,d,aberg,Head Office,IT,Open,,',
      ].join('\n'),
    );
    const result = await h.cli(['create', '--from', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/2 of 3 rows in .*many-problems\.csv are not valid; nothing was sent/);
    expect(result.stderr).toMatch(/row 1 \(line 2\): unknown requester "nobody"; unknown site "Atlantis"\n/);
    expect(result.stderr).toMatch(/row 2 \(line 3\): due: .*; cc: .*not-an-address.*; unknown site "Atlantis"; unknown department "Nowhere"\n/);
    expect(result.stderr).not.toMatch(/row 3/);
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
  });

  it('lists the candidates of each unknown name once, as tkt create does, naming the rows that use it', async () => {
    const file = await write(
      'unknown-names.csv',
      [
        'title,description,requester,site,department,status',
        'names-1,d,Nobody Here,Mars,IT,Open',
        'names-2,d,aberg,Mars,IT,Open',
        'names-3,d,Nobody Here,Mars,IT,Open',
      ].join('\n'),
    );
    const result = await h.cli(['create', '--from', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('  row 1 (line 2): unknown requester "Nobody Here"; unknown site "Mars"\n');
    // The site's candidates, as `tkt create --site Mars` lists them, once for its three rows.
    expect(result.stderr).toContain(
      '  unknown site "Mars" (rows 1-3):\n    candidates:\n      Head Office (id 1)\n      Harbour Depot (id 2)\n      Remote (id 3)\n',
    );
    // People are listed at a terminal only (test/lookups): the CLI here writes to a pipe.
    expect(result.stderr).toContain('\n  unknown requester "Nobody Here" (rows 1, 3):\n    (candidates not listed without a terminal: they name people)\n');
    expect(result.stderr).not.toContain('aberg');
    expect(result.stderr.match(/Harbour Depot/g)).toHaveLength(1);
    expect(result.stderr).toContain('hint: see "tkt metadata --collection requesters" and "tkt metadata --collection sites"\n');
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
  });

  it('names a JSON Lines row that cannot be read by that alone, not by columns it would lack', async () => {
    const file = await write('unreadable.jsonl', ['{"title":"x"', '5', '{}'].join('\n'));
    const result = await h.cli(['create', '--from', file]);
    expect(result.code).toBe(2);
    const lines = result.stderr.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^\s*row 1 \(line 1\): not valid JSON: [^;]+$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\s*row 2 \(line 2\): expected an object like \{"title": "\.\.\.", \.\.\.\}$/));
    // An object with nothing in it was read: what it lacks is what is wrong with it.
    expect(lines).toContainEqual(expect.stringMatching(/^\s*row 3 \(line 3\): missing title, /));
  });

  it('tells a ticket piped from tkt show or tkt list in one line, not an error per line or per member; nothing sent', async () => {
    const shown = await h.cli(['show', '1031', '--json']);
    const pretty = await h.cli(['create', '--from', '-', '--dry-run'], { stdin: shown.stdout });
    expect(pretty.code).toBe(ExitCode.usage);
    expect(pretty.stderr).toBe(
      `error: the input is JSON pretty-printed over ${shown.stdout.trimEnd().split('\n').length} lines, not JSON Lines (one object per line)\n` +
        'hint: it looks like a ticket as "tkt show --json" prints it, which is not a row of create columns either: see "Copying tickets between profiles" in the README\n',
    );
    const seeRecipe = 'not a row of create columns (title, description, requester, site, ...): see "Copying tickets between profiles" in the README';
    const compact = await h.cli(['create', '--from', '-', '--dry-run'], { stdin: (await h.cli(['show', '1031', '--query', '[@]', '--raw'])).stdout });
    expect(compact.code).toBe(ExitCode.usage);
    expect(compact.stderr).toBe(
      `error: 1 of 1 rows in - are not valid; nothing was sent\n  row 1 (line 1): looks like a ticket as "tkt show --json" prints it, ${seeRecipe}\n`,
    );
    const listed = await h.cli(['create', '--from', '-', '--dry-run'], { stdin: (await h.cli(['list', '--limit', '2', '--json'])).stdout });
    expect(listed.code).toBe(ExitCode.usage);
    expect(listed.stderr).toContain(`\n  row 2: looks like a ticket as "tkt list --json" prints it, ${seeRecipe}\n`);
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
  });

  it('says in words why the report or the file cannot be opened, before any create', async () => {
    const file = await write('unwritable.csv', 'title,description,requester,site,department,status\nnope,d,aberg,1,1,1\n');
    const report = join(dir, 'no-such-folder', 'r.jsonl');
    const result = await h.cli(['create', '--from', file, '--report', report]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: cannot write the report ${report}: no such file`);
    const missing = await h.cli(['create', '--from', join(dir, 'missing.csv')]);
    expect(missing.stderr).toContain(`error: --from: cannot read ${join(dir, 'missing.csv')}: no such file`);
    for (const run of [result, missing]) expect(run.stderr).not.toContain('ENOENT');
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
  });

  it('refuses a --report that is a directory, naming it, before any create; --dry-run refuses it too', async () => {
    const file = await write('to-folder.csv', 'title,description,requester,site,department,status\nfolder-1,d,aberg,1,1,1\n');
    for (const extra of [[], ['--dry-run']]) {
      const result = await h.cli(['create', '--from', file, '--report', dir, ...extra]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: report ${dir} is a directory`);
      expect(result.stderr).not.toContain('--resume');
    }
    // What a real run refuses, a dry run refuses too: an existing report without --resume.
    const existing = await write('old.report.jsonl', '');
    const dry = await h.cli(['create', '--from', file, '--report', existing, '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain(`error: report ${existing} already exists`);
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
    expect(ticketsTitled('folder-')).toEqual([]);
  });

  it('refuses - for --report and --resume: each is a file tkt writes, not stdout or stdin', async () => {
    const file = await write('dash.csv', 'title,description,requester,site,department,status\ndash-1,d,aberg,1,1,1\n');
    for (const flag of ['--report', '--resume']) {
      const result = await h.cli(['create', '--from', file, flag, '-']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`error: ${flag} -: .*file`));
      expect(result.stderr).not.toMatch(/hint: .*--resume -/);
    }
    expect(existsSync('-')).toBe(false);
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
    expect(ticketsTitled('dash-')).toEqual([]);
  });

  // A nightly `export-new-rows | tkt create --from -` on a quiet day succeeds, as `tkt close -`
  // does with no IDs: exit 2 would say the command line is wrong.
  it('an input with no rows is nothing to do: a note, exit 0, --json [], nothing sent and no report', async () => {
    const header = await write('hdr.csv', 'title,description,requester,site,department,status\r\n');
    const empty = await write('empty.jsonl', '');
    const blank = await write('blank.jsonl', '\n\n');
    for (const file of [header, empty, blank]) {
      for (const extra of [[], ['--dry-run']]) {
        const note = `${file} has no rows: nothing to do\n`;
        expect(await h.cli(['create', '--from', file, ...extra]), file).toEqual({ code: 0, stdout: '', stderr: note });
        expect(await h.cli(['create', '--from', file, '--json', ...extra]), file).toEqual({ code: 0, stdout: '[]\n', stderr: note });
        expect(await h.cli(['create', '--from', file, '-q', ...extra]), file).toEqual({ code: 0, stdout: '', stderr: '' });
      }
      expect(existsSync(`${file}.report.jsonl`), file).toBe(false);
      expect(existsSync(`${file}.report.jsonl.lock`), file).toBe(false);
    }
    // --query and --fields shape the empty array as any other.
    expect((await h.cli(['create', '--from', header, '--query', 'length(@)'])).stdout).toBe('0\n');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('resuming over an input with no rows: nothing to do if the report records none, refused if it records rows the input lost', async () => {
    const header = 'title,description,requester,site,department,status\n';
    const file = await write('quiet.csv', header);
    const report = await write('quiet.report.jsonl', '');
    const separate = join(dir, 'separate.report.jsonl');
    const resumed = await h.cli(['create', '--from', file, '--resume', report, '--report', separate, '--retry-in-doubt']);
    expect(resumed).toEqual({ code: 0, stdout: '', stderr: `${file} has no rows: nothing to do\n` });
    expect(readFileSync(report, 'utf8')).toBe('');
    expect(existsSync(separate)).toBe(false);
    // A report of rows created: an input emptied since is the file lost rows, as ever.
    const [row] = readRows(`${header}quiet-1,d,aberg,1,1,1\n`, 'csv', 'register');
    await writeFile(report, `{"row":1,"hash":"${row!.hash}","ok":true,"id":1}\n`);
    const lost = await h.cli(['create', '--from', file, '--resume', report]);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain(`error: ${report} does not match ${file}: ${file} has 0 rows, fewer than the report records (row 1)`);
    // A row it does not have cannot be settled.
    await writeFile(report, '');
    const settled = await h.cli(['create', '--from', file, '--resume', report, '--created', '1=1']);
    expect(settled.code).toBe(2);
    expect(settled.stderr).toContain(`error: --created: row 1 is not in doubt in ${report}`);
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('dry run validates and shows every row but sends no create and writes no report', async () => {
    const file = await write('dry.csv', 'title,description,requester,site,department,status\ndry-1,d,aberg,Head Office,IT,Open\n');
    const result = await h.cli(['create', '--from', file, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('dry run: would send 1 × POST /api/TicketsApi/register (nothing was sent)');
    // Each row listed as `tkt create --dry-run` lists its one ticket.
    expect(result.stdout).toMatch(/^ {2}row 1:\n {4}Title: +dry-1$/m);
    expect(result.stdout).toMatch(/^ {4}SiteId: +1 \(Head Office\)$/m);
    expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBeUndefined();
    await expect(readFile(`${file}.report.jsonl`)).rejects.toThrow(/ENOENT/);
  });

  it('--json prints one JSON array, failed rows included, also when the run fails; --dry-run --json too', async () => {
    const row = (n: number, requester: string) =>
      JSON.stringify({ title: `json-array-${n}`, description: 'from CI', requester, ...(requester === 'ghost' ? GHOST_EMAIL : {}) });
    const file = await write('array.jsonl', [row(1, 'aberg'), row(2, 'ghost')].join('\n') + '\n');
    const dry = await h.cli(['create', '--from', file, '--integration', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect((JSON.parse(dry.stdout) as { row: number; dryRun: boolean }[]).map((entry) => [entry.row, entry.dryRun])).toEqual([
      [1, true],
      [2, true],
    ]);

    const result = await h.cli(['create', '--from', file, '--integration', '--concurrency', '1', '--json']);
    expect(result.code).toBe(1);
    const [created] = ticketsTitled('json-array-');
    expect(JSON.parse(result.stdout)).toEqual([
      { row: 1, ok: true, id: created!.id },
      { row: 2, ok: false, status: 400, error: expect.stringContaining('ghost') },
    ]);
  });

  it('after a partial failure, --resume creates each remaining ticket exactly once', async () => {
    const row = (n: number, requester: string) =>
      JSON.stringify({ title: `resume-${n}`, description: 'from CI', requester, ...(requester === 'ghost' ? GHOST_EMAIL : {}) });
    // "ghost" with an e-mail passes every local check (the service may match the requester by
    // e-mail) and is refused by the service (400), as an unknown user would be.
    const lines = [row(1, 'aberg'), row(2, 'ghost'), row(3, 'pnovak'), row(4, 'ghost'), row(5, 'lwei')];
    const file = await write('ci.jsonl', lines.join('\n') + '\n');
    const report = `${file}.report.jsonl`;

    const first = await h.cli(['create', '--from', file, '--integration', '--concurrency', '2']);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('error: 2 of 5 rows failed\n');
    expect(first.stderr).toContain('  failed rows: 2, 4\n');
    expect(first.stderr).toMatch(/✗ row 2: not found \(HTTP 400\): Requester "ghost" was not found/);
    expect(first.stderr).toContain(`--resume ${report}`);
    expect(
      ticketsTitled('resume-')
        .map((t) => t.title)
        .sort(),
    ).toEqual(['resume-1', 'resume-3', 'resume-5']);

    // Running again without --resume would duplicate: refused, nothing sent.
    const again = await h.cli(['create', '--from', file, '--integration']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
    // Its other way on, another report, is said to create every row again: not offered as a way to go on.
    expect(again.stderr).toContain(
      `hint: to skip the rows it shows as created, add --resume ${report}; another report (--report FILE) starts over and creates every row again, a second ticket for each one created before\n`,
    );

    // Fix the failed rows only, then resume: just rows 2 and 4 are created.
    lines[1] = row(2, 'mgarcia');
    lines[3] = row(4, 'fkhan');
    await writeFile(file, lines.join('\n') + '\n');
    h.sandbox.resetStats();
    const resumed = await h.cli(['create', '--from', file, '--integration', '--resume', report]);
    expect(resumed.stderr).toMatch(/created 2 tickets, 3 skipped as already created/);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/- row 1 already created as #\d+ \(skipped\)/);
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBe(2);
    const titles = ticketsTitled('resume-')
      .map((t) => t.title)
      .sort();
    expect(titles).toEqual(['resume-1', 'resume-2', 'resume-3', 'resume-4', 'resume-5']);

    // A third run creates nothing at all.
    h.sandbox.resetStats();
    const third = await h.cli(['create', '--from', file, '--integration', '--resume', report, '--json']);
    expect(third.code).toBe(0);
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBeUndefined();
    // skippedRow, not skipped: a row's `skipped` is the list of its files the service refused.
    const thirdRows = JSON.parse(third.stdout) as { skippedRow?: boolean; skipped?: unknown }[];
    expect(thirdRows.map((entry) => [entry.skippedRow, entry.skipped])).toEqual(Array(5).fill([true, undefined]));
    expect(ticketsTitled('resume-')).toHaveLength(5);
  });

  it("refuses a second run on a report in use, at once and with the holder named: each row created once; a dead holder's lock is taken over", async () => {
    const row = (n: number) => JSON.stringify({ title: `locked-${n}`, description: 'd', requester: 'aberg' });
    const file = await write('locked.jsonl', [1, 2, 3, 4].map(row).join('\n'));
    const report = `${file}.report.jsonl`;
    // A first run left rows 2-4 for --resume.
    await writeFile(report, JSON.stringify({ row: 1, hash: readRows(row(1), 'jsonl', 'new')[0]!.hash, ok: true, id: 1 }) + '\n');
    // The first resume's creates are held until the second run has ended.
    let reached = () => {};
    const sending = new Promise<void>((resolve) => (reached = resolve));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const front = await startFrontServer(h, () => false, {
      gate: async (req) => {
        if (req.url !== '/api/TicketsApi/new') return;
        reached();
        await held;
      },
    });
    try {
      const env = { TKT_URL: front.url, TKT_TOKEN: h.sandbox.issueToken('tech') };
      const first = h.cli(['create', '--from', file, '--integration', '--resume', report], { env });
      await sending;
      const second = await h.cli(['create', '--from', file, '--integration', '--resume', report], { env });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`error: the report ${report} is in use by another tkt create --from (pid ${process.pid})\n`);
      expect(second.stderr).toContain(`remove ${report}.lock`);
      expect(second.stdout).toBe('');
      release();
      expect((await first).code).toBe(0);
    } finally {
      release();
      await front.close();
    }
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBe(3);
    expect(existsSync(`${report}.lock`)).toBe(false);

    // A lock whose process is gone (killed) is taken over.
    const file2 = await write('stale.jsonl', [5, 6].map(row).join('\n'));
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(`${file2}.report.jsonl.lock`, String(deadPid));
    const after = await h.cli(['create', '--from', file2, '--integration']);
    expect(after.stderr).toMatch(/created 2 tickets/);
    expect(after.code).toBe(0);
    expect(existsSync(`${file2}.report.jsonl.lock`)).toBe(false);
  });

  it('refuses to resume when a row the report shows as created was edited', async () => {
    const file = await write('edit.jsonl', '{"title":"edit-1","description":"d","requester":"aberg"}\n');
    expect((await h.cli(['create', '--from', file, '--integration'])).code).toBe(0);
    await writeFile(file, '{"title":"edit-1 renamed","description":"d","requester":"aberg"}\n');
    h.sandbox.resetStats();
    const result = await h.cli(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/row 1 was created as #\d+ from different content/);
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBeUndefined();
    expect(ticketsTitled('edit-1')).toHaveLength(1);
  });

  it('says that the file lost rows when rows the report records were taken off its end, not that they changed', async () => {
    const lines = [1, 2, 3].map((n) => JSON.stringify({ title: `shorter-${n}`, description: 'd', requester: 'aberg' }));
    const file = await write('shorter.jsonl', lines.join('\n'));
    expect((await h.cli(['create', '--from', file, '--integration'])).code).toBe(0);
    await writeFile(file, lines.slice(0, 2).join('\n'));
    h.sandbox.resetStats();
    const result = await h.cli(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${file}.report.jsonl does not match ${file}: ${file} has 2 rows, fewer than the report records (row 3)\n`);
    expect(result.stderr).toContain('  recorded as created or in doubt, not in the file: row 3\n');
    expect(result.stderr).not.toContain('different content');
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBeUndefined();
  });

  it('refuses a file over 64 MB with how to split it, keeping the CSV header on each part', async () => {
    const big = 'x'.repeat(64 * 1024 * 1024 + 1);
    const csv = await write('big.csv', `title,description\n${big}`);
    const refused = await h.cli(['create', '--from', csv]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error: --from: cannot read ${csv}: larger than 64 MB, more than tkt reads\n`);
    expect(refused.stderr).toContain('hint: split it and import each part with its own --from (each gets its own report); a CSV part needs the header row');
    expect(refused.stderr).toContain(`tail -n +2 ${csv} | split -l 100000 - ${join(dir, 'big.part-')}`);
    expect(refused.stderr).toContain(`head -n 1 ${csv}`);
    const jsonl = await write('big.jsonl', big);
    const lines = await h.cli(['create', '--from', jsonl]);
    expect(lines.code).toBe(2);
    expect(lines.stderr).toContain(`split -l 100000 ${jsonl} ${join(dir, 'big.part-')}\n`);
    expect(lines.stderr).not.toContain('header');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it("names each row whose due date the service's SLA replaced, with both dates: created and recorded, exit 1", async () => {
    const named = '2030-01-15T12:00';
    const row = (n: number, priority?: string) =>
      JSON.stringify({
        title: `sla-${n}`,
        description: 'd',
        requester: 'aberg',
        site: 1,
        department: 1,
        status: 1,
        due: named,
        ...(priority ? { priority } : {}),
      });
    const file = await write('sla.jsonl', [row(1, 'high'), row(2), row(3, 'low')].join('\n'));
    const result = await h.cli(['create', '--from', file, '--concurrency', '1']);
    expect(result.code).toBe(1);
    const [first, second, third] = ticketsTitled('sla-').sort((a, b) => a.title.localeCompare(b.title));
    expect(Date.parse(second!.dueDate!)).toBe(new Date(named).getTime());
    for (const [n, ticket] of [
      [1, first!],
      [3, third!],
    ] as const) {
      expect(result.stderr).toContain(
        `! row ${n}: created #${ticket.id}, but the service set its due date to ${formatDate(new Date(ticket.dueDate!))} (its SLA), not 2030-01-15 12:00\n`,
      );
    }
    expect(result.stderr).not.toMatch(/row 2:/);
    expect(result.stderr).toContain('error: the service set its own due date (its SLA) on 2 of 3 rows: row 1, row 3\n');
    expect(result.stderr).toMatch(/hint: .*tkt update ID --due/);
    // Created, so recorded: --resume creates none of them again.
    expect(outcomes(await readReport(`${file}.report.jsonl`)).every((entry) => entry.ok)).toBe(true);
  });

  it('reads a JSON array; a separate --report gets the rows created earlier copied in', async () => {
    const rows = [1, 2].map((n) => ({ title: `array-${n}`, description: 'd', requester: 'aberg' }));
    const file = await write('rows.json', JSON.stringify(rows));
    const first = await h.cli(['create', '--from', file, '--integration', '--concurrency', '1']);
    expect(first.code).toBe(0);
    await writeFile(file, JSON.stringify([...rows, { title: 'array-3', description: 'd', requester: 'aberg' }]));
    const second = join(dir, 'second.jsonl');
    const resumed = await h.cli(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`, '--report', second]);
    expect(resumed.code).toBe(0);
    expect(
      ticketsTitled('array-')
        .map((t) => t.title)
        .sort(),
    ).toEqual(['array-1', 'array-2', 'array-3']);
    const entries = outcomes(await readReport(second));
    expect(entries.map((e) => [e.row, e.ok, e.skippedRow ?? false]).sort()).toEqual([
      [1, true, true],
      [2, true, true],
      [3, true, false],
    ]);
  });

  it('on Ctrl-C starts nothing more, exits 130, and a resume creates the rest', async () => {
    const file = await write('stop.jsonl', [1, 2, 3].map((n) => JSON.stringify({ title: `stop-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const options: CreateFromOptions = { file, report: undefined, resume: undefined, integration: true, concurrency: 1, dryRun: false, retryInDoubt: false };
    const interrupted = await h.context();
    interrupted.abort.abort();
    await expect(runCreateFrom(options, interrupted.ctx)).rejects.toMatchObject({
      exitCode: ExitCode.interrupted,
      details: expect.arrayContaining(['rows not started: 1-3']),
    });
    expect(ticketsTitled('stop-')).toEqual([]);

    const resumed = await h.context();
    await runCreateFrom({ ...options, resume: `${file}.report.jsonl` }, resumed.ctx);
    expect(
      ticketsTitled('stop-')
        .map((t) => t.title)
        .sort(),
    ).toEqual(['stop-1', 'stop-2', 'stop-3']);
    expect(resumed.stdout()).toMatch(/✓ row 3: created #\d+/);
  });

  it('after Ctrl-C, the resume line repeats what the run used (--integration, --concurrency, the profile) and, run as shown, finishes', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'ops');
    // Rows for the integration endpoint: with register's columns missing, only `new` takes them.
    const file = await write('hint.jsonl', [1, 2].map((n) => JSON.stringify({ title: `hint-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const options: CreateFromOptions = { file, report: undefined, resume: undefined, integration: true, concurrency: 1, dryRun: false, retryInDoubt: false };
    // The names looked up first (a dry run fills the profile's cache): the run stops at its rows.
    await runCreateFrom({ ...options, dryRun: true }, (await h.context({ globals: { profile: 'ops' } })).ctx);
    const interrupted = await h.context({ globals: { profile: 'ops' } });
    interrupted.abort.abort();
    const stopped: unknown = await runCreateFrom(options, interrupted.ctx).catch((error: unknown) => error);
    expect(stopped).toMatchObject({ exitCode: ExitCode.interrupted });
    const { hint } = stopped as { hint: string };
    expect(hint).toBe(`to finish: tkt create --from ${file} --integration --concurrency 1 --resume ${file}.report.jsonl --profile ops`);

    const [, ...argv] = hint.replace('to finish: ', '').split(' ');
    const resumed = await h.cli(argv);
    expect(resumed.stderr).toBe('created 2 tickets; report: ' + `${file}.report.jsonl\n`);
    expect(resumed.code).toBe(0);
    expect(
      ticketsTitled('hint-')
        .map((t) => t.title)
        .sort(),
    ).toEqual(['hint-1', 'hint-2']);
  });

  it.each([
    ['--json', { json: true }, '--json'],
    ['-q', { quiet: true }, '-q'],
    ['--query and --raw', { query: '[].id', raw: true }, "--query '[].id' --raw"],
    ['--fields', { fields: 'row,ok' }, '--fields row,ok'],
  ])('after Ctrl-C, the resume line keeps the output options given (%s)', async (_name, globals, words) => {
    const file = await write('output.jsonl', [1, 2].map((n) => JSON.stringify({ title: `output-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const options: CreateFromOptions = { file, report: undefined, resume: undefined, integration: true, concurrency: 2, dryRun: false, retryInDoubt: false };
    const interrupted = await h.context({ globals });
    interrupted.abort.abort();
    const stopped: unknown = await runCreateFrom(options, interrupted.ctx).catch((error: unknown) => error);
    expect(stopped).toMatchObject({
      exitCode: ExitCode.interrupted,
      hint: `to finish: tkt create --from ${file} --integration --concurrency 2 --resume ${file}.report.jsonl ${words}`,
    });
  });

  it('stopped while it looks names up, before any row: nothing sent, every row not started, the same command to finish', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'fresh');
    const file = await write('names.jsonl', [1, 2].map((n) => JSON.stringify({ title: `names-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const options: CreateFromOptions = {
      file,
      report: undefined,
      resume: undefined,
      integration: true,
      concurrency: undefined,
      dryRun: false,
      retryInDoubt: false,
    };
    // A profile whose lookups are not cached yet: the run would fetch them, but it is stopped.
    const interrupted = await h.context({ globals: { profile: 'fresh' } });
    interrupted.abort.abort();
    const stopped: unknown = await runCreateFrom(options, interrupted.ctx).catch((error: unknown) => error);
    expect(stopped).toMatchObject({ exitCode: ExitCode.interrupted, message: 'interrupted: nothing was sent', details: ['rows not started: 1-2'] });
    const { hint } = stopped as { hint: string };
    expect(hint).toBe(`to finish: tkt create --from ${file} --integration --profile fresh`);
    expect(ticketsTitled('names-')).toEqual([]);

    const [, ...argv] = hint.replace('to finish: ', '').split(' ');
    const finished = await h.cli(argv);
    expect(finished.stderr).toBe(`created 2 tickets; report: ${file}.report.jsonl\n`);
    expect(ticketsTitled('names-')).toHaveLength(2);
  });

  it('on a second signal gives up the row in flight as in doubt; --resume holds it back until --retry-in-doubt', async () => {
    const file = await write('doubt.jsonl', [1, 2, 3].map((n) => JSON.stringify({ title: `doubt-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    // In front of the sandbox: row 2 is created there, but its answer never comes back.
    let forwarded: Promise<unknown> | undefined;
    const front = await startFrontServer(h, (req, _res, body) => {
      if (!body.includes('doubt-2')) return false;
      forwarded = fetch(`${h.sandbox.url}${req.url ?? '/'}`, {
        method: 'POST',
        headers: { authorization: req.headers.authorization!, 'content-type': req.headers['content-type']! },
        body,
      });
      return true;
    });
    try {
      const options: CreateFromOptions = { file, report: undefined, resume: undefined, integration: true, concurrency: 1, dryRun: false, retryInDoubt: false };
      const run = await h.context({ env: frontEnv(h, front) });
      const pending = runCreateFrom(options, run.ctx);
      await vi.waitFor(async () => {
        await forwarded;
        expect(ticketsTitled('doubt-2')).toHaveLength(1);
      });
      run.abort.abort();
      run.halt.abort();
      await expect(pending).rejects.toMatchObject({
        exitCode: ExitCode.interrupted,
        details: expect.arrayContaining(['rows in doubt (the service may have created them): 2', 'rows not started: 3']),
      });
      const report = await readReport(`${file}.report.jsonl`);
      expect(outcomes(report).map((entry) => [entry.row, entry.ok, entry.inDoubt ?? false])).toEqual([
        [1, true, false],
        [2, false, true],
      ]);

      // Resumed: row 3 is created, row 2 is named and not sent again (the sandbox has it already).
      const resumed = await h.cli(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`]);
      expect(resumed.code).toBe(1);
      expect(resumed.stderr).toMatch(/row 2: in doubt/);
      expect(resumed.stderr).toContain('error: 1 of 3 rows in doubt\n');
      expect(resumed.stderr).toContain('  rows in doubt (the service may have created them): 2\n');
      expect(
        ticketsTitled('doubt-')
          .map((t) => t.title)
          .sort(),
      ).toEqual(['doubt-1', 'doubt-2', 'doubt-3']);

      // Asked to, it sends row 2 again; the report then shows it created.
      const retried = await h.cli(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`, '--retry-in-doubt']);
      expect(retried.code).toBe(0);
      expect(ticketsTitled('doubt-2')).toHaveLength(2);
      const again = await h.cli(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`]);
      expect(again.code).toBe(0);
      expect(ticketsTitled('doubt-')).toHaveLength(4);
    } finally {
      await front.close();
    }
  });

  it("a row answered 201 with no body and the ticket's address (Location) is created, its ID read from there", async () => {
    const file = await write('address.jsonl', [1, 2].map((n) => JSON.stringify({ title: `address-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const report = join(dir, 'address.report.jsonl');
    const front = addressOnlyAnswers(
      h,
      (req) => req.url === '/api/TicketsApi/new',
      (id) => `/api/TicketsApi/${id}`,
    );
    const server = await startFrontServer(h, front.answer);
    try {
      const run = await h.cli(['create', '--from', file, '--integration', '--report', report, '--concurrency', '1'], { env: frontEnv(h, server) });
      expect(run.code).toBe(0);
      const ids = ticketsTitled('address-')
        .sort((a, b) => a.title.localeCompare(b.title))
        .map((t) => t.id);
      const recorded = outcomes(await readReport(report)).sort((a, b) => a.row - b.row);
      expect(recorded.map((entry) => [entry.row, entry.ok, entry.id])).toEqual([
        [1, true, ids[0]],
        [2, true, ids[1]],
      ]);
    } finally {
      await server.close();
    }
  });

  it('a row answered 200 with a body cut in half is in doubt: --resume does not send it again unless --retry-in-doubt', async () => {
    const file = await write('half.jsonl', [1, 2, 3].map((n) => JSON.stringify({ title: `half-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const report = join(dir, 'half.report.jsonl');
    // A relay in front of the sandbox: row 2 is created there, and its answer comes back cut in half.
    const front = await startFrontServer(
      h,
      halvedAnswers(h, (req, body) => req.url === '/api/TicketsApi/new' && body.includes('half-2')),
    );
    try {
      const run = await h.cli(['create', '--from', file, '--integration', '--report', report], { env: frontEnv(h, front) });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/\? row 2: in doubt \(the service may have created it\): unusable answer \(HTTP 200\): /);
      expect(run.stderr).toContain('  rows in doubt (the service may have created them): 2\n');
      const recorded = outcomes(await readReport(report)).sort((a, b) => a.row - b.row);
      expect(recorded.map((entry) => [entry.row, entry.ok, entry.inDoubt ?? false, entry.status])).toEqual([
        [1, true, false, undefined],
        [2, false, true, 200],
        [3, true, false, undefined],
      ]);
      expect(ticketsTitled('half-2')).toHaveLength(1);

      // Resumed: row 2 is named and not sent again, so no second ticket.
      h.sandbox.resetStats();
      const resumed = await h.cli(['create', '--from', file, '--integration', '--resume', report]);
      expect(resumed.code).toBe(1);
      expect(resumed.stderr).toContain('  rows in doubt (the service may have created them): 2\n');
      expect(h.sandbox.stats.byRoute[NEW_ROUTE] ?? 0).toBe(0);
      expect(ticketsTitled('half-2')).toHaveLength(1);

      // Asked to, it sends row 2 again.
      const retried = await h.cli(['create', '--from', file, '--integration', '--resume', report, '--retry-in-doubt']);
      expect(retried.code).toBe(0);
      expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBe(1);
      expect(ticketsTitled('half-2')).toHaveLength(2);
    } finally {
      await front.close();
    }
  });

  it('settles rows in doubt one by one: --created ROW=ID records a row the service has, --retry-in-doubt ROWS sends only those', async () => {
    const file = await write(
      'settle.jsonl',
      [1, 2, 3, 4].map((n) => JSON.stringify({ title: `settle-${n}`, description: 'd', requester: 'aberg' })).join('\n'),
    );
    const report = `${file}.report.jsonl`;
    // A gateway answers 504 to rows 2 and 3: the service created row 2, never saw row 3.
    const front = await startFrontServer(h, (req, res, body) => {
      if (body.includes('settle-3')) {
        res.writeHead(504).end();
        return true;
      }
      if (!body.includes('settle-2')) return false;
      void fetch(`${h.sandbox.url}${req.url ?? '/'}`, {
        method: 'POST',
        headers: { authorization: req.headers.authorization!, 'content-type': req.headers['content-type']! },
        body,
      }).then(() => res.writeHead(504).end());
      return true;
    });
    try {
      const first = await h.cli(['create', '--from', file, '--integration'], { env: frontEnv(h, front) });
      expect(first.code).toBe(1);
    } finally {
      await front.close();
    }
    const [created2] = ticketsTitled('settle-2');
    expect(ticketsTitled('settle-3')).toEqual([]);

    // The hint names the command lines that settle them.
    const resume = ['create', '--from', file, '--integration', '--resume', report];
    const held = await h.cli(resume);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('error: 2 of 4 rows in doubt\n');
    expect(held.stderr).toContain(`--created ROW=ID`);
    expect(held.stderr).toContain(`create --from ${file} --integration --resume ${report} --created ROW=ID`);
    expect(held.stderr).toContain(`create --from ${file} --integration --resume ${report} --retry-in-doubt 2-3`);

    // Refused before any request: a row not in doubt or created as another ticket, a malformed pair, the same row both ways, without --resume.
    const createsBefore = h.sandbox.stats.byRoute[NEW_ROUTE];
    for (const [args, message] of [
      [[...resume, '--retry-in-doubt', '2,9'], /--retry-in-doubt: row 9 is not in doubt in .*\n.*hint: the rows in doubt there: 2, 3/],
      [[...resume, '--retry-in-doubt', '2,x'], /--retry-in-doubt: "x" is not a row number/],
      [[...resume, '--created', '2'], /--created: expected ROW=ID \(the row and the ticket the service created from it\), got "2"/],
      [[...resume, '--created', '9=5'], /--created: row 9 is not in doubt in /],
      [[...resume, '--created', '4=5'], /--created: row 4 is recorded in .* as created as #\d+, not #5/],
      [[...resume, '--created', '2=5', '--retry-in-doubt', '2'], /row 2 is given to both --created and --retry-in-doubt/],
      [['create', '--from', file, '--created', '2=5'], /--created needs --resume REPORT/],
    ] as const) {
      const refused = await h.cli([...args]);
      expect(refused.stderr).toMatch(message);
      expect(refused.code).toBe(2);
    }
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBe(createsBefore);

    // Row 2 recorded as the ticket found, row 3 sent again: each ticket once.
    const settled = await h.cli([...resume, '--created', `2=${created2!.id}`, '--retry-in-doubt', '3']);
    expect(settled.stderr).toBe(`created 1 ticket, 3 skipped as already created; report: ${report}\n`);
    expect(settled.stdout).toContain(`- row 2 already created as #${created2!.id} (skipped)\n`);
    expect(settled.code).toBe(0);
    expect(ticketsTitled('settle-2')).toHaveLength(1);
    expect(ticketsTitled('settle-3')).toHaveLength(1);
    expect(outcomes(await readReport(report)).find((entry) => entry.row === 2 && entry.ok)).toMatchObject({ id: created2!.id, recorded: '--created' });

    // The same command again does no harm; a plain --resume finds every row done.
    const again = await h.cli([...resume, '--created', `2=${created2!.id}`, '--retry-in-doubt', '3']);
    expect(again.code).toBe(0);
    const done = await h.cli(resume);
    expect(done.stderr).toBe(`created 0 tickets, 4 skipped as already created; report: ${report}\n`);
    expect(done.code).toBe(0);
    expect(ticketsTitled('settle-')).toHaveLength(4);
  });

  it("--created reads the ticket first: one that does not exist, or whose title is not the row's, is refused (exit 2) and nothing is recorded", async () => {
    const [mine, other] = h.sandbox.state.tickets.filter((t) => !t.isDeleted);
    const row = (title: string) => JSON.stringify({ title, description: 'd', requester: 'aberg' });
    const lines = [row('checked-1'), row(mine!.title)];
    const file = await write('checked.jsonl', lines.join('\n'));
    const report = `${file}.report.jsonl`;
    // Row 1 created, row 2 sent and never answered.
    const [first, second] = readRows(lines.join('\n'), 'jsonl', 'new');
    const written = [JSON.stringify({ row: 1, hash: first!.hash, ok: true, id: 1 }), JSON.stringify({ row: 2, hash: second!.hash, sending: true }), ''].join(
      '\n',
    );
    await writeFile(report, written);
    const resume = ['create', '--from', file, '--integration', '--resume', report];
    const title = JSON.stringify(mine!.title);

    const unrelated = await h.cli([...resume, '--created', `2=${other!.id}`]);
    expect(unrelated.stderr).toContain(`error: --created 2=${other!.id}: ticket #${other!.id} is ${JSON.stringify(other!.title)}; row 2's title is ${title}\n`);
    expect(unrelated.stderr).toContain('  nothing was recorded\n');
    expect(unrelated.code).toBe(2);
    const missing = await h.cli([...resume, '--created', '2=99999999', '--dry-run']);
    expect(missing.stderr).toContain(`error: --created 2=99999999: ticket #99999999 does not exist; row 2's title is ${title}\n`);
    expect(missing.code).toBe(2);
    expect(await readFile(report, 'utf8')).toBe(written);
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBeUndefined();

    // The ticket that has the row's title is recorded.
    const settled = await h.cli([...resume, '--created', `2=${mine!.id}`]);
    expect(settled.stdout).toContain(`- row 2 already created as #${mine!.id} (skipped)\n`);
    expect(settled.code).toBe(0);
  });

  it('--created takes the ticket of a row whose title the file holds decomposed (NFD): it was sent, and stored, composed', async () => {
    const composedTitle = 'Müller printer jam (created check)';
    const created = h.sandbox.state.tickets.find((t) => !t.isDeleted)!;
    const savedTitle = created.title;
    created.title = composedTitle;
    try {
      const lines = [JSON.stringify({ title: composedTitle.normalize('NFD'), description: 'd', requester: 'aberg' })];
      const file = await write('decomposed.jsonl', lines.join('\n'));
      const report = `${file}.report.jsonl`;
      const [only] = readRows(lines.join('\n'), 'jsonl', 'new');
      await writeFile(report, `${JSON.stringify({ row: 1, hash: only!.hash, sending: true })}\n`);
      const settled = await h.cli(['create', '--from', file, '--integration', '--resume', report, '--created', `1=${created.id}`]);
      expect(settled.stderr).not.toContain('error:');
      expect(settled.stdout).toContain(`- row 1 already created as #${created.id} (skipped)\n`);
      expect(settled.code).toBe(0);
    } finally {
      created.title = savedTitle;
    }
  });

  it('stops once the service refuses connections: the rest not started, the row in flight in doubt, the hint to resume once it is back', async () => {
    const file = await write(
      'die.jsonl',
      Array.from({ length: 10 }, (_, i) => JSON.stringify({ title: `die-${i + 1}`, description: 'd', requester: 'aberg' })).join('\n'),
    );
    const report = `${file}.report.jsonl`;
    // The service dies while it has row 3: that row's connection is cut, and the port then refuses.
    let creates = 0;
    const front: TestServer = await startFrontServer(h, () => false, {
      gate: async (req) => {
        if (req.url !== '/api/TicketsApi/new' || ++creates < 3) return;
        void front.close();
        await new Promise(() => {});
      },
    });
    const result = await h.cli(['create', '--from', file, '--integration', '--concurrency', '1'], { env: frontEnv(h, front) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✗ row 4: connection refused: POST ${front.url}/api/TicketsApi/new\n`);
    expect(result.stderr).not.toContain('✗ row 5');
    expect(result.stderr).toContain('error: stopped at row 4: connection refused; 6 of 10 rows not started\n');
    expect(result.stderr).toContain('  rows in doubt (the service may have created them): 3\n');
    expect(result.stderr).toContain('  rows not started: 5-10\n');
    expect(result.stderr).toContain(
      // What to check first (network-advice.ts), as every command refused says it; then the way on.
      `hint: nothing answers at ${new URL(front.url).host}: check the URL, and that the service (or "tkt sandbox") is running there; ` +
        `the service could not be reached, so no other row was sent: once it can be, finish with "tkt create --from ${file} --integration --concurrency 1 --resume ${report}"\n`,
    );
    expect(result.stderr).not.toContain('fix the failed rows');
    expect(outcomes(await readReport(report)).map((entry) => [entry.row, entry.ok, entry.inDoubt ?? false])).toEqual([
      [1, true, false],
      [2, true, false],
      [3, false, true],
      [4, false, false],
    ]);
  });

  it('stops once the service answers no create at all: the rows in flight in doubt, the rest not started, the hint to resume once it answers', async () => {
    const file = await write(
      'silent.jsonl',
      Array.from({ length: 10 }, (_, i) => JSON.stringify({ title: `silent-${i + 1}`, description: 'd', requester: 'aberg' })).join('\n'),
    );
    const report = `${file}.report.jsonl`;
    // Every create is taken and never answered; the lookups before them are.
    const front = await startFrontServer(h, (req) => req.url === '/api/TicketsApi/new');
    try {
      const result = await h.cli(['create', '--from', file, '--integration', '--concurrency', '2', '--timeout', '0.3'], { env: frontEnv(h, front) });
      expect(result.code).toBe(1);
      expect(front.requests.filter((request) => request.url === '/api/TicketsApi/new')).toHaveLength(2);
      expect(result.stderr).toMatch(/error: stopped at row [12]: request timed out after 0\.3s; 8 of 10 rows not started\n/);
      expect(result.stderr).toContain('  rows in doubt (the service may have created them): 1-2\n');
      expect(result.stderr).toContain('  rows not started: 3-10\n');
      expect(result.stderr).toContain(
        `hint: the service answered no request meanwhile, so no other row was sent: once it answers, finish with "tkt create --from ${file} --integration --concurrency 2 --resume ${report}"\n`,
      );
    } finally {
      await front.close();
    }
  });

  it('a dry run of --resume tells each row as the real run does: created skipped, in doubt held back (exit 1), the rest to send', async () => {
    const row = (n: number, requester: string) =>
      JSON.stringify({ title: `dry-resume-${n}`, description: 'd', requester, ...(requester === 'ghost' ? GHOST_EMAIL : {}) });
    const file = await write('dry-resume.jsonl', [row(1, 'aberg'), row(2, 'aberg'), row(3, 'ghost')].join('\n') + '\n');
    const report = `${file}.report.jsonl`;
    // Row 2's create is never answered: it times out, in doubt. Row 3 is refused (400).
    const front = await startFrontServer(h, (_req, _res, body) => body.includes('dry-resume-2'));
    try {
      const first = await h.cli(['create', '--from', file, '--integration', '--timeout', '0.5'], { env: frontEnv(h, front) });
      expect(first.code).toBe(1);
    } finally {
      await front.close();
    }
    const [created] = ticketsTitled('dry-resume-1');
    // A failed row may be fixed before resuming.
    await write('dry-resume.jsonl', [row(1, 'aberg'), row(2, 'aberg'), row(3, 'lwei')].join('\n') + '\n');
    const resume = ['create', '--from', file, '--integration', '--resume', report];
    const sentBefore = h.sandbox.stats.byRoute[NEW_ROUTE];

    const dry = await h.cli([...resume, '--dry-run']);
    expect(dry.stdout).toContain(`- row 1 already created as #${created!.id} (skipped)\n`);
    expect(dry.stdout).toContain('? row 2: in doubt (the service may have created it): sent in an earlier run, not sent again\n');
    expect(dry.stdout).not.toMatch(/row 2:? already created/);
    expect(dry.stdout).toContain('dry run: would send 1 × POST /api/TicketsApi/new (nothing was sent)\n');
    expect(dry.stdout).toMatch(/^ {2}row 3:\n {4}Title: +dry-resume-3$/m);
    // Exits as the real run does: the rows in doubt need a look.
    expect(dry.stderr).toContain('error: 1 of 3 rows in doubt\n');
    expect(dry.stderr).toContain('  rows in doubt (the service may have created them): 2\n');
    expect(dry.code).toBe(1);

    const dryJson = await h.cli([...resume, '--dry-run', '--json']);
    expect(JSON.parse(dryJson.stdout)).toEqual([
      { row: 1, dryRun: true, ok: true, id: created!.id, skippedRow: true },
      { row: 2, dryRun: true, ok: false, inDoubt: true, error: expect.stringContaining('timed out') as unknown, skippedRow: true },
      {
        row: 3,
        dryRun: true,
        method: 'POST',
        path: '/api/TicketsApi/new',
        fields: expect.objectContaining({ Title: 'dry-resume-3' }) as unknown,
        files: [],
        fileNames: [],
      },
    ]);
    expect(dryJson.code).toBe(1);

    // Told to send the rows in doubt again, it would: nothing held back, exit 0.
    const retrying = await h.cli([...resume, '--retry-in-doubt', '--dry-run', '--json']);
    expect((JSON.parse(retrying.stdout) as { row: number; skippedRow?: boolean }[]).map((entry) => [entry.row, entry.skippedRow ?? false])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(retrying.code).toBe(0);
    expect(h.sandbox.stats.byRoute[NEW_ROUTE]).toBe(sentBefore);

    // The real run does what the dry run said.
    const real = await h.cli(resume);
    expect(real.stderr).toContain('? row 2: in doubt (the service may have created it): sent in an earlier run, not sent again\n');
    expect(real.stderr).toContain('error: 1 of 3 rows in doubt\n');
    expect(real.stdout).toMatch(/✓ row 3: created #\d+/);
    expect(real.code).toBe(1);
  });

  // Register answers 400 saying the permission is missing (docs/service.md 4.3): a refusal every row would get.
  it('stops at the first refusal: of 200 rows only the 8 in flight are sent, the rest not started and sent by --resume', async () => {
    const row = (n: number) =>
      JSON.stringify({ title: `refused-${n}`, description: 'd', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open' });
    const file = await write('refused.jsonl', Array.from({ length: 200 }, (_, i) => row(i + 1)).join('\n'));
    const report = `${file}.report.jsonl`;
    // The creates are held until all 8 lanes have sent one, so all 8 are in flight when the first refusal comes.
    let open = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const front = await startFrontServer(h, () => false, {
      gate: async (req) => {
        if (req.url !== '/api/TicketsApi/register') return;
        if (++open >= 8) release();
        await held;
      },
    });
    try {
      const refused = await h.cli(['create', '--from', file, '--json'], { env: { TKT_URL: front.url, TKT_TOKEN: h.sandbox.issueToken('viewer') } });
      expect(refused.code).toBe(5);
      expect(h.sandbox.stats.byRoute[REGISTER_ROUTE]).toBe(8);
      expect(refused.stderr).toMatch(/error: stopped at row [1-8]: permission denied \(HTTP 400\); 192 of 200 rows not started\n/);
      expect(refused.stderr).toContain('  rows not started: 9-200\n');
      const entries = JSON.parse(refused.stdout) as { row: number; ok: boolean; status?: number; notStarted?: boolean }[];
      expect(
        entries
          .filter((entry) => entry.status === 400)
          .map((entry) => entry.row)
          .sort((a, b) => a - b),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(entries.filter((entry) => entry.notStarted === true).map((entry) => entry.row)).toEqual(Array.from({ length: 192 }, (_, i) => i + 9));
      // The report has the refused rows as failed and nothing of those never sent.
      expect(
        outcomes(await readReport(report))
          .map((entry) => [entry.row, entry.ok])
          .sort((a, b) => Number(a[0]) - Number(b[0])),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, false]));
    } finally {
      await front.close();
    }
    expect(ticketsTitled('refused-')).toEqual([]);

    // With the permission (the harness's own login), --resume sends every row.
    const resumed = await h.cli(['create', '--from', file, '--resume', report, '-q']);
    expect(resumed.code).toBe(0);
    expect(ticketsTitled('refused-')).toHaveLength(200);
  });

  it('stops at the first 401 (exit 4, one create sent at --concurrency 1) with the hint for the token in use', async () => {
    const file = await write('expired.jsonl', [1, 2, 3].map((n) => JSON.stringify({ title: `expired-${n}`, description: 'd', requester: 'aberg' })).join('\n'));
    const front = await startFrontServer(h, (req, res) => {
      if (req.url !== '/api/TicketsApi/new') return false;
      res.writeHead(401).end();
      return true;
    });
    try {
      const result = await h.cli(['create', '--from', file, '--integration', '--concurrency', '1'], { env: frontEnv(h, front) });
      expect(result.code).toBe(4);
      expect(front.requests.filter((request) => request.url === '/api/TicketsApi/new')).toHaveLength(1);
      expect(result.stderr).toContain('✗ row 1: not authenticated (HTTP 401)\n');
      expect(result.stderr).toContain('error: stopped at row 1: not authenticated (HTTP 401); 2 of 3 rows not started\n');
      expect(result.stderr).toContain('hint: the token in TKT_TOKEN was refused');
    } finally {
      await front.close();
    }
  });

  describe('failed rows in the summary', () => {
    // Every odd row names a requester the service does not know: 100 of 200 fail, not one by one in a line.
    const file = (name: string) =>
      write(
        `${name}.jsonl`,
        Array.from({ length: 200 }, (_, i) =>
          JSON.stringify({ title: `${name}-${i + 1}`, description: 'd', requester: i % 2 === 0 ? 'ghost' : 'aberg', ...(i % 2 === 0 ? GHOST_EMAIL : {}) }),
        ).join('\n'),
      );
    const listed = (lines: readonly string[]) =>
      lines
        .join(' ')
        .replace(/^.*?failed rows:/, '')
        .replace(/ and \d+ more$/, '')
        .split(/[ ,]+/)
        .filter((word) => /^\d+$/.test(word))
        .map(Number);

    it('are row numbers wrapped into lines, every one kept in a log', async () => {
      const result = await h.cli(['create', '--from', await file('wrapped'), '--integration']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: 100 of 200 rows failed\n');
      const lines = result.stderr.split('\n');
      const first = lines.findIndex((line) => line.startsWith('  failed rows: 1, 3, 5,'));
      const listLines = [lines[first]!, ...lines.slice(first + 1).filter((line, index, rest) => rest.slice(0, index + 1).every((l) => l.startsWith('    ')))];
      expect(listLines.length).toBeGreaterThan(1);
      for (const line of listLines) expect(line.length).toBeLessThanOrEqual(80);
      expect(listed(listLines)).toEqual(Array.from({ length: 100 }, (_, i) => 2 * i + 1));
    });

    it('are cut to a few lines at a terminal, the rest counted, naming the report', async () => {
      const options: CreateFromOptions = {
        file: await file('capped'),
        report: undefined,
        resume: undefined,
        integration: true,
        concurrency: undefined,
        dryRun: false,
        retryInDoubt: false,
      };
      const terminal = await h.context({ tty: true });
      const error = await runCreateFrom(options, terminal.ctx).then(
        () => undefined,
        (thrown: unknown) => thrown as { message: string; details: string[] },
      );
      expect(error!.message).toBe('100 of 200 rows failed');
      const list = error!.details.filter((line) => /^( {2}|failed rows:)/.test(line));
      expect(list).toHaveLength(2);
      for (const line of list) expect(line.length).toBeLessThanOrEqual(78);
      expect(list[1]).toMatch(new RegExp(` and ${100 - listed(list).length} more$`));
      expect(error!.details.at(-1)).toContain(`${options.file}.report.jsonl`);
    });
  });

  it('writes a row\'s "sending" line before its request leaves', async () => {
    const file = await write('ahead.jsonl', JSON.stringify({ title: 'ahead-1', description: 'd', requester: 'aberg' }));
    let reportAtArrival = '';
    const front = await startFrontServer(h, (req) => {
      if (req.url === '/api/TicketsApi/new') reportAtArrival = readFileSync(`${file}.report.jsonl`, 'utf8');
      return false;
    });
    try {
      const result = await h.cli(['create', '--from', file, '--integration'], { env: frontEnv(h, front) });
      expect(result.code).toBe(0);
      expect(reportAtArrival).toMatch(/^\{"row":1,"hash":"[0-9a-f]+","sending":true\}\n$/);
    } finally {
      await front.close();
    }
  });

  it('refuses field options next to --from, and --resume without --from', async () => {
    const file = await write('x.jsonl', '{"title":"x"}\n');
    const mixed = await h.cli(['create', '--from', file, '--site', '1']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--from cannot be combined with --site/);
    // One ticket per key is a single create's: with --from its options would do nothing.
    for (const dedup of [['--dedup-key', 'k'], ['--on-existing', 'skip'], ['--reopen']]) {
      const refused = await h.cli(['create', '--from', file, ...dedup, '--dry-run']);
      expect(refused.stderr).toContain(`error: --from cannot be combined with ${dedup[0]}\n`);
      expect(refused.stderr).toContain('hint: --dedup-key and its options are for a single create; --from sends every row\n');
      expect(refused.code).toBe(2);
    }
    const orphan = await h.cli(['create', '--resume', 'r.jsonl']);
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toMatch(/need --from/);
    expect(h.sandbox.stats.requests).toBe(0);
  });

  // A file received from someone else (a customer's export) names the files its rows attach: as
  // docker confines COPY to the build context, they must be in the rows' folder, links followed.
  describe("attach files stay in the rows' folder", () => {
    const SECRET = 'secret: do not send\n';
    const row = (title: string, attach: string | string[]) => JSON.stringify({ title, description: 'd', requester: 'aberg', attach });
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

    /** `dir/rows/`, where the rows are, and `dir/secret.txt` beside it, outside. */
    async function folders(): Promise<{ rows: string; secret: string }> {
      const rows = join(dir, 'rows');
      await mkdir(rows);
      return { rows, secret: await write('secret.txt', SECRET) };
    }

    /** The run of `argv`, exit 2, nothing sent: no request at all, no ticket, no file, no report. */
    async function refused(argv: string[], titled: string, stdin?: string): Promise<string> {
      const before = h.sandbox.stats.requests;
      const result = await h.cli(argv, stdin === undefined ? {} : { stdin });
      expect(result.code, result.stderr).toBe(2);
      expect(h.sandbox.stats.requests).toBe(before);
      expect(ticketsTitled(titled)).toEqual([]);
      expect(h.sandbox.state.attachments.filter((a) => a.sha256 === sha256(SECRET))).toEqual([]);
      return result.stderr;
    }

    it('refuses an absolute path outside the folder, naming the row, the cell and the folder; --dry-run too', async () => {
      const { rows, secret } = await folders();
      const file = join(rows, 'abs.jsonl');
      await writeFile(file, [row('abs-1', 'ok.txt'), row('abs-2', secret)].join('\n') + '\n');
      await writeFile(join(rows, 'ok.txt'), 'fine\n');
      for (const extra of [[], ['--dry-run']]) {
        const stderr = await refused(['create', '--integration', '--from', file, ...extra], 'abs-');
        expect(stderr).toContain('error: 1 of 2 rows in');
        expect(stderr).toContain(`  row 2 (line 2): attach: ${secret} is outside ${rows} (rows attach only files in that folder)\n`);
        expect(stderr).toContain(`hint: copy the file into ${rows}, or give --attach-dir with a folder that holds it\n`);
        expect(stderr).not.toMatch(/row 1/);
      }
      expect(existsSync(`${file}.report.jsonl`)).toBe(false);
    });

    it('refuses ../ out of the folder, also under #NAME, with every other bad row', async () => {
      const { rows } = await folders();
      const file = join(rows, 'up.csv');
      await writeFile(file, 'title,description,requester,attach\nup-1,d,aberg,../secret.txt#notes.txt\nup-2,,aberg,\n');
      const stderr = await refused(['create', '--integration', '--from', file], 'up-');
      expect(stderr).toContain('error: 2 of 2 rows in');
      expect(stderr).toContain(`  row 1 (line 2): attach: ../secret.txt#notes.txt is outside ${rows} (rows attach only files in that folder)\n`);
      expect(stderr).toContain('  row 2 (line 3): missing description\n');
    });

    it('refuses a link in the folder that leads out of it, a file or a folder', async () => {
      const { rows, secret } = await folders();
      await symlink(secret, join(rows, 'notes.txt'));
      await symlink(dir, join(rows, 'up'));
      const file = join(rows, 'links.jsonl');
      await writeFile(file, [row('link-1', 'notes.txt'), row('link-2', 'up/secret.txt')].join('\n') + '\n');
      const stderr = await refused(['create', '--integration', '--from', file], 'link-');
      expect(stderr).toContain(`  row 1 (line 1): attach: notes.txt leads to ${secret}, outside ${rows} (rows attach only files in that folder)\n`);
      expect(stderr).toContain(`  row 2 (line 2): attach: up/secret.txt leads to ${secret}, outside ${rows} (rows attach only files in that folder)\n`);
    });

    it("refuses a file of tkt's config folder even when --attach-dir holds it", async () => {
      const { rows } = await folders();
      const token = join(h.configDir, 'tokens', 'default.json');
      expect(existsSync(token)).toBe(true);
      await symlink(token, join(rows, 'token.txt'));
      const file = join(rows, 'config.jsonl');
      await writeFile(file, [row('config-1', token), row('config-2', join(rows, 'token.txt'))].join('\n') + '\n');
      const tokenBytes = await readFile(token, 'utf8');
      const stderr = await refused(['create', '--integration', '--from', file, '--attach-dir', dirname(h.configDir)], 'config-');
      expect(stderr).toContain(`  row 1 (line 1): attach: ${token} is in tkt's config folder (tokens and settings are never attached)\n`);
      expect(stderr).toContain(`  row 2 (line 2): attach: ${join(rows, 'token.txt')} is in tkt's config folder (tokens and settings are never attached)\n`);
      expect(h.sandbox.state.attachments.filter((a) => a.sha256 === sha256(tokenBytes))).toEqual([]);
    });

    it('takes files from --attach-dir: relative paths found there, absolute ones in it, links staying in it', async () => {
      const { rows } = await folders();
      const files = join(dir, 'files');
      await mkdir(files);
      await writeFile(join(files, 'build.log'), 'build log\n');
      await writeFile(join(files, 'other.log'), 'other log\n');
      await symlink(join(files, 'other.log'), join(files, 'alias.log'));
      const file = join(rows, 'elsewhere.jsonl');
      await writeFile(file, [row('elsewhere-1', 'build.log'), row('elsewhere-2', [join(files, 'other.log'), 'alias.log#again.log'])].join('\n') + '\n');
      const result = await h.cli(['create', '--integration', '--from', file, '--attach-dir', files]);
      expect(result.stderr).toBe('created 2 tickets; report: ' + `${file}.report.jsonl\n`);
      expect(result.code).toBe(0);
      const names = (title: string) => h.sandbox.state.attachments.filter((a) => a.ticketId === ticketsTitled(title)[0]!.id).map((a) => a.fileName);
      expect(names('elsewhere-1')).toEqual(['build.log']);
      expect(names('elsewhere-2').sort()).toEqual(['again.log', 'other.log']);
      // The rows' own folder is not the attach folder then.
      const besideRows = join(rows, 'beside.log');
      await writeFile(besideRows, 'beside\n');
      await writeFile(file, row('beside-1', besideRows) + '\n');
      const stderr = await refused(['create', '--integration', '--from', file, '--attach-dir', files, '--report', join(dir, 'beside.report.jsonl')], 'beside-');
      expect(stderr).toContain(`attach: ${besideRows} is outside ${files} (rows attach only files in that folder)`);
      expect(stderr).toContain(`hint: copy the file into ${files}, or give --attach-dir with a folder that holds it`);
    });

    it('confines rows read from stdin to the current folder', async () => {
      const { secret } = await folders();
      const stderr = await refused(['create', '--integration', '--from', '-', '--dry-run'], 'stdin-', row('stdin-1', secret) + '\n');
      expect(stderr).toContain(`  row 1 (line 1): attach: ${secret} is outside ${process.cwd()} (rows attach only files in that folder)\n`);
    });

    it('re-checks the rows of --resume and --retry-in-doubt', async () => {
      const { rows, secret } = await folders();
      const file = join(rows, 'again.jsonl');
      const text = [row('recheck-1', 'ok.txt'), row('recheck-2', secret), row('recheck-3', secret)].join('\n') + '\n';
      await writeFile(file, text);
      await writeFile(join(rows, 'ok.txt'), 'fine\n');
      // Row 1 created, row 2 sent without an answer (in doubt), row 3 never sent.
      const [first, second] = readRows(text, 'jsonl', 'new');
      const report = join(rows, 'again.report.jsonl');
      await writeFile(report, `{"row":1,"hash":"${first!.hash}","ok":true,"id":1}\n{"row":2,"hash":"${second!.hash}","sending":true}\n`);
      const resumed = await refused(['create', '--integration', '--from', file, '--resume', report], 'recheck-');
      expect(resumed).toContain(`  row 3 (line 3): attach: ${secret} is outside ${rows}`);
      expect(resumed).not.toContain('row 2 (line 2)');
      const retried = await refused(['create', '--integration', '--from', file, '--resume', report, '--retry-in-doubt', '2'], 'recheck-');
      expect(retried).toContain(`  row 2 (line 2): attach: ${secret} is outside ${rows}`);
      expect(retried).toContain(`  row 3 (line 3): attach: ${secret} is outside ${rows}`);
    });

    it('refuses --attach-dir without --from, and one that is no folder', async () => {
      const orphan = await h.cli(['create', '--title', 'T', '--attach-dir', dir]);
      expect(orphan.code).toBe(2);
      expect(orphan.stderr).toMatch(/--attach-dir need --from FILE/);
      const file = await write('nofolder.jsonl', row('nofolder-1', 'x.txt') + '\n');
      const missing = await h.cli(['create', '--integration', '--from', file, '--attach-dir', join(dir, 'nowhere')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(`error: --attach-dir: cannot read ${join(dir, 'nowhere')}: no such file`);
      const notFolder = await h.cli(['create', '--integration', '--from', file, '--attach-dir', file]);
      expect(notFolder.code).toBe(2);
      expect(notFolder.stderr).toContain(`error: --attach-dir ${file} is not a folder`);
      expect(h.sandbox.stats.requests).toBe(0);
    });
  });
});
