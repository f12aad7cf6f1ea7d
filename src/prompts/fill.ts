// At a terminal, missing values are asked for instead of failing (docs/cli.md section 7):
// lists come from the lookups, long ones with type-to-filter. Ctrl-C in any prompt is
// the prompter's InterruptedError (exit 130), thrown before anything is sent.
import type { Context } from '../context/context.js';
import { ME, type LookupEntry, type LookupKind, type Lookups } from '../lookups/types.js';
import type { Choice } from '../context/prompter.js';
import { fieldsFor, lengthProblem, TITLE_MAX_LENGTH, type TicketEndpoint } from '../model/fields.js';
import { missingRequired, type RawFieldValues } from '../fields/options.js';
import type { HeldValue } from '../fields/update-form.js';
import { askText } from '../cmdutil/text-input.js';
import { sameId } from '../util/same-id.js';

/** Above this many entries a list becomes type-to-filter. */
const SELECT_LIMIT = 12;
const NONE = '';

export interface AskLookupOptions {
  message: string;
  /** Offer "(none)"; choosing it returns undefined. */
  optional?: boolean;
  /** Preselect the entry with this name (case-insensitive), e.g. status "Open". */
  defaultName?: string;
  /** Preselect the entry with this ID, before `defaultName` (with no list, the text Enter answers): the value a ticket holds, which Enter keeps (update). */
  defaultId?: string;
  /** Always type-to-filter (people lists grow). */
  search?: boolean;
  /** A person: offer @me first, as completion does, when the token names the user (chosen, it is returned as @me). */
  offerMe?: boolean;
}

/**
 * Asks for one lookup value and returns its ID as text (which the lookups resolve as an
 * ID), or undefined for "(none)". With no entries to offer, asks for a name or ID.
 */
export async function askLookup(ctx: Context, lookups: Lookups, kind: LookupKind, options: AskLookupOptions): Promise<string | undefined> {
  const entries = await lookups.entries(kind);
  if (entries.length === 0) {
    const text = await ctx.prompter.input({
      message: `${options.message} (name or ID)`,
      ...(options.optional ? {} : { validate: required }),
      ...(options.defaultId === undefined ? {} : { default: options.defaultId }),
    });
    return text.trim() === '' ? undefined : text.trim();
  }
  const choices: Choice<string>[] = entries.map((entry) => {
    const aliases = entry.aliases.filter((alias) => alias.toLowerCase() !== entry.name.toLowerCase());
    return { name: aliases.length > 0 ? `${entry.name} (${aliases.join(', ')})` : entry.name, value: String(entry.id) };
  });
  const me = options.offerMe ? await meChoice(ctx, entries) : undefined;
  if (me !== undefined) choices.unshift(me);
  if (options.optional) choices.unshift({ name: '(none)', value: NONE });
  // Enter takes the named default, else (none) of an optional field, as a picker left as it is.
  const wanted = options.defaultName?.toLowerCase();
  const preselected =
    (options.defaultId === undefined ? undefined : entries.find((entry) => sameId(entry.id, options.defaultId))) ??
    entries.find((entry) => entry.name.toLowerCase() === wanted);
  const initial = preselected === undefined ? (options.optional ? NONE : undefined) : String(preselected.id);
  const asked = { message: options.message, choices, ...(initial === undefined ? {} : { default: initial }) };
  const chosen = options.search || choices.length > SELECT_LIMIT ? await ctx.prompter.search(asked) : await ctx.prompter.select(asked);
  return chosen === NONE ? undefined : chosen;
}

/** `@me (Tom Tech)`, which the lookups resolve to the logged-in user; none when the token names no user. */
async function meChoice(ctx: Context, entries: readonly LookupEntry[]): Promise<Choice<string> | undefined> {
  const { userId } = await ctx.session();
  if (userId === undefined) return undefined;
  const mine = entries.find((entry) => sameId(entry.id, userId));
  return { name: mine === undefined ? ME : `${ME} (${mine.name})`, value: ME };
}

function required(value: string): true | string {
  return value.trim() === '' ? 'a value is required' : true;
}

function validTitle(value: string): true | string {
  if (value.trim() === '') return 'a title is required';
  return lengthProblem(value, TITLE_MAX_LENGTH) ?? true;
}

export interface FillOptions {
  endpoint: TicketEndpoint;
  /** Also ask the optional fields (a fully interactive `tkt create`). */
  optional: boolean;
  /**
   * Told the values after each answer, before the questions that may still fail: a description
   * typed is kept as a draft, with a command that holds the answers given so far (tkt create).
   */
  answered?: (filled: Readonly<RawFieldValues>) => void;
}

