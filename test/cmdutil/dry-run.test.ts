// The one printer of every --dry-run: its JSON shape and its listing, printed through the real
// output module. Command tests check that each command plans the right request; these check
// how any plan is shown.
import { describe, expect, it } from 'vitest';
import type { RequestPlan } from '../../src/api/types.js';
import type { Context } from '../../src/context/context.js';
import { createOutput, type OutputParts } from '../../src/output/format.js';
import { printDryRun, printDryRunRows, type PlannedRequest } from '../../src/cmdutil/dry-run.js';
import { createTestIO } from '../helpers/io.js';

/** A context with only what the printer uses: the output module, over in-memory streams. */
async function printer(flags: Partial<OutputParts['flags']> = {}) {
  const test = createTestIO();
  const output = await createOutput({ flags: { json: false, quiet: false, ...flags }, io: test.io, now: () => new Date(0) });
  return { ctx: { output } as Context, stdout: test.stdout, stderr: test.stderr };
}

const change = (method: string, path: string, rest: Partial<RequestPlan> = {}): RequestPlan => ({ method, path, retry: false, expect: 'any', ...rest });

const A_PNG = { path: 'shots/a.png', name: 'a.png' };

/** An update with every kind of value, values nobody sends, reading aids, and two files. */
const update: PlannedRequest = {
  ...change('POST', '/api/TicketsApi/update/42', {
    form: {
      fields: { Id: 42, Title: 'New\u001b[2Jtitle', TicketPriorityId: 3, SiteId: null, CcTo: undefined, SelectedTags: [1, 2], HasDraft: false },
      files: [
        { path: 'notes.txt', name: 'notes.txt' },
        { path: '/dev/fd/63', name: 'two\nlines\u009b.log' },
      ],
    },
  }),
  labels: { TicketPriorityId: 'High\u0007', SiteId: 'Head Office' },
  changed: new Set(['Title', 'TicketPriorityId', 'SiteId']),
};

/** What goes on the wire for `update`: no undefined or null field, no reading aid. */
const UPDATE_JSON = {
  dryRun: true,
  method: 'POST',
  path: '/api/TicketsApi/update/42',
  fields: { Id: 42, Title: 'New\u001b[2Jtitle', TicketPriorityId: 3, SelectedTags: [1, 2], HasDraft: false },
  files: ['notes.txt', '/dev/fd/63'],
  fileNames: ['notes.txt', 'two\nlines\u009b.log'],
};

