// The one place that decides what stdout carries (docs/cli.md sections 3 and 9): human text or
// tables, -q essentials, --json documents and JSON Lines, --query results (--raw), --fields
// members, piped TSV and --csv. Commands hand it values with their human and quiet forms;
// no command reads the output flags itself.
import { isObject } from '../api/member-access.js';
import type { IO } from './io.js';
import { CHANGE_MADE_HINT, OutputAfterChangeError, OutputFailedError, UsageError, type TktError } from '../errors.js';
import { createJsonArrayWriter, writeJson, writeJsonLine } from './json.js';
import type { AbsentMembers, CompiledQuery } from './query.js';
import { escapeJsonControls, sanitizeText } from './sanitize.js';
import { checkMemberNames, memberKey, pagedNameCheck, uncheckedWarnings, type MemberAliases } from './members.js';
import { writeText } from './write.js';
import type { OutputFlags, Format, DocumentForms, ArrayPrinter, Output, ShapedPart } from './types.js';

export interface OutputParts {
  flags: OutputFlags;
  io: IO;
  now: () => Date;
  /** Whether the run has sent a request that may have changed something (a --fields or --query failing on its answer is then exit 1). */
  changeSent?: () => boolean;
}

/** Comma-separated names as typed: `--fields id,title` or `--fields "id, title"`. */
function parseNameList(text: string, flag: string): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError(`${flag} needs at least one name`, { hint: `e.g. ${flag} id,title` });
  return [...new Set(names)];
}

function pickMembers(value: unknown, names: readonly string[], aliases: MemberAliases | undefined): unknown {
  if (!isObject(value)) return value;
  const picked: Record<string, unknown> = {};
  for (const name of names) {
    const key = memberKey(value, name, aliases);
    if (key !== undefined) picked[key] = value[key];
  }
  return picked;
}

/** One --raw line: a string bare, null empty, anything else compact JSON. */
const rawLine = (value: unknown) => (value === null ? '' : typeof value === 'string' ? value : escapeJsonControls(JSON.stringify(value))) + '\n';

/** A result that printed nothing of use: null, or an array of nothing but nulls. */
const isEmptyResult = (result: unknown) => result === null || (Array.isArray(result) && result.every((item) => item === null));

/**
 * Why a --query found nothing, said after the answer with the names where the query read them:
 * the members it lacks there, a likely intended one (`id` for `ticketID`, `ticketId` for `id`),
 * and those it has (`urgent[]`'s, not the answer's, for `tkt status --query 'urgent[].id'`).
 */
function absentMembersHint(levels: readonly AbsentMembers[], noun = 'the answer'): string {
  return levels
    .map(({ where, names, members }) => {
      const said = names.map((name) => {
        const lower = name.toLowerCase();
        const likely =
          members.find((member) => member.toLowerCase() === lower) ??
          members.find((member) => member.toLowerCase().endsWith(lower) || lower.endsWith(member.toLowerCase()));
        return `"${name}"${likely === undefined ? '' : ` (did you mean "${likely}"? names are case-sensitive)`}`;
      });
      const what = where === '' ? noun : where === undefined ? 'what the query reads there' : `${noun}'s ${where}`;
      const listed = members.length === 0 ? '' : `; its members: ${members.join(', ')}`;
      return `hint: ${what} has no member ${said.join(', ')}${listed}\n`;
    })
    .join('');
}

function checkCombinations(flags: OutputFlags): void {
  // Before any answer a hint cannot know the service's member names, so it shows none.
  if (flags.raw && flags.query === undefined)
    throw new UsageError('--raw goes with --query', { hint: 'add --query EXPR, a JMESPath expression over the JSON output (tkt help formatting)' });
  if (flags.csv) {
    const jsonFlags = (['json', 'query', 'fields'] as const).filter((name) => flags[name] !== undefined && flags[name] !== false);
    if (jsonFlags.length > 0 || flags.quiet) {
      throw new UsageError(`--csv cannot be combined with ${[...jsonFlags.map((name) => `--${name}`), ...(flags.quiet ? ['-q'] : [])].join(', ')}`, {
        hint: '--columns chooses the CSV columns',
      });
    }
  }
  if (flags.columns !== undefined && (flags.json || flags.query !== undefined || flags.fields !== undefined)) {
    throw new UsageError('--columns shapes tables, TSV and CSV; for JSON use --fields');
  }
  // -q prints the IDs alone: columns asked for would be dropped without a word.
  if (flags.columns !== undefined && flags.quiet)
    throw new UsageError('--columns cannot be combined with -q', { hint: '-q prints only the IDs; drop it for the columns' });
}

