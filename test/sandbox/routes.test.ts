import { describe, expect, test } from 'vitest';
import { openSandbox } from './helpers.js';

// Not compared: the time, and the connection's headers (fetch's undici asks to close the connection
// after a HEAD, in case a misbehaving server sends a body all the same).
const UNCOMPARED = new Set(['date', 'connection', 'keep-alive']);
const headersOf = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => !UNCOMPARED.has(name)));

describe('HEAD', () => {
  test('is answered wherever GET is, with the same status and headers and no body, as any HTTP service answers it', async () => {
    const { sandbox, request } = await openSandbox();
    const id = sandbox.state.tickets.find((t) => !t.isDeleted)!.id;
    const cases: [path: string, as: string | undefined][] = [
      [`/api/TicketsApi/${id}`, 'tech'],
      ['/api/TicketsApi/999999', 'tech'],
      ['/api/TicketsApi/abc', 'tech'],
      [`/api/TicketsApi/${id}`, undefined],
      ['/api/TicketsApi/metadata', 'tech'],
      [`/api/TicketsApi/metadata/${id}`, 'tech'],
      ['/api/TicketsApi/appmetadata', 'tech'],
    ];
    for (const [path, as] of cases) {
      const get = await request('GET', path, as === undefined ? {} : { as });
      const head = await request('HEAD', path, as === undefined ? {} : { as });
      expect({ status: head.status, headers: headersOf(head.headers) }, path).toEqual({ status: get.status, headers: headersOf(get.headers) });
      expect(head.body, path).toBeUndefined();
    }
    expect(sandbox.stats.byRoute['HEAD /api/TicketsApi/{id}']).toBe(4);
    expect(sandbox.stats.byRoute['GET /api/TicketsApi/{id}']).toBe(4);
  });

  test("is only GET's: a path without a route, or that answers POST alone, is 404 without a body", async () => {
    const { request } = await openSandbox();
    for (const path of ['/api/nothing-here', '/api/TicketsApi/pickup/1']) {
      expect(await request('HEAD', path, { as: 'tech' }), path).toMatchObject({ status: 404, body: undefined });
    }
  });
});
