// A service failing mid-save (the sandbox's failNext: 500 as an HTML page, 4xx as a save-error
// message) is exit 1 for the ID... commands, with the service's own words on stderr.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, startFrontServer, unusedTicket, useHarness } from '../helpers/sandbox-state.js';

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

// docs/cli.md section 5: the server's message counts whatever its shape, an HTML error page too.
describe('an error answered as an HTML page', () => {
  const page = (title: string, message: string) =>
    `<!DOCTYPE html><html><head><title>${title}</title><script>var p = "<p>not this</p>";</script></head>` +
    `<body><h1>${title}</h1><p>${message}</p></body></html>`;

  it.each([
    ['not found, as a 400 saying the ticket does not exist', 400, 'Ticket not found', 3, 'not found'],
    ['failed, as a 400 saying anything else', 400, 'The ticket could not be saved.', 1, 'failed'],
  ])('is %s: the message shown, the exit code as for any other shape', async (_case, status, message, code, reason) => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    const server = await startFrontServer(h, (req, res) => {
      if (req.method !== 'POST' || req.url !== `/api/TicketsApi/resolve/${ticket.id}`) return false;
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page('Bad Request', message));
      return true;
    });
    try {
      const result = await h.cli(['resolve', String(ticket.id), '--details', 'x'], { env: frontEnv(h, server) });
      expect(result.code).toBe(code);
      expect(result.stderr).toBe(`error: #${ticket.id} ${reason} (HTTP ${status})\n  HTTP ${status}: Bad Request; ${message}\n`);
    } finally {
      await server.close();
    }
  });
});