/** Checks the output flags (exit 2 before any request) and compiles --query. */
export async function createOutput(parts: OutputParts): Promise<Output> {
  const { flags, io, now, changeSent = () => false } = parts;
  const { stdout } = io;
  checkCombinations(flags);
  const fields = flags.fields === undefined ? undefined : parseNameList(flags.fields, '--fields');
  const columns = flags.columns === undefined ? undefined : parseNameList(flags.columns, '--columns');
  let query: CompiledQuery | undefined;
  if (flags.query !== undefined) {
    // The JMESPath engine loads only for runs that ask for it.
    const { compileQuery } = await import('./query.js');
    query = compileQuery(flags.query);
  }
  // --query and --fields print JSON (docs/cli.md section 9): they imply --json.
  const format: Format = flags.json || query !== undefined || fields !== undefined ? 'json' : flags.csv ? 'csv' : flags.quiet ? 'quiet' : 'human';
  const raw = flags.raw === true;

  const warning = (text: string) => writeText(io.stderr, `warning: ${text}`);
  const warnings = async (texts: readonly string[]) => {
    for (const text of texts) await warning(text);
  };

  const limit = async (value: unknown, aliases?: MemberAliases): Promise<unknown> => {
    if (fields === undefined) return value;
    const items = Array.isArray(value) ? value : [value];
    // The --fields names no item could be checked against (an empty answer) are warned of.
    await warnings(uncheckedWarnings(checkMemberNames(items, fields, '--fields', { aliases }), '--fields'));
    return Array.isArray(value) ? value.map((item) => pickMembers(item, fields, aliases)) : pickMembers(value, fields, aliases);
  };

  /**
   * Runs `shape` (--fields, --query) over an answer. When it fails after a change was sent, the
   * change still counts: what the human output says goes to stderr, and the run fails with exit
   * 1, not the 2 of a usage error, which says that nothing was sent. With -q, its essential (a
   * new ticket's ID) goes to stdout instead: the output asked for won over -q, and failed, but a
   * script reading -q's ID must not lose the ticket it made.
   */
  const shaped = async <T>(shape: () => T | Promise<T>, forms: DocumentForms | undefined): Promise<T> => {
    try {
      return await shape();
    } catch (error) {
      if (!(error instanceof UsageError) || !changeSent()) throw error;
      const essential = flags.quiet ? forms?.quiet?.() : undefined;
      if (essential !== undefined) await writeText(stdout, essential);
      else await tellOnStderr(forms);
      throw changeMadeAnyway(error);
    }
  };

  /** What the human output says of a change (`Created ticket #1042`), said on stderr instead. */
  const tellOnStderr = async (forms: DocumentForms | undefined): Promise<void> => {
    const told = (await forms?.human?.()) ?? forms?.quiet?.();
    if (told !== undefined) await writeText(io.stderr, told);
  };

  const changeMadeAnyway = (error: TktError): OutputAfterChangeError =>
    new OutputAfterChangeError(error.message, {
      details: error.details,
      hint: CHANGE_MADE_HINT,
      cause: error,
    });

  /**
   * Prints the answer to a request; stdout failing after a change (a full disk) is told as a
   * --query failing is: what was done on stderr, exit 1. A closed stdout ends the run quietly.
   */
  const printed = async (print: () => Promise<void>, forms: DocumentForms | undefined): Promise<void> => {
    try {
      await print();
    } catch (error) {
      if (!(error instanceof OutputFailedError) || !changeSent()) throw error;
      await tellOnStderr(forms);
      throw changeMadeAnyway(error);
    }
  };

  // Said once a run, on the first answer a query found nothing in.
  let hinted = false;
  /** Applies --query to `answer`; when that found nothing for want of a member, says so on stderr. */
  const queried = async (compiled: CompiledQuery, answer: unknown, part?: ShapedPart): Promise<unknown> => {
    const result = compiled.apply(answer);
    if (!hinted && isEmptyResult(result)) {
      const absent = compiled.absentMembers(answer);
      if (absent.length > 0) {
        hinted = true;
        await writeText(io.stderr, sanitizeText(absentMembersHint(absent, part?.noun) + (part === undefined ? '' : `hint: ${part.why}\n`)));
      }
    }
    return result;
  };

  /** A --fields name that `part` lacks is a usage error that says why the expression sees it. */
  const explained = async <T>(part: ShapedPart | undefined, shape: () => T | Promise<T>): Promise<T> => {
    try {
      return await shape();
    } catch (error) {
      if (part === undefined || !(error instanceof UsageError) || error.hint !== undefined) throw error;
      throw new UsageError(error.message, { details: error.details, hint: part.why, cause: error });
    }
  };

  /**
   * A query result: JSON, or with --raw (for scripts reading lines) a scalar bare, an array one
   * element per line and an object on one line.
   */
  const writeResult = (result: unknown, compact: boolean): Promise<void> => {
    // Bare strings go out as the service sent them, except to a terminal, which they must not drive.
    const bare = (text: string) => writeText(stdout, io.stdoutIsTTY ? sanitizeText(text) : text);
    if (raw) return bare(Array.isArray(result) ? result.map(rawLine).join('') : rawLine(result));
    return compact ? writeJsonLine(stdout, result) : writeJson(stdout, result);
  };

  const writeForm = async (forms: DocumentForms = {}): Promise<void> => {
    const text = format === 'quiet' ? forms.quiet?.() : await forms.human?.();
    if (text !== undefined) await writeText(stdout, text);
  };

  const data = async (value: unknown, forms: DocumentForms = {}): Promise<void> => {
    if (fields === undefined && query === undefined) return writeJson(stdout, value);
    const part = forms.shapes;
    const result = await shaped(
      () =>
        explained(part, async () => {
          const limited = await limit(part === undefined ? value : part.value, forms.aliases);
          return query === undefined ? limited : queried(query, limited, part);
        }),
      forms,
    );
    await (query === undefined ? writeJson(stdout, result) : writeResult(result, false));
  };

  const array = (aliases?: MemberAliases, noun?: string): ArrayPrinter => {
    const check = fields === undefined ? undefined : pagedNameCheck(fields, '--fields', { aliases });
    const limitPage = (items: readonly unknown[]) => {
      if (fields === undefined) return items;
      check?.page(items);
      return items.map((item) => pickMembers(item, fields, aliases));
    };
    /** At the end of the list: the names no item could check. */
    const warnIfUnchecked = () => warnings(check?.warnings(noun) ?? []);
    if (query === undefined) {
      const writer = createJsonArrayWriter(stdout);
      return {
        async push(items) {
          await writer.push(...(await shaped(() => limitPage(items), undefined)));
        },
        end: async () => {
          await writer.end();
          await warnIfUnchecked();
        },
        cutShort: () => writer.cutShort(),
      };
    }
    const compiled = query;
    if (compiled.elementwise) {
      // Page by page, so memory stays flat over any number of tickets.
      const writer = raw ? undefined : createJsonArrayWriter(stdout);
      return {
        async push(items) {
          const results = (await shaped(() => queried(compiled, limitPage(items)), undefined)) as unknown[];
          if (writer === undefined) await writeResult(results, false);
          else await writer.push(...results);
        },
        end: async () => {
          await writer?.end();
          await warnIfUnchecked();
        },
        cutShort: async () => writer?.cutShort(),
      };
    }
    const held: unknown[] = [];
    return {
      async push(items) {
        for (const item of await shaped(() => limitPage(items), undefined)) held.push(item);
      },
      end: async () => {
        await writeResult(await shaped(() => queried(compiled, held), undefined), false);
        await warnIfUnchecked();
      },
      // A query over part of the list would pass for the answer over all of it.
      cutShort: async () => {},
    };
  };

  return {
    format,
    columns,
    async records(spec) {
      const { createRecordPrinter } = await import('./records.js');
      return createRecordPrinter({ format, columns, io, now, array, warning }, spec);
    },
    document: (value, forms) => printed(() => (format === 'json' ? data(value, forms) : writeForm(forms)), forms),
    data: (value) => printed(() => data(value), undefined),
    wholeData: (value) => printed(() => writeJson(stdout, value), undefined),
    text: (text) => printed(() => writeText(stdout, text), undefined),
    line: async (value, forms) =>
      format === 'json'
        ? query === undefined
          ? writeJsonLine(stdout, value)
          : writeResult(await shaped(() => queried(query, value), forms), true)
        : writeForm(forms),
    array,
    note: async (text) => {
      if (!flags.quiet) await writeText(io.stderr, text);
    },
    warning,
    aside: async (value) => {
      if (format === 'json') await writeJsonLine(io.stderr, value);
    },
    assertNoDataOutput(why, hint) {
      const flag = flags.query !== undefined ? '--query' : flags.json ? '--json' : flags.quiet ? '-q' : undefined;
      if (flag !== undefined) throw new UsageError(`${why}: it has no ${flag} output`, { hint });
    },
    assertNotTabular(hint) {
      if (format === 'csv' || columns !== undefined) throw new UsageError(`${format === 'csv' ? '--csv' : '--columns'} needs one table here`, { hint });
    },
  };
}
