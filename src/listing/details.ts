// A list item may leave out what tkt needs of its ticket (the spec does not give a list item's
// members): a filter, a sort or a count of tkt status then judges that ticket on its detail, read
// for it alone, a few at once (README, Finding tickets: one request per such ticket, 8 at once).
import { plans } from '../api/plans.js';
import type { ApiClient } from '../api/types.js';
import { listedTicketId, readListItem } from '../model/ticket.js';
import { inLanes } from '../util/lanes.js';

/** Details read at once: by a filter, a sort, tkt status and tkt watch alike. */
export const DETAIL_CONCURRENCY = 8;

/** Where details are read from: the run's client, and its stop signal. */
export interface DetailReads {
  api(): Promise<ApiClient>;
  signal: AbortSignal;
  /** The details read so far, by ticket ID: a run that judges the same tickets more than once (tkt status) reads each once. */
  read?: Map<string, unknown>;
}

/**
 * What `judge` says of each item, in order: of the item itself, else of its ticket's detail (the
 * body as the service sent it). `unsaid` is the failure when the detail does not say either.
 */
export async function judgeEach<T>(
  items: readonly unknown[],
  judge: (ticket: unknown) => T | undefined,
  reads: DetailReads,
  unsaid: (id: number | string, detail: unknown) => Error,
): Promise<T[]> {
  const verdicts = items.map((item) => judge(item));
  const undecided = verdicts.flatMap((verdict, index) => (verdict === undefined ? [index] : []));
  if (undecided.length > 0) {
    const api = await reads.api();
    await inLanes(undecided, DETAIL_CONCURRENCY, async (index) => {
      const id = listedTicketId(readListItem(items[index]));
      let detail = reads.read?.get(String(id));
      if (detail === undefined) {
        detail = (await api.send(plans.getTicket(Number(id)), { signal: reads.signal })).body;
        reads.read?.set(String(id), detail);
      }
      const verdict = judge(detail);
      if (verdict === undefined) throw unsaid(id, detail);
      verdicts[index] = verdict;
    });
  }
  return verdicts as T[];
}
