import { describe, expect, test } from 'vitest';
import { openSandbox } from './helpers.js';

const APP_COLLECTIONS = ['categories', 'clients', 'departments', 'groups', 'levels', 'priorities', 'sites', 'status'];

describe('metadata', () => {
  test('appmetadata: the eight collections with the spec item shapes', async () => {
    const { request } = await openSandbox();
    const reply = await request('GET', '/api/TicketsApi/appmetadata', { as: 'viewer' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(APP_COLLECTIONS);
    expect(reply.body.sites).toContainEqual({ id: 2, title: 'Harbour Depot' });
    expect(reply.body.status).toContainEqual({ id: 3, status: 'On Hold', statusType: 2 });
    expect(reply.body.priorities).toContainEqual({ id: 4, priority: 'Critical' });
    expect(reply.body.groups[0]).toEqual({ id: 1, group: 'Service Desk' });
  });

  test('without an id: every collection, including all sub-categories, items and requesters', async () => {
    const { sandbox, request } = await openSandbox();
    const reply = await request('GET', '/api/TicketsApi/metadata', { as: 'viewer' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual([...APP_COLLECTIONS, 'items', 'requesters', 'sub_categories', 'technicians'].sort());
    expect(reply.body.sub_categories).toHaveLength(sandbox.state.lookups.subCategories.length);
    expect(reply.body.requesters).toContainEqual({ id: sandbox.state.users.find((u) => u.username === 'aberg')?.id, fullName: 'Anna Berg', userName: 'aberg' });
    expect(reply.body.requesters.filter((r: { fullName: string }) => r.fullName.startsWith('Anna '))).toHaveLength(2);
  });

  test("with an id: sub-categories and items of the ticket's category, technicians of its group, no requesters", async () => {
    const { sandbox, request } = await openSandbox();
    // Category Hardware (1), sub-category Laptop (1), group Service Desk (1).
    const id = sandbox.state.tickets.find((t) => t.title === 'Laptop will not boot after update')?.id;
    const reply = await request('GET', `/api/TicketsApi/metadata/${id}`, { as: 'viewer' });
    expect(reply.status).toBe(200);
    expect(reply.body.requesters).toBeUndefined();
    expect(reply.body.sub_categories).toEqual([
      { id: 1, name: 'Laptop' },
      { id: 2, name: 'Printer' },
    ]);
    expect(reply.body.items).toEqual([
      { id: 1, name: 'ThinkPad T14' },
      { id: 2, name: 'MacBook Pro' },
    ]);
    expect(reply.body.technicians.map((t: { userName: string }) => t.userName).sort()).toEqual(['admin', 'tech', 'ttorres']);
    expect(reply.body.sites).toHaveLength(3);
  });

  test('400 when the id is unknown, 401 without a token', async () => {
    const { request } = await openSandbox();
    const reply = await request('GET', '/api/TicketsApi/metadata/424242', { as: 'viewer' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/424242/);
    expect((await request('GET', '/api/TicketsApi/metadata')).status).toBe(401);
  });
});