describe('printDryRun: JSON', () => {
  it('with --json prints {dryRun, method, path, fields, files, fileNames}: fields left undefined or null and the reading aids left out', async () => {
    const { ctx, stdout, stderr } = await printer({ json: true });
    await printDryRun(ctx, update);
    expect(JSON.parse(stdout())).toEqual(UPDATE_JSON);
    expect(stderr()).toBe('');
  });

  it("prints one compact line for each ID of an ID... command, in that order of members, the ID's first", async () => {
    const { ctx, stdout } = await printer({ json: true });
    await printDryRun(ctx, update, { idLine: 42 });
    await printDryRun(ctx, change('POST', '/api/TicketsApi/pickup/43'), { idLine: 43 });
    expect(stdout()).toBe(
      '{"id":42,"dryRun":true,"method":"POST","path":"/api/TicketsApi/update/42",' +
        '"fields":{"Id":42,"Title":"New\\u001b[2Jtitle","TicketPriorityId":3,"SelectedTags":[1,2],"HasDraft":false},' +
        '"files":["notes.txt","/dev/fd/63"],"fileNames":["notes.txt","two\\nlines\\u009b.log"]}\n' +
        '{"id":43,"dryRun":true,"method":"POST","path":"/api/TicketsApi/pickup/43"}\n',
    );
  });

  it('has no fields and no files for an endpoint without a body, and `json` for a JSON body', async () => {
    const { ctx, stdout } = await printer({ json: true });
    await printDryRun(ctx, change('DELETE', '/api/TicketsApi/42'), { idLine: 42 });
    await printDryRun(ctx, change('POST', '/api/TicketsApi', { json: { page: 1, search: null } }), { idLine: 42 });
    await printDryRun(ctx, change('POST', '/api/TicketsApi/resolve/42', { form: { fields: { TicketId: 42 } } }), { idLine: 42 });
    await printDryRun(ctx, change('POST', '/api/TicketsApi/addfiles/42', { form: { fields: {}, files: [A_PNG] } }), { idLine: 42 });
    expect(
      stdout()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { id: 42, dryRun: true, method: 'DELETE', path: '/api/TicketsApi/42' },
      // A JSON body goes as it is: its nulls too.
      { id: 42, dryRun: true, method: 'POST', path: '/api/TicketsApi', json: { page: 1, search: null } },
      { id: 42, dryRun: true, method: 'POST', path: '/api/TicketsApi/resolve/42', fields: { TicketId: 42 }, files: [], fileNames: [] },
      { id: 42, dryRun: true, method: 'POST', path: '/api/TicketsApi/addfiles/42', fields: {}, files: ['shots/a.png'], fileNames: ['a.png'] },
    ]);
  });

  it('as data (tkt api) prints the JSON whatever the format, the note on stderr but with -q', async () => {
    const human = await printer();
    await printDryRun(human.ctx, update, { asData: true });
    expect(JSON.parse(human.stdout())).toEqual(UPDATE_JSON);
    expect(human.stderr()).toBe('dry run: nothing was sent\n');

    const quiet = await printer({ quiet: true });
    await printDryRun(quiet.ctx, update, { asData: true });
    expect(JSON.parse(quiet.stdout())).toEqual(UPDATE_JSON);
    expect(quiet.stderr()).toBe('');
  });

  it('is what --query and --fields apply to', async () => {
    const queried = await printer({ query: 'fields.TicketPriorityId', raw: true });
    await printDryRun(queried.ctx, update);
    expect(queried.stdout()).toBe('3\n');
    const picked = await printer({ fields: 'method,path' });
    await printDryRun(picked.ctx, update);
    expect(JSON.parse(picked.stdout())).toEqual({ method: 'POST', path: '/api/TicketsApi/update/42' });
  });

  it('writes DEL and C1 controls in JSON as \\u escapes, never raw', async () => {
    const { ctx, stdout } = await printer({ json: true });
    await printDryRun(ctx, update);
    expect(stdout()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(stdout()).toContain('lines\\u009b.log');
  });
});

describe('printDryRun: the listing', () => {
  it('lists a field a line, aligned, looked-up IDs with their names, changes marked, a file an Uploads line', async () => {
    const { ctx, stdout, stderr } = await printer();
    await printDryRun(ctx, update);
    expect(stdout()).toBe(
      [
        'dry run: would send POST /api/TicketsApi/update/42 (nothing was sent)',
        '  Id:               42',
        '  Title:            New^[[2Jtitle  [changed]',
        '  TicketPriorityId: 3 (High^G)  [changed]',
        '  SelectedTags:     1, 2',
        '  HasDraft:         false',
        '  Uploads:          notes.txt',
        '  Uploads:          /dev/fd/63 as two lines<U+009B>.log',
        '',
      ].join('\n'),
    );
    expect(stderr()).toBe('');
  });

  it('aligns on Uploads when it is the longest name, and shows a JSON body on one line', async () => {
    const { ctx, stdout } = await printer();
    await printDryRun(ctx, change('POST', '/api/TicketsApi/addfiles/42', { form: { fields: { Id: 42 }, files: [{ path: 'a.png', name: 'a.png' }] } }));
    await printDryRun(ctx, change('POST', '/api/TicketsApi', { json: { search: 'two\nlines\u009b', page: 1 } }));
    expect(stdout()).toBe(
      [
        'dry run: would send POST /api/TicketsApi/addfiles/42 (nothing was sent)',
        '  Id:      42',
        '  Uploads: a.png',
        'dry run: would send POST /api/TicketsApi (nothing was sent)',
        '  Body: {"search":"two\\nlines<U+009B>","page":1}',
        '',
      ].join('\n'),
    );
  });

  it('shows a value of several lines with its lines, each under the value column: what would be sent, blank lines too', async () => {
    const { ctx, stdout } = await printer();
    const message = 'Hello Jörg Müller,\r\n\r\nThe printer is fixed.\n\tToner: new\u001b[2J\n\nTom Tech\n';
    await printDryRun(ctx, {
      ...change('POST', '/api/TicketsApi/reply/7', { form: { fields: { Subject: 'Re: Printer', Message: message } } }),
      changed: new Set(['Message']),
    });
    expect(stdout()).toBe(
      [
        'dry run: would send POST /api/TicketsApi/reply/7 (nothing was sent)',
        '  Subject: Re: Printer',
        '  Message: Hello Jörg Müller,',
        '',
        '           The printer is fixed.',
        '           \tToner: new^[[2J',
        '',
        '           Tom Tech  [changed]',
        '',
      ].join('\n'),
    );
  });

  it('shows the lines of a value of several lines in the rows of create --from too', async () => {
    const { ctx, stdout } = await printer();
    await printDryRunRows(
      ctx,
      [{ row: 1, request: change('POST', '/api/TicketsApi/register', { form: { fields: { Title: 'Printer', Description: 'one\ntwo' } } }) }],
      [],
    );
    expect(stdout()).toBe(
      [
        'dry run: would send 1 × POST /api/TicketsApi/register (nothing was sent)',
        '  row 1:',
        '    Title:       Printer',
        '    Description: one',
        '                 two',
        '',
      ].join('\n'),
    );
  });

  it('is the heading alone for an endpoint without a body', async () => {
    const { ctx, stdout } = await printer();
    await printDryRun(ctx, change('POST', '/api/TicketsApi/pickup/42'));
    expect(stdout()).toBe('dry run: would send POST /api/TicketsApi/pickup/42 (nothing was sent)\n');
  });

  it('prints nothing with -q', async () => {
    const { ctx, stdout, stderr } = await printer({ quiet: true });
    await printDryRun(ctx, update);
    await printDryRun(ctx, update, { idLine: 42 });
    expect(stdout() + stderr()).toBe('');
  });
});

