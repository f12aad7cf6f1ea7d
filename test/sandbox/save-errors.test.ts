// The "400 save error" rows of the spec's response tables (4.3, 4.4, 4.8, 4.9, 4.14, 4.15), via
// failNext: the injected failure answers 400 with a message, changes nothing (no ticket, no
// conversation, no e-mail, no stored upload), and is one-shot, so the same request then succeeds.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { openSandbox, registerForm, type RequestOptions, type TestSandbox } from './helpers.js';

interface SaveErrorCase {
  routeKey: string;
  method: string;
  success: number;
  /** Builds the request against a fresh demo sandbox: a valid one, so only the fault can refuse it. */
  request(t: TestSandbox): { path: string; options: RequestOptions };
}

function demoTicketId(sandbox: RunningSandbox, title: string): number {
  const ticket = sandbox.state.tickets.find((t) => t.title === title);
  if (!ticket) throw new Error(`no demo ticket "${title}"`);
  return ticket.id;
}

const upload = [{ name: 'evidence.txt', content: 'should not be kept' }];

const CASES: SaveErrorCase[] = [
  {
    routeKey: 'POST /api/TicketsApi/register',
    method: 'POST',
    success: 201,
    request: ({ userId }) => ({ path: '/api/TicketsApi/register', options: { as: 'admin', form: registerForm(userId('aberg')), files: upload } }),
  },
  {
    routeKey: 'POST /api/TicketsApi/new',
    method: 'POST',
    success: 201,
    request: () => ({
      path: '/api/TicketsApi/new',
      options: { as: 'viewer', form: { Title: 'From CI', Description: 'Build broke', Requester: 'pnovak' }, files: upload },
    }),
  },
  {
    routeKey: 'POST /api/TicketsApi/update/{id}',
    method: 'POST',
    success: 204,
    request: ({ sandbox, userId }) => {
      const id = demoTicketId(sandbox, 'Monitor flickers');
      return {
        path: `/api/TicketsApi/update/${id}`,
        options: { as: 'admin', form: { Id: id, CreatorId: userId('fkhan'), TicketStatusId: 3, TicketPriorityId: 4 } },
      };
    },
  },
  {
    routeKey: 'POST /api/TicketsApi/resolve/{id}',
    method: 'POST',
    success: 200,
    request: ({ sandbox, userId }) => {
      const id = demoTicketId(sandbox, 'Monitor flickers');
      return {
        path: `/api/TicketsApi/resolve/${id}`,
        options: { as: 'tech', form: { TicketId: id, Details: 'Replaced the cable', SubmitBy: userId('tech') } },
      };
    },
  },
  {
    routeKey: 'POST /api/TicketsApi/pickup/{id}',
    method: 'POST',
    success: 200,
    request: ({ sandbox }) => ({ path: `/api/TicketsApi/pickup/${demoTicketId(sandbox, 'Monitor flickers')}`, options: { as: 'tech' } }),
  },
  {
    routeKey: 'GET /api/TicketsApi/appmetadata',
    method: 'GET',
    success: 200,
    request: () => ({ path: '/api/TicketsApi/appmetadata', options: { as: 'viewer' } }),
  },
];

/** Everything a request could change, as text, plus the files in the upload folder. */
function snapshot(sandbox: RunningSandbox, uploadDir: string): { state: string; uploads: string[] } {
  const { tickets, conversations, attachments, outbox, nextId } = sandbox.state;
  return { state: JSON.stringify({ tickets, conversations, attachments, outbox, nextId }), uploads: readdirSync(uploadDir).sort() };
}

for (const testCase of CASES) {
  test(`${testCase.routeKey}: 400 save error changes nothing; the retry succeeds (${testCase.success})`, async () => {
    const t = await openSandbox();
    // The demo data has attachments, so their folder is the upload folder.
    const uploadDir = dirname(t.sandbox.state.attachments[0]?.path ?? '');
    const { path, options } = testCase.request(t);
    const before = snapshot(t.sandbox, uploadDir);

    t.sandbox.failNext(testCase.routeKey, 400);
    const failed = await t.request(testCase.method, path, options);
    expect(failed.status).toBe(400);
    expect(failed.body.message).toMatch(/could not be saved/);
    expect(snapshot(t.sandbox, uploadDir)).toEqual(before);

    const retried = await t.request(testCase.method, path, options);
    expect(retried.status).toBe(testCase.success);
    if (testCase.method !== 'GET') expect(snapshot(t.sandbox, uploadDir).state).not.toBe(before.state);
  });
}

test('a fault waits for a request that passes authentication and permission checks', async () => {
  const { sandbox, request } = await openSandbox();
  const id = demoTicketId(sandbox, 'Monitor flickers');
  sandbox.failNext('POST /api/TicketsApi/pickup/{id}', 400);
  expect((await request('POST', `/api/TicketsApi/pickup/${id}`)).status).toBe(401);
  expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'viewer' })).status).toBe(403);
  expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'tech' })).status).toBe(400);
  expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'tech' })).status).toBe(200);
});
