import { describe, expect, test } from 'vitest';
import { openSandbox } from './helpers.js';

function authenticate(Email: string, Password: string, Domain = '') {
  return { json: { Email, Password, RememberMe: false, Domain } };
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

describe('POST /api/Users/authenticate', () => {
  test('answers 200 with the PascalCase user and a 7-day HS256 token carrying permission claims', async () => {
    const clock = new Date('2026-03-01T10:00:00Z');
    const { request, userId } = await openSandbox({ now: () => clock });
    const reply = await request('POST', '/api/Users/authenticate', authenticate('tech', 'tech'));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ Id: userId('tech'), Username: 'tech', FirstName: 'Tom', LastName: 'Tech' });
    expect(typeof reply.body.Avatar).toBe('string');
    expect(typeof reply.body.UserSettings).toBe('object');
    const claims = claimsOf(reply.body.Token);
    expect(claims).toMatchObject({ sub: userId('tech'), unique_name: 'tech', exp: Date.parse('2026-03-08T10:00:00Z') / 1000 });
    expect(claims.permissions).toContain('Tickets.Pickup');
    expect(claims.permissions).not.toContain('Tickets.Delete');
    // The token works for a later request.
    const list = await request('POST', '/api/TicketsApi', { token: reply.body.Token, json: {} });
    expect(list.status).toBe(200);
  });

  test('every demo login has an e-mail and logs in', async () => {
    const { sandbox, request } = await openSandbox();
    expect(sandbox.demoLogins.map((l) => l.username).sort()).toEqual(['admin', 'private', 'tech', 'viewer']);
    for (const login of sandbox.demoLogins) {
      expect(sandbox.state.users.find((u) => u.id === login.userId)?.email).toMatch(/@/);
      expect((await request('POST', '/api/Users/authenticate', authenticate(login.username, login.password))).status).toBe(200);
    }
  });

  test('wrong password, unknown user and an unknown directory domain are 401 with a message', async () => {
    const { request } = await openSandbox();
    for (const attempt of [authenticate('admin', 'nope'), authenticate('ghost', 'x'), authenticate('admin', 'admin', 'CORP')]) {
      const reply = await request('POST', '/api/Users/authenticate', attempt);
      expect(reply.status).toBe(401);
      expect(reply.body.message).toMatch(/incorrect|domain/i);
    }
  });

  test('locks the account after the threshold of wrong passwords, until the lockout ends', async () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const { request } = await openSandbox({ now: () => clock, lockoutThreshold: 3, lockoutMs: 60_000 });
    expect((await request('POST', '/api/Users/authenticate', authenticate('tech', 'bad'))).body.message).toMatch(/incorrect/);
    await request('POST', '/api/Users/authenticate', authenticate('tech', 'bad'));
    const third = await request('POST', '/api/Users/authenticate', authenticate('tech', 'bad'));
    expect(third.status).toBe(401);
    expect(third.body.message).toMatch(/locked/i);
    const correctWhileLocked = await request('POST', '/api/Users/authenticate', authenticate('tech', 'tech'));
    expect(correctWhileLocked.status).toBe(401);
    expect(correctWhileLocked.body.message).toMatch(/locked/i);
    clock = new Date(clock.getTime() + 61_000);
    expect((await request('POST', '/api/Users/authenticate', authenticate('tech', 'tech'))).status).toBe(200);
  });
});

describe('bearer tokens', () => {
  test('missing, malformed, wrongly signed and expired tokens are 401', async () => {
    const { sandbox, request } = await openSandbox();
    const good = sandbox.issueToken('admin');
    const [header, payload] = good.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    expect((await request('GET', '/api/TicketsApi/appmetadata')).status).toBe(401);
    expect((await request('GET', '/api/TicketsApi/appmetadata', { token: 'garbage' })).status).toBe(401);
    expect((await request('GET', '/api/TicketsApi/appmetadata', { token: forged })).status).toBe(401);
    expect((await request('GET', '/api/TicketsApi/appmetadata', { token: sandbox.issueToken('admin', { expiresInSeconds: -1 }) })).status).toBe(401);
    expect((await request('GET', '/api/TicketsApi/appmetadata', { token: good })).status).toBe(200);
  });

  test('a token expires after 7 days on the injected clock', async () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const { sandbox, request } = await openSandbox({ now: () => clock });
    const token = sandbox.issueToken('viewer');
    clock = new Date(clock.getTime() + 7 * 24 * 3600_000 - 1000);
    expect((await request('GET', '/api/TicketsApi/appmetadata', { token })).status).toBe(200);
    clock = new Date(clock.getTime() + 2000);
    expect((await request('GET', '/api/TicketsApi/appmetadata', { token })).status).toBe(401);
  });
});
