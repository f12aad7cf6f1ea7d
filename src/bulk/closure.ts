// What `tkt close` sends for its options (docs/service.md 4.7): the closure status code and closing date
// checked, the comments read (inline or stdin), the files found, who closes.
import type { Closure } from '../api/plans.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { wholeNumberOption } from '../util/ids.js';
import { parseWhen } from '../util/when.js';
import { actingUser, cliActingWords, type ActingUser } from '../prompts/acting-user.js';
import { readTextOption } from '../cmdutil/text-input.js';
import { checkUploads } from '../cmdutil/upload-files.js';

/** `tkt close`'s options that make the closure, as typed. */
export interface ClosureOptions {
  /** The IDs as typed ("-" for stdin's): who closes is named for one ticket or several. */
  ids: string[];
  comments?: string | undefined;
  closureComments?: string | undefined;
  acknowledge?: boolean | undefined;
  closureStatus?: string | undefined;
  date?: string | undefined;
  by?: string | undefined;
  attach?: string[] | undefined;
}

/** The closure every ID gets, and who closes (named in a dry run). */
export interface PlannedClosure {
  closure: Closure;
  closer: ActingUser;
}

/** The closure every ID gets; bad input is exit 2 before any request. */
export async function closureOf(options: ClosureOptions, ctx: Context): Promise<PlannedClosure> {
  const status = options.closureStatus === undefined ? undefined : wholeNumberOption('--closure-status', options.closureStatus, { min: 0 });
  const closingDate = options.date === undefined ? undefined : closingDateOf(options.date, ctx.now());
  const files = await checkUploads(options.attach ?? [], '--attach');
  const comments = await readTextOption(ctx, { flag: '--comments', text: options.comments });
  const closureComments = await readTextOption(ctx, { flag: '--closure-comments', text: options.closureComments });
  const closer = await actingUser(ctx, options.by, 'closes', cliActingWords(options.ids));
  return { closure: { closeBy: closer.id, acknowledged: options.acknowledge, comments, status, closureComments, closingDate, files }, closer };
}

/** The closing date for `--date` (or close_ticket's `date`, its `name`), as the form sends it. */
export function closingDateOf(text: string, now: Date, name = '--date'): string {
  try {
    // A closing date looks back (closed yesterday): the advice for a wrong one counts back too.
    return parseWhen(text, now, { past: true }).toISOString();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${name}: ${error.message}`, { hint: error.hint });
    throw error;
  }
}
