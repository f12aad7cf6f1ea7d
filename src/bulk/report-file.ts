// The report of `tkt create --from`, written ahead (see create-from.ts): its lines, reading it
// back for --resume (which rows were created, which are in doubt), and appending to it durably.
import { constants } from 'node:fs';
import { access, open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { OperationError, UsageError } from '../errors.js';
import { acquireLock, LockBusyError } from '../util/lock-file.js';
import { fileErrorText } from '../util/file-error.js';
import type { InputRow } from './rows.js';
import { formatRanges } from './ranges.js';
import { isSuccess } from '../api/answer.js';

/** Written before a row's request leaves. */
export interface SendingLine {
  row: number;
  hash: string;
  sending: true;
}

/** A row's outcome. */
export interface ReportEntry {
  row: number;
  hash: string;
  ok: boolean;
  /** Sent, but the answer never came (given up, timed out): the ticket may exist. */
  inDoubt?: true;
  /** The new ticket's ID; null when the service created it but named no ID. */
  id?: number | null;
  status?: number;
  error?: string;
  /**
   * Created (or in doubt) in an earlier run, copied from the --resume report. Not `skipped`: in
   * --json a created row's `skipped` is the list of its files the service refused.
   */
  skippedRow?: true;
  /** A row in doubt the user found created: recorded by `--created ROW=ID`, not by an answer. */
  recorded?: '--created';
}

export type ReportLine = SendingLine | ReportEntry;

/** Every line of a report; a torn last line (a crash mid-write) is ignored. */
export async function readReport(path: string): Promise<ReportLine[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--resume: cannot read ${path}: ${fileErrorText(error)}`);
  }
  const lines = text.split('\n');
  const entries: ReportLine[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      if (lines.slice(index + 1).every((rest) => rest.trim() === '')) return;
      throw new UsageError(`--resume: ${path} line ${index + 1} is not a report line`);
    }
    const candidate = entry as Partial<ReportEntry & SendingLine>;
    if (typeof candidate.row !== 'number' || typeof candidate.hash !== 'string' || (typeof candidate.ok !== 'boolean' && candidate.sending !== true)) {
      throw new UsageError(`--resume: ${path} line ${index + 1} is not a report line`, { hint: 'pass the report a previous "tkt create --from" wrote' });
    }
    entries.push(withSkippedRow(candidate as ReportLine));
  });
  return entries;
}

/** A line of a report written before `skipped` was named `skippedRow`, as it is named now. */
function withSkippedRow(line: ReportLine): ReportLine {
  if (!('skipped' in line)) return line;
  const { skipped, ...rest } = line as ReportEntry & { skipped?: unknown };
  return skipped === true ? { ...rest, skippedRow: true } : rest;
}

export interface ResumedRows {
  /** Rows the report shows as created. */
  created: Map<number, ReportEntry>;
  /** Rows sent whose outcome is unknown, as in-doubt outcome lines. */
  inDoubt: Map<number, ReportEntry>;
}

const IN_DOUBT_BEFORE = 'sent in an earlier run; the answer never came';

/** What the report says of each row; refuses a report that does not fit the file. */
export function resumedRows(lines: readonly ReportLine[], rows: readonly InputRow[], reportPath: string, file: string): ResumedRows {
  const created = new Map<number, ReportEntry>();
  const inDoubt = new Map<number, ReportEntry>();
  for (const line of lines) {
    if (created.has(line.row)) continue;
    if ('sending' in line) inDoubt.set(line.row, { row: line.row, hash: line.hash, ok: false, inDoubt: true, error: IN_DOUBT_BEFORE });
    else if (line.ok) {
      created.set(line.row, line);
      inDoubt.delete(line.row);
    } else if (line.inDoubt) inDoubt.set(line.row, line);
    // A tkt before 2026-11-27 wrote a 2xx whose body it could not read as a failure: the service
    // had the row, so it is in doubt, not to be sent again (api/http-errors.ts changeReceived).
    else if (line.status !== undefined && isSuccess(line.status)) inDoubt.set(line.row, { ...line, inDoubt: true });
    else inDoubt.delete(line.row);
  }
  const recorded = [...created.values(), ...inDoubt.values()];
  // Rows taken out of the end of the file: no row has changed, there are fewer of them.
  const beyond = recorded.filter((entry) => entry.row > rows.length).sort((a, b) => a.row - b.row);
  if (beyond.length > 0) {
    const last = beyond.at(-1)!.row;
    throw new UsageError(
      `${reportPath} does not match ${file}: ${file} has ${rows.length} row${rows.length === 1 ? '' : 's'}, fewer than the report records (row ${last})`,
      {
        details: [
          `recorded as created or in doubt, not in the file: ${beyond.length === 1 ? 'row' : 'rows'} ${formatRanges(
            beyond.map((entry) => entry.row),
            '',
          )}`,
        ],
        hint: 'resume with the file as it was; edit only the rows that failed',
      },
    );
  }
  const mismatched = recorded.filter((entry) => rows[entry.row - 1]?.hash !== entry.hash);
  if (mismatched.length > 0) {
    throw new UsageError(
      `${reportPath} does not match ${file}: ${mismatched.length === 1 ? 'a row' : `${mismatched.length} rows`} it shows as created or in doubt changed since`,
      {
        details: mismatched.map((entry) =>
          entry.ok
            ? `row ${entry.row} was created as ${entry.id == null ? 'a ticket' : `#${entry.id}`} from different content`
            : `row ${entry.row} was sent (in doubt) with different content`,
        ),
        hint: 'resume with the file as it was; edit only the rows that failed',
      },
    );
  }
  return { created, inDoubt };
}

/** What the user settled of the rows in doubt: which to send again, which the service created as which ticket. */
export interface Settling {
  retryInDoubt: boolean | readonly number[];
  created?: ReadonlyMap<number, number> | undefined;
}

export interface SettledRows {
  /** Rows created: those the report shows, and those recorded now. */
  created: Map<number, ReportEntry>;
  /** Rows still in doubt, not sent. */
  heldInDoubt: Map<number, ReportEntry>;
  /** The outcome lines `--created` adds to the report. */
  recorded: ReportEntry[];
}

/**
 * Applies --retry-in-doubt and --created to what the report says. Each row they name must be in
 * doubt; one already created (with that ticket) is let be, so that the same command may run
 * again. Anything else is refused: a mistyped row number must not send or record a wrong row.
 */
export function settleInDoubt(resumed: ResumedRows, settling: Settling, reportPath: string): SettledRows {
  const created = new Map(resumed.created);
  const heldInDoubt = settling.retryInDoubt === true ? new Map<number, ReportEntry>() : new Map(resumed.inDoubt);
  const notInDoubt = (row: number, flag: string) =>
    new UsageError(`${flag}: row ${row} is not in doubt in ${reportPath}`, {
      hint:
        resumed.inDoubt.size === 0 ? 'no row is in doubt there' : `the rows in doubt there: ${[...resumed.inDoubt.keys()].sort((a, b) => a - b).join(', ')}`,
    });
  for (const row of settling.retryInDoubt === true || settling.retryInDoubt === false ? [] : settling.retryInDoubt) {
    if (resumed.created.has(row)) continue;
    if (!resumed.inDoubt.has(row)) throw notInDoubt(row, '--retry-in-doubt');
    heldInDoubt.delete(row);
  }
  const recorded: ReportEntry[] = [];
  for (const [row, id] of settling.created ?? []) {
    const known = resumed.created.get(row);
    if (known !== undefined) {
      if (known.id === id) continue;
      throw new UsageError(`--created: row ${row} is recorded in ${reportPath} as created as ${known.id == null ? 'a ticket' : `#${known.id}`}, not #${id}`);
    }
    const doubt = resumed.inDoubt.get(row);
    if (doubt === undefined) throw notInDoubt(row, '--created');
    const entry: ReportEntry = { row, hash: doubt.hash, ok: true, id, recorded: '--created' };
    recorded.push(entry);
    created.set(row, entry);
    heldInDoubt.delete(row);
  }
  return { created, heldInDoubt, recorded };
}

