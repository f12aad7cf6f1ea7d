// A profile whose service is not running (a closed port on 127.0.0.1): every command whose request
// is refused says the same thing to check, as login does, naming the profile whose URL it is.
import { beforeAll, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { startServer } from '../api/server.js';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

let stopped: string;
beforeAll(async () => {
  const server = await startServer(() => {});
  await server.close();
  stopped = server.url;
  const tech = h.sandbox.demoLogins.find((login) => login.username === 'tech')!;
  const config = createConfigStore(h.configDir);
  await config.saveProfile('prod', { url: stopped });
  await config.writeToken('prod', {
    token: h.sandbox.issueToken('tech'),
    url: stopped,
    userId: tech.userId,
    username: 'tech',
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  });
});

const hintFor = (host: string, url: string) => `hint: nothing answers at ${host}: check ${url}, and that the service (or "tkt sandbox") is running there`;

describe('a service that refuses the connection', () => {
  it.each([[['list']], [['show', '1031']], [['status']], [['metadata', '--collection', 'status']], [['watch', '--once']]])(
    'tkt --profile prod %s: the error line as it was, then the hint naming the profile',
    async (argv) => {
      const result = await h.cli(['--profile', 'prod', ...argv]);
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(new RegExp(`^error: connection refused: (GET|POST) ${stopped}/api/`));
      expect(lines.at(-1)).toBe(hintFor(new URL(stopped).host, "profile prod's URL"));
    },
  );

  it("TKT_PROFILE names the profile as --profile does; --url is no profile's URL", async () => {
    const fromEnv = await h.cli(['list'], { env: { TKT_PROFILE: 'prod' } });
    expect(fromEnv.stderr).toContain(`\n${hintFor(new URL(stopped).host, "profile prod's URL")}\n`);
    const typed = await h.cli(['list', '--url', stopped], { env: { TKT_TOKEN: h.sandbox.issueToken('tech') } });
    expect(typed.stderr).toContain(`\n${hintFor(new URL(stopped).host, 'the URL')}\n`);
  });

  it('a run of several IDs stopped by it says the same first, then what to do once it answers', async () => {
    const result = await h.cli(['--profile', 'prod', 'close', '1031', '1030', '--concurrency', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `\n${hintFor(new URL(stopped).host, "profile prod's URL")}; the service could not be reached, so every other ID would fail too: once it can be, run again for the IDs not done, listed above\n`,
    );
  });
});
