// A service failing mid-save (the sandbox's failNext: 500 as an HTML page, 4xx as a save-error
// message) is exit 1 for the ID... commands, with the service's own words on stderr.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { unusedTicket, useHarness } from '../helpers/sandbox-state.js';

const OPEN = 1;
const SERVER_ERROR = 'An unexpected error occurred while saving the ticket.';
const SAVE_ERROR = 'The ticket could not be saved.';

let h: Harness;
useHarness({}, (harness) => (h = harness));

describe('server errors at command level', () => {
  it.each([
    ['resolve', 'POST /api/TicketsApi/resolve/{id}', 500, SERVER_ERROR, ['--details', 'x']],
    ['resolve', 'POST /api/TicketsApi/resolve/{id}', 400, SAVE_ERROR, ['--details', 'x']],
    ['pickup', 'POST /api/TicketsApi/pickup/{id}', 500, SERVER_ERROR, []],
    ['pickup', 'POST /api/TicketsApi/pickup/{id}', 400, SAVE_ERROR, []],
    ['delete', 'DELETE /api/TicketsApi/{id}', 500, SERVER_ERROR, ['--yes']],
  ])('%s answered HTTP %i is exit 1 with the message shown', async (command, route, status, message, extra) => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN && t.assignedUser === null);
    h.sandbox.failNext(route, status);
    const result = await h.cli([command, String(ticket.id), ...extra]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`HTTP ${status}`);
    expect(result.stderr).toContain(message);
    expect(ticket).toMatchObject({ ticketStatusId: OPEN, assignedUser: null, isDeleted: false });
  });
});
