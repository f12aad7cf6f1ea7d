import { createServer } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { run } from '../../src/commands/sandbox.js';
import { ExitCode } from '../../src/errors.js';
import { createHarness, type Harness } from '../helpers/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

test('tkt sandbox prints its URL and the demo logins, serves until aborted, then stops', async () => {
  harness = await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context();
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: '5' }, ctx);
  await waitFor(() => stdout().includes('Press Ctrl-C'));
  const url = /listening on (http:\/\/\S+)/.exec(stdout())?.[1] ?? '';
  for (const login of ['admin', 'tech', 'private', 'viewer']) expect(stdout()).toMatch(new RegExp(`^  ${login}\\s+password ${login}\\b`, 'm'));
  const auth = await fetch(`${url}/api/Users/authenticate`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: 'viewer', Password: 'viewer', RememberMe: false, Domain: '' }),
  });
  expect(auth.status).toBe(200);
  abort.abort();
  await running;
  await expect(fetch(`${url}/api/Users/authenticate`, { method: 'POST' })).rejects.toThrow();
});

test('--json prints one JSON document with the URL and logins', async () => {
  harness = await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context({ globals: { json: true } });
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: undefined }, ctx);
  await waitFor(() => stdout().endsWith('\n'));
  abort.abort();
  await running;
  const printed = JSON.parse(stdout());
  expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(printed.demoLogins).toHaveLength(4);
});

test('a malformed port is a usage error; a port in use says so', async () => {
  harness = await createHarness({ login: false });
  const { ctx } = await harness.context();
  await expect(run({ port: 'eighty', host: '127.0.0.1', data: undefined, seedTickets: undefined }, ctx)).rejects.toMatchObject({ exitCode: ExitCode.usage });
  await expect(run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: '-3' }, ctx)).rejects.toMatchObject({ exitCode: ExitCode.usage });
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    await expect(run({ port: String(port), host: '127.0.0.1', data: undefined, seedTickets: undefined }, ctx)).rejects.toMatchObject({
      exitCode: ExitCode.failed, message: expect.stringMatching(/in use/),
    });
  } finally {
    blocker.close();
  }
});
