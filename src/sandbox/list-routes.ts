// The lists and lookups (docs/service.md 4.1, 4.13, 4.14, 4.16): the paginated list, list by username, metadata.
import { messageFailure, readJson, sendJson, sendJsonText } from './http.js';
import { fieldsFromJson } from './form.js';
import { LIST_TYPES, SEARCH_FIELDS, listTickets, parseListType, parseSearchField, ticketApiModelJson, ticketsOfRequester } from './listing.js';
import type { SearchField } from './listing.js';
import { ticketListItem, ticketMetadata } from './views.js';
import { withForm, recipients, type Call } from './call.js';
const LIST_BY_USERNAME_PAGE_SIZE = 25;

export async function list(call: Call): Promise<void> {
  const table = fieldsFromJson(await readJson(call.req));
  const page = table.int('page') ?? 1;
  const length = table.int('length') ?? 10;
  const listTypeText = table.text('listType');
  const listType = listTypeText === undefined ? 'AllTickets' : parseListType(listTypeText);
  if (listType === undefined) table.fail('listType', `Unknown list type "${listTypeText}". Valid: ${LIST_TYPES.join(', ')}.`);
  const searchIn: SearchField[] = [];
  for (const name of recipients(table.text('filterBy'))) {
    const field = parseSearchField(name);
    if (field) searchIn.push(field);
    else table.fail('filterBy', `Unknown filter "${name}". Valid: ${SEARCH_FIELDS.join(', ')}.`);
  }
  table.check();
  const now = call.config.now();
  const result = listTickets(
    call.store,
    call.caller,
    call.claims.permissions,
    {
      listType: listType ?? 'AllTickets',
      search: table.text('search'),
      searchIn,
      page: Math.max(page, 1),
      length: length > 0 ? length : 10,
    },
    now,
  );
  sendJson(
    call.res,
    200,
    result.page.map((t) => ticketListItem(call.store, t, now)),
    { 'x-total-count': String(result.total) },
  );
}

export function metadata(call: Call): void {
  if (call.id === undefined) {
    sendJson(call.res, 200, ticketMetadata(call.store, undefined));
    return;
  }
  const ticket = call.store.liveTicket(call.id);
  if (!ticket) throw messageFailure(400, `Error loading metadata: ticket ${call.id} was not found.`);
  sendJson(call.res, 200, ticketMetadata(call.store, ticket));
}

export async function listByUsername(call: Call): Promise<void> {
  await withForm(call, (fields) => {
    const username = fields.text('username', { required: true }) as string;
    const page = Math.max(fields.int('page') ?? 1, 1);
    fields.check();
    const requester = call.store.userByUsername(username);
    const first = (page - 1) * LIST_BY_USERNAME_PAGE_SIZE;
    const own = requester ? ticketsOfRequester(call.store, requester.id) : [];
    sendJsonText(
      call.res,
      200,
      `[${own
        .slice(first, first + LIST_BY_USERNAME_PAGE_SIZE)
        .map((t) => ticketApiModelJson(call.store, t))
        .join(',')}]`,
    );
  });
}
