import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { collectIds } from '../../src/bulk/ids.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { MAX_RUN_IDS } from '../../src/util/ids.js';

function stdinOf(...chunks: string[]): () => Readable {
  return () => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
}

async function usageMessage(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).exitCode).toBe(ExitCode.usage);
  return (error as UsageError).message;
}

describe('collectIds from arguments', () => {
  it('parses each argument and drops duplicates keeping the first order', async () => {
    expect(await collectIds(['12', '7', '12', '30', '7'], stdinOf())).toEqual([12, 7, 30]);
  });

  it('refuses a bad argument by name', async () => {
    expect(await usageMessage(collectIds(['12', '1e3'], stdinOf()))).toBe('invalid ticket ID "1e3": expected a positive whole number');
  });

  it('refuses an argument with a thousands separator or a decimal part, saying how to write it', async () => {
    expect(await usageMessage(collectIds(['1,031'], stdinOf()))).toBe('invalid ticket ID "1,031": write it as 1031');
    expect(await usageMessage(collectIds(['1031.5'], stdinOf()))).toBe('invalid ticket ID "1031.5": a decimal number');
  });

  // A newcomer's review: `not started: #1033-5537`, then `tkt read 1033-5537` refused as no ID.
  it("reads ranges and lists as tkt's summaries print them, a list copied with its commas or quoted whole", async () => {
    expect(await collectIds(['1001-1003'], stdinOf())).toEqual([1001, 1002, 1003]);
    expect(await collectIds(['#1001-1003', '#1005-#1006'], stdinOf())).toEqual([1001, 1002, 1003, 1005, 1006]);
    expect(await collectIds(['#1001-1003,', '#1013'], stdinOf())).toEqual([1001, 1002, 1003, 1013]);
    expect(await collectIds(['#1001-1003, #1013'], stdinOf())).toEqual([1001, 1002, 1003, 1013]);
    // Duplicates dropped as ever, the first order kept.
    expect(await collectIds(['1013', '1012-1014'], stdinOf())).toEqual([1013, 1012, 1014]);
  });

  it('refuses a reversed range, one from an ID to itself, and more IDs than a run takes', async () => {
    expect(await usageMessage(collectIds(['1001', '1010-1001'], stdinOf()))).toBe('invalid ID range "1010-1001": the first ID is the higher; write 1001-1010');
    expect(await usageMessage(collectIds(['1001-1001'], stdinOf()))).toBe('invalid ID range "1001-1001": from an ID to itself; write 1001');
    expect(await usageMessage(collectIds([`1-${MAX_RUN_IDS}`, '7'], stdinOf()))).toBe(`more than ${MAX_RUN_IDS} ticket IDs: too many for one run`);
  });

  it('refuses an empty list', async () => {
    expect(await usageMessage(collectIds([], stdinOf()))).toBe('no ticket IDs given');
  });

  it('refuses "-" mixed with IDs', async () => {
    expect(await usageMessage(collectIds(['12', '-'], stdinOf('13\n')))).toMatch(/cannot be combined/);
  });
});