describe('printDryRunRows', () => {
  const register = (title: string, site?: number): PlannedRequest => ({
    ...change('POST', '/api/TicketsApi/register', { form: { fields: { Title: title, SiteId: site } } }),
    ...(site === undefined ? {} : { labels: { SiteId: `Site ${site}` } }),
  });
  const rows = [
    { row: 1, request: register('Printer', 1) },
    { row: 3, request: register('VPN\u001b]0;x\u0007') },
  ];

  const created = { row: 2, line: '- row 2 already created as #7 (skipped)', json: { row: 2, ok: true, id: 7, skippedRow: true } };
  const inDoubt = { row: 4, line: '? row 4: in doubt', json: { row: 4, ok: false, inDoubt: true, skippedRow: true } };

  it('lists the rows left out, then each row under its number, each aligned on its own fields', async () => {
    const { ctx, stdout } = await printer();
    await printDryRunRows(ctx, rows, [created, inDoubt]);
    expect(stdout()).toBe(
      [
        'dry run: would send 2 × POST /api/TicketsApi/register (nothing was sent)',
        '- row 2 already created as #7 (skipped)',
        '? row 4: in doubt',
        '  row 1:',
        '    Title:  Printer',
        '    SiteId: 1 (Site 1)',
        '  row 3:',
        '    Title: VPN^[]0;x^G',
        '',
      ].join('\n'),
    );
  });

  it('says "nothing" when no row is left to send', async () => {
    const { ctx, stdout } = await printer();
    await printDryRunRows(ctx, [], [created]);
    expect(stdout()).toBe('dry run: would send nothing (nothing was sent)\n- row 2 already created as #7 (skipped)\n');
  });

  it('with --json prints one array in row order: each planned request and each row left out, with its row number first', async () => {
    const { ctx, stdout } = await printer({ json: true });
    await printDryRunRows(ctx, rows, [created, inDoubt]);
    const planned = JSON.parse(stdout()) as Record<string, unknown>[];
    expect(planned).toEqual([
      { row: 1, dryRun: true, method: 'POST', path: '/api/TicketsApi/register', fields: { Title: 'Printer', SiteId: 1 }, files: [], fileNames: [] },
      { row: 2, dryRun: true, ok: true, id: 7, skippedRow: true },
      { row: 3, dryRun: true, method: 'POST', path: '/api/TicketsApi/register', fields: { Title: 'VPN\u001b]0;x\u0007' }, files: [], fileNames: [] },
      { row: 4, dryRun: true, ok: false, inDoubt: true, skippedRow: true },
    ]);
    expect(planned.map((element) => Object.keys(element)[0])).toEqual(['row', 'row', 'row', 'row']);

    const none = await printer({ json: true });
    await printDryRunRows(none.ctx, [], []);
    expect(JSON.parse(none.stdout())).toEqual([]);
  });
});