export interface ReportWriter {
  append(line: ReportLine): Promise<void>;
  close(): Promise<void>;
}

function reportExists(path: string): UsageError {
  return new UsageError(`report ${path} already exists: it may list tickets already created`, {
    hint: `to skip the rows it shows as created, add --resume ${path}; another report (--report FILE) starts over and creates every row again, a second ticket for each one created before`,
  });
}

const cannotWrite = (path: string, error: unknown) => new UsageError(`cannot write the report ${path}: ${fileErrorText(error)}`);

/**
 * Refuses, before any request, a report path the run could not write: a directory, a report
 * that exists (unless `append`: a resume writing to it), a folder that is missing or read-only.
 * A dry run checks it too, so that it refuses what the real run would.
 */
export async function checkReportPath(path: string, append: boolean): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() === true) throw new UsageError(`report ${path} is a directory`, { hint: 'name a file with --report' });
  if (info !== undefined) {
    if (!append) throw reportExists(path);
    return;
  }
  await access(dirname(resolve(path)), constants.W_OK).catch((error: unknown) => {
    throw cannotWrite(path, error);
  });
}

/**
 * Takes REPORT.lock for a run's whole life, so that two runs on one report (two --resume started
 * together) never both send its remaining rows. No wait: a create must never produce two tickets,
 * and the other run may take hours. A lock whose process is gone is taken over. Returns the release.
 */
export async function lockReport(path: string): Promise<() => void> {
  const lock = `${path}.lock`;
  try {
    return await acquireLock(lock, { waitMs: 0 });
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw new UsageError(`cannot lock the report ${path}: ${fileErrorText(error)}`);
    const holder = error.holder === undefined ? 'another tkt create --from' : `another tkt create --from (pid ${error.holder})`;
    const gone = error.holder === undefined ? 'if no tkt create --from runs' : `if no tkt create --from runs as pid ${error.holder}`;
    throw new OperationError(`the report ${path} is in use by ${holder}`, {
      hint: `wait for it to finish, then run again; ${gone}, remove ${lock}`,
    });
  }
}

export async function openReport(path: string, append: boolean): Promise<ReportWriter> {
  await checkReportPath(path, append);
  let handle: FileHandle;
  try {
    handle = await open(path, append ? 'a' : 'wx');
  } catch (error) {
    // Created since the check: never overwritten.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw reportExists(path);
    throw cannotWrite(path, error);
  }
  return {
    async append(entry) {
      await handle.write(`${JSON.stringify(entry)}\n`);
      // On disk before the row counts as done: a crash must not forget a created ticket.
      await handle.sync();
    },
    close: () => handle.close(),
  };
}
