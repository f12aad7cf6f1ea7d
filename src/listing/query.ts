// What `tkt list` sends: list types (docs/service.md 4.1) and filterBy fields, typed the way users type them.
import { settingSpec, settingValue } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { closestWord } from '../util/closest.js';
import { squash } from '../util/option-text.js';

export const LIST_TYPES = [
  'AllMyGroups',
  'MyOpenOrUnassigned',
  'UnassignedTickets',
  'MyOpenTickets',
  'MyTicketsOnhold',
  'MyOverdueTickets',
  'MyPendingTickets',
  'MyTicketsDueToday',
  'MyEscalated',
  'AllEscalated',
  'MyCompletedTickets',
  'AllMyTickets',
  'MyOpenTasks',
  'MyCompletedTasks',
  'TicketsOnHold',
  'OverdueTickets',
  'TicketsDueToday',
  'PendingTickets',
  'CompletedTickets',
  'AllTickets',
] as const;

const FILTER_FIELDS = ['Subject', 'TicketId', 'Priority', 'Requester'] as const;

/** The kebab-case spelling shown in help and errors: MyOverdueTickets -> my-overdue-tickets. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/** A list type as the API spells it; exit 2 listing every valid one otherwise. */
export function parseListType(text: string): string {
  const found = LIST_TYPES.find((type) => squash(type) === squash(text));
  if (found === undefined) {
    const views = LIST_TYPES.map(kebabCase);
    const meant = closestWord(text.trim().toLowerCase(), views);
    throw new UsageError(`unknown view ${JSON.stringify(text)}`, {
      details: ['valid views:', ...views.map((view) => `  ${view}`)],
      hint: meant === undefined ? undefined : `did you mean ${meant}?`,
    });
  }
  return found;
}

/** The default-view setting's check (`tkt config set default-view`, and a saved value when read): a view, kept in kebab-case. */
export const parseViewSetting = (text: string): string => kebabCase(parseListType(text));

/**
 * The list type of --view `given`, else of the default-view setting, whose saved value is checked
 * as `config set` checks it (its error names the setting and the file); undefined for neither.
 */
export function chosenListType(given: string | undefined, ctx: Pick<Context, 'config' | 'env' | 'globals'>): string | undefined {
  if (given !== undefined) return parseListType(given);
  const saved = settingValue(ctx, settingSpec('default-view'), parseViewSetting);
  return saved === undefined ? undefined : parseListType(String(saved));
}

/** `--in subject,ticket-id` -> "Subject,TicketId"; exit 2 naming the valid fields otherwise. */
export function parseFilterBy(text: string): string {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError('--in needs at least one field', { details: [`valid fields: ${FILTER_FIELDS.join(', ')}`] });
  const fields = names.map((name) => {
    const found = FILTER_FIELDS.find((fieldName) => squash(fieldName) === squash(name));
    if (found === undefined) {
      throw new UsageError(`unknown --in field ${JSON.stringify(name)}`, { details: [`valid fields: ${FILTER_FIELDS.join(', ')}`] });
    }
    return found;
  });
  return [...new Set(fields)].join(',');
}
