// Text that is not UTF-8 (README: Text values): Excel on Windows saves "CSV" as Windows-1252, and
// such a file was once sent with its accents turned into U+FFFD ("Caf\uFFFD r\uFFFDseau"). Now
// every text input read from a file or stdin is exit 2 before any request, naming the input, where
// the first byte that is not UTF-8 is and how to convert it; UTF-8 with a BOM still works.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run as reply } from '../../src/commands/reply.js';
import { exitCodeOf } from '../../src/errors.js';
import { createInquirerPrompter } from '../../src/prompts/inquirer.js';
import { BY_ID, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, sendsNothing, unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-encoding-', (made) => (dir = made));

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const CSV_HEADER = 'title,description,requester,site,department,status\n';

function write(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('text that is not UTF-8', () => {
  it('create --from a Windows-1252 CSV is exit 2, naming the line, before any row is sent', async () => {
    const file = write('latin1.csv', latin1(`${CSV_HEADER}Printer,ok,aberg,1,1,1\nCaf\u00e9 r\u00e9seau,b,aberg,1,1,1\n`));
    const result = await sendsNothing(h, () => h.cli(['create', '--from', file]));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: --from: cannot read ${file}: not UTF-8 text: byte 0xE9 on line 3, column 4\n`);
    expect(result.stderr).toContain(`hint: save it as UTF-8 (in Excel: "CSV UTF-8"), or convert it: iconv -f WINDOWS-1252 -t UTF-8 ${file} > ${file}.utf8`);
    expect(h.sandbox.state.tickets.some((ticket) => ticket.title === 'Printer')).toBe(false);
  });

  it('create --from - with Windows-1252 on stdin is exit 2', async () => {
    const result = await sendsNothing(h, () => h.cli(['create', '--from', '-'], { stdin: latin1(`${CSV_HEADER}Caf\u00e9,b,aberg,1,1,1\n`) }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --from -: stdin is not UTF-8 text: byte 0xE9 on line 2, column 4\n');
    expect(result.stderr).toContain('hint: convert it on its way in: ... | iconv -f WINDOWS-1252 -t UTF-8 | tkt ...');
  });

  it('a Latin-1 --description-file is exit 2, nothing created', async () => {
    const file = write('description.txt', latin1('R\u00e9sum\u00e9 du probl\u00e8me\n'));
    const result = await sendsNothing(h, () => h.cli(['create', ...validCreateArgs({ ...BY_ID, description: null, 'description-file': file })]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: --description-file ${file}: not UTF-8 text: byte 0xE9 on line 1, column 2\n`);
    expect(result.stderr).toContain(`iconv -f WINDOWS-1252 -t UTF-8 ${file} > ${file}.utf8`);
  });

  // `tail -c 4` of "aaa\u00e9\u00e9\n": converting it from Windows-1252 would mangle the whole \u00e9 after the cut one.
  it('UTF-8 cut short on stdin is named broken UTF-8, with the iconv hint that drops its broken bytes', async () => {
    const stdin = Buffer.from([0xa9, 0xc3, 0xa9, 0x0a]);
    const result = await sendsNothing(h, () => h.cli(['create', ...validCreateArgs({ ...BY_ID, description: null, 'description-file': '-' })], { stdin }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --description-file -: stdin is not UTF-8 text: byte 0xA9 on line 1, column 1\n');
    expect(result.stderr).toContain('hint: it is UTF-8 with broken bytes (cut short?): drop them on its way in: ... | iconv -f UTF-8 -t UTF-8 -c | tkt ...\n');
  });

  it('Latin-1 on stdin for a text option is exit 2', async () => {
    const result = await sendsNothing(h, () => h.cli(['reply', '1001', '--message', '-'], { stdin: latin1("Merci, c'est r\u00e9gl\u00e9") }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --message -: stdin is not UTF-8 text: byte 0xE9 on line 1, column 15\n');
  });

  it("IDs on stdin in UTF-16 (PowerShell 5's `>`) are named so, as --message - names them, with the iconv hint", async () => {
    const utf16 = Buffer.from('\ufeff1019\r\n1020\r\n', 'utf16le');
    const ids = await sendsNothing(h, () => h.cli(['close', '-', '--dry-run'], { stdin: utf16 }));
    expect(ids.code).toBe(2);
    expect(ids.stderr).toContain('error: the IDs on stdin: UTF-16 text, not UTF-8\n');
    expect(ids.stderr).toContain('hint: convert it on its way in: ... | iconv -f UTF-16 -t UTF-8 | tkt ...');
    const message = await sendsNothing(h, () => h.cli(['reply', '1001', '--message', '-'], { stdin: utf16 }));
    expect(message.stderr).toContain('error: --message -: stdin is UTF-16 text, not UTF-8\n');
  });

  it("a text body from a file or stdin is sent with LF line ends, as the editor's text is: CRLF from Windows turned into LF", async () => {
    const file = write('crlf.txt', 'Line one\r\nLine two\r\n');
    const fromFile = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'crlf file', description: null, 'description-file': file })]);
    expect(fromFile.code).toBe(0);
    expect(h.sandbox.state.tickets.find((ticket) => ticket.title === 'crlf file')?.description).toBe('Line one\nLine two\n');
    const fromStdin = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'crlf stdin', description: '-' })], { stdin: 'A\r\nB\r\n' });
    expect(fromStdin.code).toBe(0);
    expect(h.sandbox.state.tickets.find((ticket) => ticket.title === 'crlf stdin')?.description).toBe('A\nB\n');
  });

  it('api --input in Latin-1 is exit 2', async () => {
    const file = write('body.json', latin1('{"subject": "Caf\u00e9"}'));
    const result = await sendsNothing(h, () => h.cli(['api', 'POST', '/api/TicketsApi', '--input', file]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: cannot read --input ${file}: not UTF-8 text: byte 0xE9 on line 1, column 17\n`);
  });

  it('a reply template saved in Windows-1252 is exit 2, naming the template, nothing sent', async () => {
    const file = path.join(h.configDir, 'templates', 'merci.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, latin1("Subject: R\u00e9solu\n\nBonjour {{requester.name}}, c'est r\u00e9gl\u00e9.\n"));
    const result = await sendsNothing(h, () => h.cli(['reply', '1001', '--template', 'merci']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: template merci (${file}) is not UTF-8 text: byte 0xE9 on line 1, column 11\n`);
    // Not a CSV: no word of Excel.
    // Converted into the same file: a template is found by its name.
    expect(result.stderr).toContain(`hint: save it as UTF-8, or convert it: iconv -f WINDOWS-1252 -t UTF-8 ${file} > ${file}.new && mv ${file}.new ${file}`);
  });

  it('UTF-8 with a BOM and characters of 2, 3 and 4 bytes is read as written, the BOM dropped', async () => {
    const title = 'Café réseau 漢字 😀 from-bom';
    const csv = write('utf8-bom.csv', `\uFEFF${CSV_HEADER}${title},Résumé € 😀,aberg,1,1,1\r\n`);
    const fromCsv = await h.cli(['create', '--from', csv]);
    expect(fromCsv.code).toBe(0);
    expect(h.sandbox.state.tickets.find((ticket) => ticket.title === title)?.description).toBe('Résumé € 😀');

    const description = write('description-bom.txt', '\uFEFFRésumé du problème 😀\n');
    const fromFile = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'bom description', description: null, 'description-file': description })]);
    expect(fromFile.code).toBe(0);
    // The BOM is not text: the description starts where the writer's text does.
    expect(h.sandbox.state.tickets.find((ticket) => ticket.title === 'bom description')?.description).toBe('Résumé du problème 😀\n');
  });

  it('a reply the editor saved as UTF-16 (Notepad\'s "Unicode") is exit 2 as --message-file, nothing sent, the text kept as a draft', async () => {
    const ticket = unusedTicket(h);
    // The editor writes the reply above what tkt put in the file and saves it all as UTF-16.
    const editor = write(
      'notepad-unicode.cjs',
      `const fs = require('node:fs');
const file = process.argv.at(-1);
fs.writeFileSync(file, Buffer.from('\\ufeffCaf\u00e9 is open again\\r\\n' + fs.readFileSync(file, 'utf8'), 'utf16le'));
`,
    );
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(editor)}`;
    const r = await h.context({ tty: true, env: { EDITOR: command, VISUAL: '', PATH: process.env.PATH! } });
    const prompter = createInquirerPrompter({ stdin: new PassThrough(), stderr: new PassThrough(), env: { EDITOR: command, VISUAL: '' } });
    const replies = routeCount(h, 'POST /api/TicketsApi/reply/{id}');
    const error = await reply({ id: String(ticket.id), attach: [], dryRun: false }, { ...r.ctx, prompter }).catch((caught: unknown) => caught);
    expect(exitCodeOf(error)).toBe(2);
    expect((error as Error).message).toBe(`the text the editor ${command} saved is UTF-16 text, not UTF-8; nothing was sent`);
    expect(routeCount(h, 'POST /api/TicketsApi/reply/{id}')).toBe(replies);
    const draft = path.join(h.configDir, 'drafts', `reply-${ticket.id}.txt`);
    expect(r.stderr()).toBe(`your message was saved to ${draft}\nhint: send it with "tkt reply ${ticket.id} --message-file ${draft}"\n`);
    // Converted, as the error's encoding says: a draft to send with --message-file once checked.
    expect(fs.readFileSync(draft, 'utf8')).toBe('Caf\u00e9 is open again\n');
  });
});
