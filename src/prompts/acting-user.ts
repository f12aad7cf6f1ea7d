// Who acts: resolve's and close's --by USER (ID, username or full name from the technicians
// lookup, or @me), else the logged-in user; who `--assignee @me` is; and assign's USER when it is
// left out (picked at a terminal). A token that names no user (TKT_TOKEN without the claim) means
// asking at a terminal, else exit 2 (docs/cli.md section 4).
import type { RequestPlan } from '../api/types.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { Context } from '../context/context.js';
import { noUserError, tokenUnreadable } from '../config/session.js';
import type { Lookups, TypedOption } from '../lookups/types.js';
import type { RawFieldValues } from '../fields/options.js';
import { STDIN } from '../cmdutil/text-input.js';
import { ticketSpansOf } from '../util/ids.js';
import { sameId } from '../util/same-id.js';

/** Asks for a technician; not optional, so askLookup always answers (with no list to offer, what was typed). */
async function askWho(ctx: Context, lookups: Lookups, message: string, offerMe = false): Promise<string> {
  const { askLookup } = await import('./fill.js');
  return (await askLookup(ctx, lookups, 'assignee', { message, search: true, offerMe }))!;
}

/** assign's USER when none was typed: a technician picked at a terminal, @me (returned as such) first. */
export function askAssignee(ctx: Context, lookups: Lookups, message: string): Promise<string> {
  return askWho(ctx, lookups, message, true);
}

/** Who acts: the user ID the form sends, and who that is. */
export interface ActingUser {
  id: string;
  /**
   * The user's name for a person reading the request (a dry run): `Tom Tech, you`. Named only
   * from what the run already has (the login's names, the technicians --by was matched in,
   * those offered at the question): never a request of its own. Undefined when none says.
   */
  label: string | undefined;
}

/** How the errors of who acts name the tickets and the way to say who: the CLI's, or a tool's (`"by"`, this ticket). */
export interface ActingWords {
  tickets: string;
  /** What names who acts, for an unknown or ambiguous name. */
  typed: TypedOption;
  /** How to say who acts, for a token that names no user. */
  hint: string;
}

/** The CLI's words for one ticket. */
const ONE_TICKET: ActingWords = { tickets: 'this ticket', typed: { flag: '--by', noun: 'user' }, hint: 'pass --by USER (a user ID or username)' };

/**
 * The CLI's words for the tickets of `ids` as typed: "this ticket" where they name one (`tkt close 42`),
 * else "these tickets"; stdin's ("-") are not read yet, however many it holds, nor a key's (none typed).
 */
export function cliActingWords(ids: readonly string[]): ActingWords {
  if (ids.includes(STDIN)) return { ...ONE_TICKET, tickets: 'the tickets on stdin' };
  // A range names two tickets at least: its ends tell as much as all its IDs.
  const named = ids.flatMap((id): (number | string)[] => ticketSpansOf(id)?.flatMap(({ first, last }) => [first, last]) ?? [id]);
  return new Set(named).size === 1 ? ONE_TICKET : { ...ONE_TICKET, tickets: 'these tickets' };
}

/**
 * The user who acts, for the form's SubmitBy/CloseBy; `action` says what they do, in user words
 * ("resolves"). `given`: the caller's lookups (a tkt mcp call's, which list the people a name
 * matches, as its other names do); else the run's own, made only when a name is to be found.
 */
export async function actingUser(
  ctx: Context,
  by: string | undefined,
  action: 'resolves' | 'closes',
  words: ActingWords,
  given?: Lookups,
): Promise<ActingUser> {
  // Loaded only for a name to find or show: the user the token names, the usual case, needs none.
  let loaded: Lookups | undefined = given;
  const lookups = async (): Promise<Lookups> => (loaded ??= (await import('../lookups/index.js')).createLookups(ctx));
  // The technicians of --by or of the question are loaded already: naming the one chosen costs nothing.
  const named = async (id: string): Promise<ActingUser> => {
    const { userId, fullName, username } = await ctx.session();
    const you = userId !== undefined && sameId(userId, id);
    const name = you ? (fullName ?? username) : await (await lookups()).nameOf('assignee', id);
    const label = [name, ...(you ? ['you'] : [])].filter((part) => part !== undefined).join(', ');
    return { id, label: label === '' ? undefined : label };
  };
  if (by !== undefined) return named(String(await (await lookups()).resolve('assignee', by, words.typed)));
  const session = await ctx.session();
  if (session.userId !== undefined) return named(session.userId);
  // A token tkt cannot read is no login: a person asked who acts would only meet the service's 401
  // at the technicians' list.
  if (!ctx.io.canPrompt || tokenUnreadable(session)) throw noUserError(session, `${action} ${words.tickets}`, words.hint);
  return named(await askWho(ctx, await lookups(), `Who ${action} ${words.tickets} (${words.typed.flag})? The token names no user`));
}

/** The acting user's ID alone, for what sends without showing the request: one ticket's, unless `words` say otherwise. */
export async function resolveActingUser(
  ctx: Context,
  by: string | undefined,
  action: 'resolves' | 'closes',
  words: ActingWords = ONE_TICKET,
  lookups?: Lookups,
): Promise<string> {
  return (await actingUser(ctx, by, action, words, lookups)).id;
}

/**
 * A request that carries who acts (close's CloseBy, resolve's SubmitBy), labelled for its dry
 * run. The field is the one holding the user's ID: the form's names stay in api/plans.ts.
 */
export function labelActingUser(plan: RequestPlan, user: ActingUser): PlannedRequest {
  const fields = plan.form?.fields ?? {};
  const field = Object.keys(fields).find((name) => fields[name] === user.id);
  return user.label === undefined || field === undefined ? plan : { ...plan, labels: { [field]: user.label } };
}

/**
 * `--assignee @me` when the token names no user: at a terminal the answer replaces @me;
 * otherwise the values are left for the lookups, which refuse @me (exit 2). Returns `values`
 * itself when nothing was asked.
 */
export async function answerAssigneeMe(ctx: Context, lookups: Lookups, values: RawFieldValues): Promise<RawFieldValues> {
  const assignee = values.assignee;
  if (typeof assignee !== 'string' || assignee.trim().toLowerCase() !== '@me' || !ctx.io.canPrompt) return values;
  const session = await ctx.session();
  // A token tkt cannot read is no login: the lookups refuse @me with exit 4, nothing asked.
  if (session.userId !== undefined || tokenUnreadable(session)) return values;
  return { ...values, assignee: await askWho(ctx, lookups, 'Assignee: who is "--assignee @me"? The token names no user') };
}