describe('collectIds from stdin', () => {
  it('takes the first integer of each line: plain IDs, table rows, our own output, JSON Lines', async () => {
    const input = [
      '42\n',
      '  43  Printer on fire   Open  2 days ago\n',
      '✓ #44 closed\r\n',
      '{"id":45,"ok":true,"status":204}\n',
      'v2 ticket 46 for floor 3\n',
    ].join('');
    expect(await collectIds(['-'], stdinOf(input))).toEqual([42, 43, 44, 45, 46]);
  });

  it('skips blank lines and # comments, reads lines split across chunks and a last line without newline', async () => {
    const ids = await collectIds(['-'], stdinOf('# from the morning list\n\n   \n1', '2\n  # 99 is not an ID\n1', '3'));
    expect(ids).toEqual([12, 13]);
  });

  // A review of the splitter that replaced readline's: it held a \r that ended a chunk back for
  // the chunk after, so a signal before that chunk lost the line, which readline had given.
  it('keeps a line ended by a \\r alone when a signal stops the read before more comes', async () => {
    for (const written of ['1013\n1014\r', '1013\r\n1014\r']) {
      const stdin = new PassThrough();
      const controller = new AbortController();
      const read = collectIds(['-'], () => stdin, controller.signal);
      stdin.write(written);
      // What was written is read before the signal comes: a few turns of the event loop.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      controller.abort('SIGINT');

      expect(await read, JSON.stringify(written)).toEqual([1013, 1014]);
    }
  });

  // readline never flushed its decoder: bytes of a character cut short at the very end were no line.
  it('drops the bytes of a character cut short at the end of stdin', async () => {
    const cut = (text: string, extra: number[]) => () => Readable.from([Buffer.concat([Buffer.from(text), Buffer.from(extra)])]);
    expect(await collectIds(['-'], cut('1013\n', [0xc3]))).toEqual([1013]);
    expect(await collectIds(['-'], cut('', [0xef, 0xbb]))).toEqual([]);
    expect(await usageMessage(collectIds(['-'], cut('1013\nabc', [0xc3])))).toBe('stdin line 2 has no ticket ID: "abc"');
  });

  it('drops duplicates keeping the first order', async () => {
    expect(await collectIds(['-'], stdinOf('5\n3\n5\n3\n8\n'))).toEqual([5, 3, 8]);
  });

  // Split by tkt itself since node:readline went from the run: lines end where readline ended them.
  it('ends lines at \\n, \\r\\n and a lone \\r, a \\r\\n split across chunks counted once, and joins a character split across chunks', async () => {
    expect(await collectIds(['-'], stdinOf('1\r', '\n2\r3\n# 4\r\n5'))).toEqual([1, 2, 3, 5]);
    expect(await usageMessage(collectIds(['-'], stdinOf('12\r', '\nPrinter on fire\n')))).toBe('stdin line 2 has no ticket ID: "Printer on fire"');
    const accented = Buffer.from('✓ #7 closed\nÜbel\n');
    const split = accented.indexOf(Buffer.from('Ü')) + 1;
    const message = await usageMessage(collectIds(['-'], () => Readable.from([accented.subarray(0, split), accented.subarray(split)])));
    expect(message).toBe('stdin line 2 has no ticket ID: "Übel"');
  });

  it('names the line number of a line without an ID', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('12\n# note\nPrinter on fire\n13\n')))).toBe('stdin line 3 has no ticket ID: "Printer on fire"');
  });

  // At a terminal the first bad line ended the read, and what was typed after it went to the
  // shell, Ctrl-D included, which logged the user out (helper-237): stdin is read to its end first.
  it('reads on to the end of stdin after a bad line, then refuses it', async () => {
    const stdin = new PassThrough();
    let settled = false;
    const read = usageMessage(collectIds(['-'], () => stdin)).finally(() => (settled = true));
    stdin.write('1025\n10x26\n');
    // What was written is read: a few turns of the event loop.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));

    expect(settled).toBe(false);
    expect(stdin.destroyed).toBe(false);
    stdin.end('1027\n');
    expect(await read).toBe('stdin line 2 has no ticket ID: "10x26"');
    expect(stdin.readableEnded).toBe(true);
  });

  it('names the first bad line and counts the others, with their line numbers (the first few)', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('1025\n10x26\n1027\n-5\n1,031\n')))).toBe(
      'stdin line 2 has no ticket ID: "10x26" (and 2 more bad lines: 4, 5)',
    );
    expect(await usageMessage(collectIds(['-'], stdinOf('x\n1\ny\n')))).toBe('stdin line 1 has no ticket ID: "x" (and 1 more bad line: 3)');
    const many = await usageMessage(collectIds(['-'], stdinOf('1\na\nb\nc\n2\nd\ne\n')));
    expect(many).toBe('stdin line 2 has no ticket ID: "a" (and 4 more bad lines: 3, 4, 6, …)');
    // Rows of tkt's CSV too.
    expect(await usageMessage(collectIds(['-'], stdinOf('id,title\r\n"1",a\r\n2,b\r\n#3,c\r\n')))).toBe(
      'stdin line 2 has no ticket ID: "\\"1\\",a" (and 1 more bad line: 4)',
    );
  });

  it('refuses the first bad line when a fault of stdin (bytes that are no text) ends the read after it', async () => {
    const stdin = new PassThrough();
    const read = usageMessage(collectIds(['-'], () => stdin));
    stdin.write('1013\nnone\n');
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    stdin.end('x\u0000y\n');

    expect(await read).toBe('stdin line 2 has no ticket ID: "none"');
    // Without a bad line before it, the fault is the error, as before.
    expect(await usageMessage(collectIds(['-'], stdinOf('1013\n', 'x\u0000y\n')))).toMatch(/^the IDs on stdin: not text/);
  });

  // A signal once a line was bad: the run could send nothing anyway, so the bad line is told (the
  // stop after it, src/cli-run.ts), not the IDs read as not started.
  it('refuses the bad lines read so far when a signal stops the read after one', async () => {
    const stdin = new PassThrough();
    const controller = new AbortController();
    const read = usageMessage(collectIds(['-'], () => stdin, controller.signal));
    stdin.write('1013\nnone\n1014\n');
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    controller.abort('SIGINT');

    expect(await read).toBe('stdin line 2 has no ticket ID: "none"');
  });

  it('names the line number of an ID that is not valid', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('12\n0 tickets\n')))).toBe('stdin line 2: invalid ticket ID "0": expected a positive whole number');
  });

  it('shows an escaped, shortened copy of a bad line', async () => {
    const message = await usageMessage(collectIds(['-'], stdinOf(`\u001b[2J${'x'.repeat(100)}\n`)));
    expect(message).not.toContain('\u001b');
    expect(message).toContain('\\u001b[2J');
    expect(message.length).toBeLessThan(120);
  });

  it('gives an empty list for stdin with no IDs at all', async () => {
    expect(await collectIds(['-'], stdinOf('# nothing today\n\n'))).toEqual([]);
    expect(await collectIds(['-'], stdinOf(''))).toEqual([]);
  });

  it('takes #42 as ticket 42 and "# text" as a comment', async () => {
    expect(await collectIds(['-'], stdinOf('#42\n#108: Wi-Fi dead zone\n# 99 is a note\n#nothing\n'))).toEqual([42, 108]);
  });

  it('refuses a first integer run on by "," or "." and a digit (1,031 is not #1, 1031.5 not #1031), naming the line', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('1001\n1002\n1,031\n')))).toBe('stdin line 3: "1,031" is no ticket ID: write it as 1031');
    expect(await usageMessage(collectIds(['-'], stdinOf('#1,031 printer\n')))).toBe('stdin line 1: "#1,031 printer" is no ticket ID: write it as 1031');
    expect(await usageMessage(collectIds(['-'], stdinOf('1.031.555\n')))).toBe('stdin line 1: "1.031.555" is no ticket ID: write it as 1031555');
    expect(await usageMessage(collectIds(['-'], stdinOf('1031.5\n')))).toBe('stdin line 1: "1031.5" is no ticket ID (a decimal number)');
    expect(await usageMessage(collectIds(['-'], stdinOf('1031,1032\n')))).toBe('stdin line 1: "1031,1032" is no ticket ID: write one ID per line');
    // Other words after the ID, a separator followed by no digit, and IDs inside words stay as they were.
    expect(await collectIds(['-'], stdinOf('1031 other words 12\n#1032\nticket-1029\n1033, printer\n1034.\n{"id":1035,"ok":true}\n'))).toEqual([
      1031, 1032, 1029, 1033, 1034, 1035,
    ]);
  });

  // `echo $ids | tkt close -` puts every ID on one line: the first alone was closed, exit 0 (a
  // fresh user's review). A line of numbers only is refused as 1031,1032 is; words after the ID
  // still make it a ticket's line (a count before an ID, `uniq -c`, is no ticket's).
  it('refuses a line of several numbers and nothing else, naming the line', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('4182 4183 4184\n')))).toBe('stdin line 1: "4182 4183 4184" holds several IDs: write one ID per line');
    expect(await usageMessage(collectIds(['-'], stdinOf('1001\n  3 #4182\n')))).toBe('stdin line 2: "3 #4182" holds several IDs: write one ID per line');
    expect(await usageMessage(collectIds(['-'], stdinOf('1031, 1032\n')))).toBe('stdin line 1: "1031, 1032" holds several IDs: write one ID per line');
    expect(await usageMessage(collectIds(['-'], stdinOf('1031;1032\n')))).toBe('stdin line 1: "1031;1032" holds several IDs: write one ID per line');
    // Words after the ID, and tkt's own TSV (a review: `list --columns id,title` of a ticket titled 2025).
    expect(await collectIds(['-'], stdinOf('4182 printer 4183\n#4184: 2 printers\n1033\t2025\n'))).toEqual([4182, 4184, 1033]);
  });

  // `tkt list --csv --columns id,title | tkt read -` was refused at its header: "stdin line 1 has
  // no ticket ID" (a fresh user's review). The bytes as tkt's CSV writes them: CRLF, quoted cells.
  it("skips tkt's own CSV header on the first line, its first column the IDs: `tkt list --csv | tkt close -`", async () => {
    const rows = '1032,Server room temperature alarm\r\n1031,"Mouse, double-clicks"\r\n';
    expect(await collectIds(['-'], stdinOf(`id,title\r\n${rows}`))).toEqual([1032, 1031]);
    expect(await collectIds(['-'], stdinOf('id,title,status,priority,requester,assignee,due\r\n1032,Alarm,Open,High,Ada Admin,,\r\n'))).toEqual([1032]);
    expect(await collectIds(['-'], stdinOf('id\r\n1032\r\n1031\r\n'))).toEqual([1032, 1031]);
    // Nothing matched: the header alone, which is no ID, as an empty stdin.
    expect(await collectIds(['-'], stdinOf('id,title\r\n'))).toEqual([]);
  });

  // A row read as any line, by its first number, stopped the pipe at a title that starts with one:
  // "1032,2025 budget" was refused as a number run on by a comma (helper-233).
  it("reads each row after that header by its first cell, whatever the title's first characters", async () => {
    const rows = 'id,title\r\n1032,2025 budget\r\n1031,3rd floor printer\r\n1030,"1,5 kg, 2 boxes"\r\n1029,-5 degrees\r\n\r\n';
    expect(await collectIds(['-'], stdinOf(rows))).toEqual([1032, 1031, 1030, 1029]);
    // A row whose first cell is no ID, as tkt never writes one.
    expect(await usageMessage(collectIds(['-'], stdinOf('id,title\r\n"1032",Alarm\r\n')))).toBe('stdin line 2 has no ticket ID: "\\"1032\\",Alarm"');
    expect(await usageMessage(collectIds(['-'], stdinOf('id,title\r\n#1032,Alarm\r\n')))).toBe('stdin line 2 has no ticket ID: "#1032,Alarm"');
    expect(await usageMessage(collectIds(['-'], stdinOf('id,title\r\n0,Alarm\r\n')))).toMatch(/^stdin line 2: /);
  });

  it('skips that header on the first line only, as tkt writes it: any other line without an ID is refused as before', async () => {
    const refusals: [input: string, message: string][] = [
      // Not where tkt writes it: after a line, a second CSV's header.
      ['\nid,title\r\n1032,Alarm\r\n', 'stdin line 2 has no ticket ID: "id,title"'],
      ['# the morning list\nid,title\r\n', 'stdin line 2 has no ticket ID: "id,title"'],
      ['id,title\r\n1032,Alarm\r\nid,title\r\n1031,Mouse\r\n', 'stdin line 3 has no ticket ID: "id,title"'],
      // Not as tkt writes it: another case, quoted, other separators, the IDs not the first column.
      ['ID,title\r\n1032,Alarm\r\n', 'stdin line 1 has no ticket ID: "ID,title"'],
      ['"id",title\r\n1032,Alarm\r\n', 'stdin line 1 has no ticket ID: "\\"id\\",title"'],
      ['id\ttitle\n1032\tAlarm\n', 'stdin line 1 has no ticket ID: "id\\ttitle"'],
      ['id title\n', 'stdin line 1 has no ticket ID: "id title"'],
      ['ids,title\r\n', 'stdin line 1 has no ticket ID: "ids,title"'],
      [' id,title\r\n', 'stdin line 1 has no ticket ID: "id,title"'],
      ['title,id\r\nAlarm,1032\r\n', 'stdin line 1 has no ticket ID: "title,id"'],
    ];
    for (const [input, message] of refusals) expect(await usageMessage(collectIds(['-'], stdinOf(input))), JSON.stringify(input)).toBe(message);
  });

  // The hint of an interrupted run says to run again for the IDs "listed above", as ranges: a
  // line "1001-1010" was ticket 1001 alone, and the summary's "#1001-1010, #1013" the same.
  it("reads a line of ranges as tkt's summaries print it, or a range alone", async () => {
    const input = ['1001-1003\n', '#1005-1006\n', '  #1010-#1011, #1013, #1020-1021,\n', '#1030\n', '#1031, #1033\n', '1040-1041,\n'].join('');
    expect(await collectIds(['-'], stdinOf(input))).toEqual([1001, 1002, 1003, 1005, 1006, 1010, 1011, 1013, 1020, 1021, 1030, 1031, 1033, 1040, 1041]);
  });

  it('refuses a bad range naming its line, and more IDs than a run takes', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('1001\n1010-1001\n')))).toBe(
      'stdin line 2: invalid ID range "1010-1001": the first ID is the higher; write 1001-1010',
    );
    expect(await usageMessage(collectIds(['-'], stdinOf('#1001-1003, #1005-1005\n')))).toBe(
      'stdin line 1: invalid ID range "#1005-1005": from an ID to itself; write 1005',
    );
    const half = MAX_RUN_IDS / 2;
    // The line that goes past the limit is the bad one, not each line after it.
    expect(await usageMessage(collectIds(['-'], stdinOf(`1-${half}\n${half + 1}-${MAX_RUN_IDS}\n7\n8\n`)))).toBe(
      `stdin line 3: more than ${MAX_RUN_IDS} ticket IDs: too many for one run`,
    );
  });

  // Not as a summary prints them: which IDs are meant is not clear, and the first alone is not it.
  it('refuses ranges among other numbers or words, where the first number alone would be taken', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('1001-1010 1013\n')))).toBe(
      'stdin line 1: "1001-1010 1013" holds several IDs: write one ID or range per line',
    );
    expect(await usageMessage(collectIds(['-'], stdinOf('1001-1010, 1013\n')))).toBe(
      'stdin line 1: "1001-1010, 1013" holds several IDs: write one ID or range per line',
    );
    // A summary's line copied whole, its label with it.
    expect(await usageMessage(collectIds(['-'], stdinOf('not started: #1033-5537\n')))).toBe(
      'stdin line 1: "not started: #1033-5537" holds a range among other words: write the IDs alone on their line',
    );
    expect(await usageMessage(collectIds(['-'], stdinOf('  #1033-1040, #1042 and 2460 more\n')))).toBe(
      'stdin line 1: "#1033-1040, #1042 and 2460 more" holds a range among other words: write the IDs alone on their line',
    );
    // A signed range, and numbers run on by a comma and no blank, as before.
    expect(await usageMessage(collectIds(['-'], stdinOf('-1001-1010\n')))).toBe('stdin line 1: "-1001-1010" is not a ticket ID (a signed number)');
    expect(await usageMessage(collectIds(['-'], stdinOf('#1031,#1032\n')))).toBe('stdin line 1: "#1031,#1032" holds several IDs: write one ID per line');
  });

  it('refuses a negative number instead of taking its digits, naming the line', async () => {
    expect(await usageMessage(collectIds(['-'], stdinOf('12\n-106\n')))).toBe('stdin line 2: "-106" is not a ticket ID (a signed number)');
    expect(await usageMessage(collectIds(['-'], stdinOf('close -7 now\n')))).toMatch(/^stdin line 1: .* is not a ticket ID/);
    // A dash inside a word is no sign: INC-7, a date.
    expect(await collectIds(['-'], stdinOf('INC-7 printer\n2026-11-24 report\n'))).toEqual([7, 2026]);
  });
});
