// The list's rows, made from what the service answers: a view's items, or a ticket read again
// after an action.
import { readListItem, type TicketListItem } from '../model/ticket.js';
import { foldForMatch } from '../util/fold.js';

export interface TriageRow {
  id: number;
  summary: TicketListItem;
  /** What the filter searches, folded (case and accents), made once per row: a view may hold 20,000 tickets. */
  searchText: string;
}

const SEARCHED_FIELDS = ['title', 'status', 'priority', 'requester', 'assignee'] as const;

function triageRow(id: number, summary: TicketListItem): TriageRow {
  const searchText = foldForMatch([String(id), ...SEARCHED_FIELDS.map((name) => summary[name] ?? '')].join('\u0000'));
  return { id, summary, searchText };
}

/** A view's items as rows; an item without a usable ID is left out. */
export function rowsOf(items: readonly unknown[]): TriageRow[] {
  return items.flatMap((item): TriageRow[] => {
    const summary = readListItem(item);
    const id = Number(summary.id);
    return Number.isSafeInteger(id) ? [triageRow(id, summary)] : [];
  });
}

/** A row from a ticket's detail: the model names its people as the list does. */
export function detailRow(id: number, ticket: unknown): TriageRow {
  return triageRow(id, { ...readListItem(ticket), id });
}
