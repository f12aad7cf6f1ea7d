// Changing a few fields of a ticket the safe way (spec 4.4): the update form may treat an
// absent field as "clear it", so the ticket is read and sent back whole with the changes.
import type { ApiClient, ApiResponse, FormValue } from '../api/types.js';
import { mergeUpdateForm } from './fields.js';

/** Read-modify-write of one ticket: its current fields plus `changes`. */
export async function changeTicket(client: ApiClient, id: number, changes: Readonly<Record<string, FormValue>>): Promise<ApiResponse> {
  const current = await client.getTicket(id);
  return client.updateTicket(id, { fields: mergeUpdateForm(id, current.body, changes) });
}
