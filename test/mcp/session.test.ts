// What a long-running `tkt mcp` reads afresh: the login (a `tkt login` or `tkt logout` while it
// runs counts from the next call) and the lookups (the cache the CLI keeps, with its expiry,
// and the service's names again before a name is called unknown).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { loginAs } from '../helpers/harness.js';
import { useHarness, userId } from '../helpers/sandbox-state.js';
import { ensureBuilt } from '../helpers/terminal.js';
import { connectMcp, textOf, type McpSession } from './mcp-process.js';

type Page = { tickets: { id: number }[] };

describe('tkt mcp reads the login and the lookups afresh', () => {
  let h: Harness;
  let mcp: McpSession | undefined;
  useHarness({ login: 'tech' }, (harness) => (h = harness));
  beforeAll(ensureBuilt, 120_000);
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    // Each test starts logged in as tech, whatever the one before did to the login.
    await loginAs(h.sandbox, h.configDir, 'tech');
  });

  const assignedTo = (username: string) =>
    h.sandbox.state.tickets
      .filter((t) => !t.isDeleted && t.assignedUser === userId(h, username))
      .map((t) => t.id)
      .sort();
  const mine = async (session: McpSession) => {
    const result = await session.call('list_tickets', { assignee: '@me', limit: 100 });
    expect(result.isError, textOf(result)).toBeFalsy();
    return (result.structuredContent as Page).tickets.map((t) => t.id).sort();
  };

  it('a logout counts from the next call, and a login after it (as the hint says) without a restart', async () => {
    mcp = await connectMcp([], { TKT_CONFIG_DIR: h.configDir });
    expect(await mine(mcp)).toEqual(assignedTo('tech'));

    expect((await h.cli(['logout'])).code).toBe(0);
    const loggedOut = await mcp.call('list_tickets', { limit: 1 });
    expect(loggedOut.isError).toBe(true);
    expect(textOf(loggedOut)).toMatch(/^error: not logged in \(profile default\)/);

    await loginAs(h.sandbox, h.configDir, 'admin');
    expect(await mine(mcp)).toEqual(assignedTo('admin'));
    await loginAs(h.sandbox, h.configDir, 'tech');
    expect(await mine(mcp)).toEqual(assignedTo('tech'));
  });

  it('follows the lookup cache the CLI keeps, and asks the service again before calling a name unknown', async () => {
    mcp = await connectMcp(['--write'], { TKT_CONFIG_DIR: h.configDir });
    const siteNames = async () => {
      const result = await mcp!.call('lookups', { kind: 'site' });
      expect(result.isError, textOf(result)).toBeFalsy();
      return (result.structuredContent as { entries: { name: string }[] }).entries.map((e) => e.name);
    };
    expect(await siteNames()).not.toContain('New Branch');

    const { sites } = h.sandbox.state.lookups;
    sites.push({ id: Math.max(...sites.map((s) => s.id)) + 1, title: 'New Branch' });
    // The CLI refetches the lookups into the cache both share: the server reads them from there.
    expect((await h.cli(['list', '--refresh', '--site', 'New Branch'])).code).toBe(0);
    expect(await siteNames()).toContain('New Branch');

    // A name the cache does not know yet: the service is asked once more before it is unknown.
    sites.push({ id: Math.max(...sites.map((s) => s.id)) + 1, title: 'Newer Depot' });
    const id = h.sandbox.state.tickets[0]!.id;
    const moved = await mcp.call('update_ticket', { id, site: 'Newer Depot', dry_run: true });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    expect(await siteNames()).toContain('Newer Depot');
    const unknown = await mcp.call('update_ticket', { id, site: 'Nowhere', dry_run: true });
    expect(textOf(unknown)).toMatch(/^error: unknown site "Nowhere"/);
  });
});
