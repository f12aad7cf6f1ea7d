import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, InDoubtError, UsageError } from '../../src/errors.js';
import { LookupError, collectionsOf, createLookups, kindsRefusedBy, matchEntry } from '../../src/lookups/index.js';
import type { LookupEntry } from '../../src/lookups/types.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { frontEnv, startFrontServer } from '../helpers/sandbox-state.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** Requests to the lookup endpoints so far: appmetadata, metadata, metadata/{id}. */
function lookupRequests(): { app: number; metadata: number } {
  let app = 0;
  let metadata = 0;
  for (const [route, count] of Object.entries(h.sandbox.stats.byRoute)) {
    if (/appmetadata/i.test(route)) app += count;
    else if (/metadata/i.test(route)) metadata += count;
  }
  return { app, metadata };
}

const userId = (username: string) => h.sandbox.state.users.find((u) => u.username === username)!.id;

async function usageError(promise: Promise<unknown>): Promise<UsageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('resolve', () => {
  it('matches a name exactly, without regard to case', async () => {
    const lookups = createLookups((await h.context({ globals: { refresh: true } })).ctx);
    expect(await lookups.resolve('site', 'head office')).toBe(1);
    expect(await lookups.resolve('status', 'ON HOLD')).toBe(3);
    expect(await lookups.resolve('priority', 'high')).toBe(3);
    expect(await lookups.resolve('group', 'Network Team')).toBe(2);
    expect(await lookups.resolve('level', 'tier 2')).toBe(2);
    expect(await lookups.resolve('client', 'fabrikam')).toBe(2);
    expect(await lookups.resolve('category', 'Network')).toBe(3);
    expect(await lookups.resolve('department', 'Human Resources')).toBe(3);
  });

  it('matches a name typed without its accents', async () => {
    const lookups = createLookups((await h.context()).ctx);
    expect(await lookups.resolve('requester', 'Jorg Muller')).toBe(userId('jmuller'));
    expect(await lookups.resolve('requester', 'JÖRG MÜLLER')).toBe(userId('jmuller'));
  });

  it('reads collections only the unscoped metadata has', async () => {
    const lookups = createLookups((await h.context()).ctx);
    expect(await lookups.resolve('subcategory', 'email')).toBe(3);
    expect(await lookups.resolve('item', 'outlook')).toBe(5);
  });

  it('accepts a unique prefix', async () => {
    const lookups = createLookups((await h.context()).ctx);
    expect(await lookups.resolve('site', 'harb')).toBe(2);
    expect(await lookups.resolve('status', 'esc')).toBe(5);
    expect(await lookups.resolve('requester', 'Peter')).toBe(userId('pnovak'));
  });

  it('refuses an ambiguous prefix, listing the matches', async () => {
    const lookups = createLookups((await h.context()).ctx);
    const error = await usageError(lookups.resolve('site', 'h'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('ambiguous site "h": it matches 2');
    expect(error.details.join('\n')).toContain('Head Office (id 1)');
    expect(error.details.join('\n')).toContain('Harbour Depot (id 2)');
    expect(error.details.join('\n')).not.toContain('Remote');

    // People are listed at a terminal only (next test).
    const people = await usageError(createLookups((await h.context({ tty: true })).ctx).resolve('requester', 'anna'));
    expect(people.details.join('\n')).toMatch(/Anna Berg \(id [^,]+, aberg/);
    expect(people.details.join('\n')).toMatch(/Anna Lind \(id [^,]+, alind/);
  });

  it('refuses an unknown name, listing every candidate', async () => {
    const lookups = createLookups((await h.context()).ctx);
    const error = await usageError(lookups.resolve('site', 'Mars'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('unknown site "Mars"');
    expect(error.details).toEqual(['candidates:', '  Head Office (id 1)', '  Harbour Depot (id 2)', '  Remote (id 3)']);
    expect(error.hint).toContain('tkt metadata --collection sites');
  });

  it('lists people only to a terminal: in CI, with --no-input or without a terminal, a line says why; sites are listed anyway', async () => {
    const atTerminal = createLookups((await h.context({ tty: true })).ctx);
    expect((await usageError(atTerminal.resolve('requester', 'nobody-here'))).details.join('\n')).toMatch(/Anna Berg \(id [^,]+, aberg/);
    expect((await usageError(atTerminal.resolve('assignee', 'nobody-here'))).details[0]).toMatch(/^(candidates|closest of \d+):$/);
    for (const [where, run] of [
      ['in CI', { tty: true, env: { CI: 'true' } }],
      ['with --no-input', { tty: true, globals: { input: false } }],
      ['without a terminal', {}],
    ] as const) {
      const lookups = createLookups((await h.context(run)).ctx);
      const unknown = await usageError(lookups.resolve('requester', 'nobody-here'));
      expect(unknown.message).toBe('unknown requester "nobody-here"');
      // The listing command is named once, in the hint; it lists people wherever it runs, so
      // nothing says "at a terminal" of it.
      expect(unknown.details).toEqual([`(candidates not listed ${where}: they name people)`]);
      expect(unknown.hint).toBe('see "tkt metadata --collection requesters"');
      const assignee = await usageError(lookups.resolve('assignee', 'nobody-here', { flag: '--by', noun: 'user' }));
      expect(assignee.details).toEqual([`(candidates not listed ${where}: they name people)`]);
      expect(assignee.hint).toBe('see "tkt metadata --collection technicians"');
      // An ambiguous name's hint says how to narrow it: the line names the listing command instead.
      const ambiguous = await usageError(lookups.resolve('requester', 'anna'));
      expect(ambiguous.message).toBe('ambiguous requester "anna": it matches 2');
      expect(ambiguous.details).toEqual([`(matches not listed ${where}: they name people; "tkt metadata --collection requesters" lists them)`]);
      expect(ambiguous.hint).toBe('type more of the name, or the ID');
      expect((await usageError(lookups.resolve('site', 'Mars'))).details).toContain('  Remote (id 3)');
    }
  });

  it('takes digits alone as an ID without asking the service', async () => {
    const lookups = createLookups((await h.context({ globals: { refresh: true } })).ctx);
    const before = lookupRequests();
    expect(await lookups.resolve('site', '42')).toBe(42);
    expect(await lookups.resolve('status', ' 7 ')).toBe(7);
    expect(lookupRequests()).toEqual(before);
    await usageError(lookups.resolve('site', '0'));
  });

  it('takes a user by ID, username or full name', async () => {
    const lookups = createLookups((await h.context()).ctx);
    const anna = userId('aberg');
    expect(await lookups.resolve('requester', anna)).toBe(anna);
    expect(await lookups.resolve('requester', anna.toUpperCase())).toBe(anna);
    expect(await lookups.resolve('requester', 'ABERG')).toBe(anna);
    expect(await lookups.resolve('requester', 'anna berg')).toBe(anna);
    expect(await lookups.resolve('assignee', 'tech')).toBe(userId('tech'));
    expect(await lookups.resolve('assignee', 'Omar')).toBe(userId('ohaddad'));
    // As tkt show and get_ticket print a person: by the username, when the name is that user's.
    expect(await lookups.resolve('requester', 'Anna Berg (aberg)')).toBe(anna);
    expect(await lookups.resolve('requester', ' anna berg(ABERG) ')).toBe(anna);
    expect(await lookups.resolve('assignee', 'Omar Haddad (ohaddad)')).toBe(userId('ohaddad'));
    expect((await usageError(lookups.resolve('requester', 'Omar Haddad (aberg)'))).message).toBe('unknown requester "Omar Haddad (aberg)"');
    const notATechnician = await usageError(lookups.resolve('assignee', 'aberg'));
    expect(notATechnician.message).toBe('unknown assignee "aberg"');
  });

  it('turns @me into the logged-in user', async () => {
    const lookups = createLookups((await h.context()).ctx);
    expect(await lookups.resolve('assignee', '@me')).toBe(userId('admin'));
    expect(await lookups.resolve('requester', '@ME')).toBe(userId('admin'));
  });

  it('refuses @me when the token does not say who the user is', async () => {
    const claims = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
    const run = await h.context({ env: { TKT_TOKEN: `eyJhbGciOiJIUzI1NiJ9.${claims}.sig`, TKT_URL: h.sandbox.url } });
    const error = await usageError(createLookups(run.ctx).resolve('assignee', '@me'));
    expect(error.hint).toContain('instead of @me');
  });

  it('names the option as typed when it differs from the kind, and throws a LookupError', async () => {
    const lookups = createLookups((await h.context()).ctx);
    const unknown = await usageError(lookups.resolve('assignee', 'nosuch', { flag: '--by', noun: 'user' }));
    expect(unknown).toBeInstanceOf(LookupError);
    expect(unknown.message).toBe('unknown user "nosuch" for --by');
    const ambiguous = await usageError(lookups.resolve('requester', 'anna', { flag: '--as', noun: 'person' }));
    expect(ambiguous.message).toMatch(/^ambiguous person "anna" for --as: it matches 2$/);
    const invalid = await usageError(lookups.resolve('subcategory', '0', { flag: '--subcategory', noun: 'sub-category' }));
    expect(invalid.message).toBe('invalid sub-category "0" for --subcategory: expected a positive whole number');
    const tooLarge = await usageError(lookups.resolve('status', '9'.repeat(20)));
    expect(tooLarge.message).toBe(`invalid status "${'9'.repeat(20)}": out of range: IDs go up to ${Number.MAX_SAFE_INTEGER}`);
  });
});

describe('entries and nameOf', () => {
  it('names an ID, and says nothing for an unknown one', async () => {
    const lookups = createLookups((await h.context()).ctx);
    expect(await lookups.nameOf('status', 3)).toBe('On Hold');
    expect(await lookups.nameOf('site', '2')).toBe('Harbour Depot');
    expect(await lookups.nameOf('requester', userId('lwei'))).toBe('Li Wei');
    expect(await lookups.nameOf('site', 99)).toBeUndefined();
    const priorities = await lookups.entries('priority');
    expect(priorities.map((p) => p.name)).toEqual(['Low', 'Medium', 'High', 'Critical']);
    const requesters = await lookups.entries('requester');
    expect(requesters.find((r) => r.name === 'Anna Berg')?.aliases).toContain('aberg');
  });
});

describe('cache', () => {
  it('fetches only the source a kind needs, once per run', async () => {
    const lookups = createLookups((await h.context({ globals: { refresh: true } })).ctx);
    const before = lookupRequests();
    await lookups.resolve('site', 'remote');
    await lookups.resolve('status', 'open');
    expect(lookupRequests()).toEqual({ app: before.app + 1, metadata: before.metadata });
  });

  it('serves a second command from the cache, and --refresh refetches', async () => {
    await createLookups((await h.context({ globals: { refresh: true } })).ctx).resolve('requester', 'aberg');
    const afterFirst = lookupRequests();

    await createLookups((await h.context()).ctx).resolve('requester', 'alind');
    expect(lookupRequests()).toEqual(afterFirst);

    await createLookups((await h.context({ globals: { refresh: true } })).ctx).resolve('requester', 'alind');
    expect(lookupRequests()).toEqual({ ...afterFirst, metadata: afterFirst.metadata + 1 });
  });

  it("looks for a name the cached lists do not know once more in the service's: a status renamed since they were cached", async () => {
    await createLookups((await h.context({ globals: { refresh: true } })).ctx).entries('status');
    const status = h.sandbox.state.lookups.status.find((s) => s.status === 'Closed')!;
    status.status = 'Shipped';
    try {
      const before = lookupRequests();
      expect(await createLookups((await h.context()).ctx).resolve('status', 'shipped')).toBe(status.id);
      expect(lookupRequests()).toEqual({ ...before, app: before.app + 1 });
      // Still unknown once looked for again: refused, after one more look only.
      await usageError(createLookups((await h.context()).ctx).resolve('status', 'limbo'));
      expect(lookupRequests()).toEqual({ ...before, app: before.app + 2 });
    } finally {
      status.status = 'Closed';
    }
  });

  it('keeps the cache per base URL', async () => {
    await createLookups((await h.context({ globals: { refresh: true } })).ctx).entries('site');
    const other = await createHarness();
    try {
      other.sandbox.state.lookups.sites[0]!.title = 'Annex';
      // Same config folder and profile, another service: it gets its own cache entry.
      const run = await h.context({ env: { TKT_URL: other.sandbox.url, TKT_TOKEN: other.sandbox.issueToken('admin') } });
      expect(await createLookups(run.ctx).resolve('site', 'annex')).toBe(1);
      expect(Object.entries(other.sandbox.stats.byRoute).filter(([route]) => /appmetadata/i.test(route))).toEqual([[expect.any(String), 1]]);
      const before = lookupRequests();
      expect(await createLookups((await h.context()).ctx).resolve('site', 'head office')).toBe(1);
      expect(lookupRequests()).toEqual(before);
    } finally {
      await other.close();
    }
  });
});

describe('a lookup fetch that fails', () => {
  it('is not remembered: the same run asks again, and then succeeds', async () => {
    let refused = 0;
    const front = await startFrontServer(h, (req, res) => {
      if (!/appmetadata/i.test(req.url ?? '') || refused > 0) return false;
      refused += 1;
      // A 400 is not retried by the HTTP layer: the lookups see the failure.
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"try later"}');
      return true;
    });
    try {
      const run = await h.context({ globals: { refresh: true }, env: frontEnv(h, front) });
      const lookups = createLookups(run.ctx);
      await expect(lookups.resolve('site', 'head office')).rejects.toThrow(/400/);
      expect(await lookups.resolve('site', 'head office')).toBe(1);
      expect(refused).toBe(1);
    } finally {
      await front.close();
    }
  });
});

describe('a lookup cache that cannot be written', () => {
  it('still resolves the name, with a warning', async () => {
    const other = await createHarness();
    try {
      // A file where the cache folder should be: the cache write fails, even for root.
      writeFileSync(join(other.configDir, 'cache'), '');
      const run = await other.context();
      expect(await createLookups(run.ctx).resolve('site', 'head office')).toBe(1);
      expect(run.stderr()).toMatch(/^warning: lookups not cached: cannot write .*default\.json/m);
    } finally {
      await other.close();
    }
  });
});

describe('matchEntry', () => {
  const many: LookupEntry[] = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `Building ${String.fromCharCode(65 + (i % 26))}${i}`, aliases: [] }));

  it('lists only the closest candidates when there are many', () => {
    expect.assertions(3);
    try {
      matchEntry('site', 'Bilding A0', many);
    } catch (error) {
      const details = (error as UsageError).details;
      expect(details[0]).toBe('closest of 40:');
      expect(details.length).toBeLessThan(20);
      expect(details[1]).toContain('Building A0');
    }
  });

  it('treats the same entry matched twice as one match', () => {
    const entries: LookupEntry[] = [{ id: 'u1', name: 'Anna Berg', aliases: ['anna'] }];
    expect(matchEntry('requester', 'anna', entries).id).toBe('u1');
  });

  it('prefers an exact name to a longer one it is a prefix of', () => {
    const entries: LookupEntry[] = [
      { id: 1, name: 'Remote Annex', aliases: [] },
      { id: 2, name: 'Remote', aliases: [] },
    ];
    expect(matchEntry('site', 'REMOTE', entries).id).toBe(2);
    expect(() => matchEntry('site', 'rem', entries)).toThrow(/ambiguous site "rem"/);
  });

  it('refuses an empty value', () => {
    expect(() => matchEntry('site', '  ', [{ id: 1, name: 'Only', aliases: [] }])).toThrow(UsageError);
  });
});

describe('collectionsOf', () => {
  it('reads PascalCase collections and fields', () => {
    const collections = collectionsOf({
      Sites: [{ Id: 4, Title: 'Annex' }],
      Status: [{ ID: 9, Status: 'Waiting', StatusType: 2 }],
      SubCategories: [{ Id: 3, Name: 'Mail' }],
      Technicians: [{ Id: 'x-1', FullName: 'Tom Tech', UserName: 'tech' }],
    });
    expect(collections.site).toEqual([{ id: 4, name: 'Annex', aliases: [] }]);
    expect(collections.status).toEqual([{ id: 9, name: 'Waiting', aliases: [] }]);
    expect(collections.subcategory).toEqual([{ id: 3, name: 'Mail', aliases: [] }]);
    expect(collections.assignee).toEqual([{ id: 'x-1', name: 'Tom Tech', aliases: ['tech'], username: 'tech' }]);
    expect(collections.requester).toBeUndefined();
  });

  it('takes a person by e-mail where the user list of the service carries one (the sandbox list does not)', () => {
    const { requester } = collectionsOf({ Requesters: [{ Id: 'u-7', FullName: 'Anna Berg', UserName: 'aberg', Email: 'anna.berg@example.com' }] });
    expect(requester).toEqual([{ id: 'u-7', name: 'Anna Berg', aliases: ['aberg', 'anna.berg@example.com'], username: 'aberg' }]);
    expect(matchEntry('requester', 'Anna.Berg@example.com', requester!).id).toBe('u-7');
  });
});

describe('kindsRefusedBy', () => {
  const refusal = (status: number, ...serverMessages: string[]) => new ApiError({ status, method: 'POST', url: 'u', body: '', serverMessages });

  it('names the lookup kinds whose form field a 400 of the service names, however deep the cause', () => {
    expect(kindsRefusedBy(refusal(400, 'Invalid SiteId: 9 does not exist.'))).toEqual(['site']);
    expect(kindsRefusedBy(refusal(400, 'AssignedUser 7 is not a technician.'))).toEqual(['assignee']);
    expect(kindsRefusedBy(refusal(400, 'Requester "j.smith" was not found.'))).toEqual(['requester']);
    expect(kindsRefusedBy(new InDoubtError('#4 may have changed', { cause: refusal(400, 'invalid departmentid') }))).toEqual(['department']);
  });

  it('names none for another status, a message naming no looked-up field, or no service error', () => {
    expect(kindsRefusedBy(refusal(500, 'Invalid SiteId: 9 does not exist.'))).toEqual([]);
    expect(kindsRefusedBy(refusal(400, 'Ticket 42 was not found.'))).toEqual([]);
    expect(kindsRefusedBy(refusal(400, 'Invalid SiteIdentifier'))).toEqual([]);
    expect(kindsRefusedBy(new UsageError('SiteId'))).toEqual([]);
  });
});