/**
 * Returns `values` with the missing required fields asked for (and, when `optional`,
 * the usual optional ones too). Values already given are never asked again.
 */
export async function fillTicketFields(ctx: Context, lookups: Lookups, values: RawFieldValues, options: FillOptions): Promise<RawFieldValues> {
  const filled: RawFieldValues = { ...values };
  const missing = new Set(missingRequired(options.endpoint, values).map((flag) => flag.slice(2)));
  const has = (key: string) => filled[key] !== undefined && filled[key] !== '';

  const answer = (key: string, value: string | undefined) => {
    if (value === undefined) return;
    filled[key] = value;
    options.answered?.(filled);
  };

  if (missing.has('title')) answer('title', await ctx.prompter.input({ message: 'Title', validate: validTitle }));
  if (missing.has('description')) answer('description', await askText(ctx, 'Description'));
  // The lookup fields the table says to ask for, in its order (the order a person fills the form in).
  for (const spec of fieldsFor(options.endpoint)) {
    const { ask, value } = spec;
    if (ask === undefined || value.type !== 'lookup' || has(spec.key)) continue;
    const isRequired = missing.has(spec.key);
    if (!isRequired && !options.optional) continue;
    if (ask.after !== undefined && !has(ask.after)) continue;
    // The integration endpoint takes the requester's username, typed rather than chosen.
    if (value.as === 'username') {
      answer(spec.key, await ctx.prompter.input({ message: spec.label, validate: required }));
      continue;
    }
    const chosen = await askLookup(ctx, lookups, value.kind, {
      message: spec.label,
      optional: !isRequired,
      ...(ask.defaultName === undefined ? {} : { defaultName: ask.defaultName }),
      ...(ask.search === undefined ? {} : { search: ask.search }),
    });
    answer(spec.key, chosen);
  }
  return filled;
}

const DONE = '';

/** The fields `tkt update` asked for at a terminal. */
export interface UpdateAnswers {
  /** Each field asked for, answered as its option would have given it; a field kept answers what the ticket holds. */
  values: RawFieldValues;
  /** What each question said the ticket holds, by form field: the "from" of the change (named from the lookups where the ticket does not name it). */
  was: Record<string, string>;
}

/**
 * `tkt update ID` at a terminal with no option: which fields to change, one at a time, then
 * each one's value, as the options would have given them. Each question says what the ticket
 * holds and starts on it (`held`), as gh's edit does: Enter keeps it. No values when the person picks none.
 */
export async function askUpdateFields(ctx: Context, lookups: Lookups, held: Readonly<Record<string, HeldValue>> = {}): Promise<UpdateAnswers> {
  const values: RawFieldValues = {};
  const was: Record<string, string> = {};
  const specs = fieldsFor('update');
  for (;;) {
    const open = specs.filter((spec) => values[spec.key] === undefined);
    const chosen = Object.keys(values).length > 0;
    const key = await ctx.prompter.select({
      message: chosen ? 'Another field to change?' : 'Field to change',
      choices: [
        ...(chosen ? [{ name: 'no more: update the ticket', value: DONE }] : []),
        ...open.map((spec) => ({ name: spec.key, value: spec.key, description: spec.description })),
        ...(chosen ? [] : [{ name: 'none: change nothing', value: DONE }]),
      ],
    });
    const spec = specs.find((candidate) => candidate.key === key);
    if (spec === undefined) return { values, was };
    const { said, answer: current } = held[spec.formField] ?? {};
    if (spec.value.type === 'lookup') {
      const { kind } = spec.value;
      // A ticket may hold a lookup's ID without its name (the level): named from the list it is chosen in.
      const name = current !== undefined && said === current ? await lookups.nameOf(kind, current) : undefined;
      if (said !== undefined) was[spec.formField] = name ?? said;
      values[spec.key] = await askLookup(ctx, lookups, kind, {
        message: `${spec.key}${nowText(was[spec.formField])}`,
        optional: false,
        search: spec.ask?.search === true,
        ...(current === undefined ? {} : { defaultId: current }),
      });
    } else {
      if (said !== undefined) was[spec.formField] = said;
      values[spec.key] = await ctx.prompter.input({
        message: `${spec.key}: ${spec.description}${nowText(said)}`,
        validate: required,
        ...(current === undefined ? {} : { default: current }),
      });
    }
  }
}

/** What the ticket holds now, said with the question: the answer is a change from it. */
function nowText(said: string | undefined): string {
  return said === undefined ? '' : ` (now: ${said})`;
}
