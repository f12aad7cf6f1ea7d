import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { run, type SandboxCommandOptions } from '../../src/commands/sandbox.js';
import { ExitCode, InterruptedError } from '../../src/errors.js';
import { createHarness, type Harness } from '../helpers/harness.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Runs `tkt sandbox` through its run() until stop() aborts it; resolves once it printed its URL. */
async function runSandbox(options: Partial<SandboxCommandOptions>): Promise<{ url: string; stop(): Promise<void> }> {
  harness ??= await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context({ globals: { json: true } });
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: undefined, ...options }, ctx);
  await Promise.race([waitFor(() => stdout().endsWith('\n')), running]);
  const { url } = JSON.parse(stdout()) as { url: string };
  return {
    url,
    async stop() {
      abort.abort();
      await expect(running).rejects.toBeInstanceOf(InterruptedError);
    },
  };
}

async function login(url: string): Promise<string> {
  const auth = await fetch(`${url}/api/Users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'admin', Password: 'admin', RememberMe: false, Domain: '' }),
  });
  expect(auth.status).toBe(200);
  return ((await auth.json()) as { Token: string }).Token;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function ipv6Loopback(): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
}

test('tkt sandbox prints its URL and the demo logins, serves until aborted, then stops', async () => {
  harness = await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context();
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: '5' }, ctx);
  await waitFor(() => stdout().includes('Press Ctrl-C'));
  const url = /listening on (http:\/\/\S+)/.exec(stdout())?.[1] ?? '';
  for (const login of ['admin', 'tech', 'private', 'viewer']) expect(stdout()).toMatch(new RegExp(`^  ${login}\\s+password ${login}\\b`, 'm'));
  const auth = await fetch(`${url}/api/Users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'viewer', Password: 'viewer', RememberMe: false, Domain: '' }),
  });
  expect(auth.status).toBe(200);
  abort.abort();
  // Stopped by a signal, as docker run in the foreground: exit 130 or 143 (docs/cli.md section 5), once closed.
  await expect(running).rejects.toBeInstanceOf(InterruptedError);
  await expect(fetch(`${url}/api/Users/authenticate`, { method: 'POST' })).rejects.toThrow();
});

test('at a terminal, what follows Ctrl-C (the error line) starts on a line of its own, not after the echoed ^C', async () => {
  harness = await createHarness({ login: false });
  const { ctx, stdout, stderr, abort } = await harness.context({ tty: true });
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: undefined }, ctx);
  await waitFor(() => stdout().includes('Press Ctrl-C'));
  abort.abort('SIGINT');
  await expect(running).rejects.toBeInstanceOf(InterruptedError);
  expect(stderr()).toBe('\n');
});

test.each([
  ['SIGINT', 130, 'error: interrupted\n'],
  ['SIGTERM', 143, 'error: stopped by SIGTERM\n'],
] as const)('the built tkt sandbox stopped by %s exits %i, saying so on stderr', async (signal, code, stderr) => {
  const configDir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-signal-'));
  try {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '-q'], {
      env: { PATH: process.env.PATH ?? '', TKT_CONFIG_DIR: configDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.endsWith('\n')) resolve();
      }),
    );
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(err).toBe(stderr);
    await expect(fetch(`${out.trim()}/api/Users/authenticate`, { method: 'POST' })).rejects.toThrow();
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
});

test("the banner's login line is the README quick start's, with the sandbox's URL", async () => {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const quickStart = /^## Quick start\n[\s\S]*?^tkt login --url http:\/\/127\.0\.0\.1:8642 (.*?) +#/m.exec(readme)?.[1];
  expect(quickStart).toBe('-u tech');
  harness = await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context();
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: undefined }, ctx);
  await waitFor(() => stdout().includes('Press Ctrl-C'));
  abort.abort();
  await expect(running).rejects.toBeInstanceOf(InterruptedError);
  const url = /listening on (http:\/\/\S+)/.exec(stdout())?.[1] ?? '';
  expect(stdout()).toContain(`\nTry: tkt login --url ${url} ${quickStart}\n`);
});

test("on every interface (--host 0.0.0.0), the banner's login line names a URL tkt logs in to: loopback's", async () => {
  harness = await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context();
  const running = run({ port: '0', host: '0.0.0.0', data: undefined, seedTickets: undefined }, ctx);
  await waitFor(() => stdout().includes('Press Ctrl-C'));
  const port = /listening on http:\/\/0\.0\.0\.0:(\d+)/.exec(stdout())?.[1];
  expect(port).toBeDefined();
  expect(stdout()).toContain(`\nTry: tkt login --url http://127.0.0.1:${port} -u tech\n`);
  // Run as shown, it logs in.
  const login = await harness.cli(['login', '--url', `http://127.0.0.1:${port}`, '-u', 'tech', '--password-stdin'], { stdin: 'tech\n' });
  abort.abort();
  await expect(running).rejects.toBeInstanceOf(InterruptedError);
  expect(login.code).toBe(0);
});

test('--json prints one JSON document with the URL and logins', async () => {
  harness = await createHarness({ login: false });
  const { ctx, stdout, abort } = await harness.context({ globals: { json: true } });
  const running = run({ port: '0', host: '127.0.0.1', data: undefined, seedTickets: undefined }, ctx);
  await waitFor(() => stdout().endsWith('\n'));
  abort.abort();
  await expect(running).rejects.toBeInstanceOf(InterruptedError);
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
      exitCode: ExitCode.failed,
      message: expect.stringMatching(/in use/),
    });
  } finally {
    blocker.close();
  }
});

test('--data FILE: a ticket created through one run is there after a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-command-'));
  try {
    const data = join(dir, 'state.json');
    const first = await runSandbox({ data });
    const token = await login(first.url);
    const form = new FormData();
    for (const [name, value] of Object.entries({ Title: 'Kept across restarts', Description: 'd', Requester: 'aberg' })) form.append(name, value);
    const created = await fetch(`${first.url}/api/TicketsApi/new`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await first.stop();
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.uploads']);

    const second = await runSandbox({ data });
    try {
      // The token too survives: the signing secret is part of the saved state.
      const reloaded = await fetch(`${second.url}/api/TicketsApi/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(reloaded.status).toBe(200);
      expect(await reloaded.json()).toMatchObject({ id, title: 'Kept across restarts', source: 'Api' });
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--data DIR is a usage error (exit 2) naming the directory; nothing is written next to it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-command-'));
  try {
    harness = await createHarness({ login: false });
    const { code, stderr } = await harness.cli(['sandbox', '--port', '0', '--data', dir]);
    expect(code).toBe(ExitCode.usage);
    expect(stderr).toBe(
      `error: --data ${dir} is a directory: give the path of a file for the sandbox's state\nhint: for example --data ${join(dir, 'sandbox.json')}\n`,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(`${dir}.uploads`)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an empty --data is a usage error (exit 2), and nothing is written in the current folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-command-'));
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    harness = await createHarness({ login: false });
    for (const [empty, error] of [
      ['', 'error: --data is empty\n'],
      [' ', 'error: --data is empty (only whitespace)\n'],
    ]) {
      const { code, stderr } = await harness.cli(['sandbox', '--port', '0', '--data', empty!]);
      expect(code).toBe(ExitCode.usage);
      expect(stderr).toBe(error);
    }
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});

const NOT_SANDBOX_DATA: [string, string][] = [
  ['half a JSON document', '{"secret": "s", "users": ['],
  ['JSON of something else', '{"name": "my-package", "version": "1.0.0"}'],
];
for (const [what, content] of NOT_SANDBOX_DATA) {
  test(`--data FILE holding ${what} names the file and says how to start afresh; the file is left as it was`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-command-'));
    try {
      const data = join(dir, 'state.json');
      writeFileSync(data, content);
      harness = await createHarness({ login: false });
      const { code, stderr } = await harness.cli(['sandbox', '--port', '0', '--data', data]);
      expect(code).toBe(ExitCode.failed);
      const [error, hint, ...rest] = stderr.split('\n');
      expect(error).toMatch(/^error: .+ is not sandbox data \(.+\)$/);
      expect(error).toContain(data);
      expect(hint).toBe(`hint: move it away or delete it to start afresh with the demo data, or give another --data file`);
      expect(rest).toEqual(['']);
      expect(readFileSync(data, 'utf8')).toBe(content);
      expect(readdirSync(dir)).toEqual(['state.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('--data FILE that is empty (made by mktemp) starts with the demo data and keeps it there', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-command-'));
  try {
    const data = join(dir, 'state.json');
    writeFileSync(data, '');
    const sandbox = await runSandbox({ data });
    await login(sandbox.url);
    await sandbox.stop();
    const saved = JSON.parse(readFileSync(data, 'utf8')) as { users: { username: string }[] };
    expect(saved.users.map((u) => u.username)).toContain('tech');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Linux routes all of 127.0.0.0/8 to loopback; elsewhere 127.0.0.2 may not be bindable.
test.skipIf(process.platform !== 'linux')('--host 127.0.0.2 listens there only', async () => {
  const sandbox = await runSandbox({ host: '127.0.0.2' });
  try {
    const url = new URL(sandbox.url);
    expect(url.hostname).toBe('127.0.0.2');
    await login(sandbox.url);
    expect(await accepts('127.0.0.1', Number(url.port))).toBe(false);
  } finally {
    await sandbox.stop();
  }
});

test.skipIf(!(await ipv6Loopback()))('--host ::1 listens on IPv6 loopback and prints a bracketed URL', async () => {
  const sandbox = await runSandbox({ host: '::1' });
  try {
    expect(sandbox.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    await login(sandbox.url);
    expect(await accepts('127.0.0.1', Number(new URL(sandbox.url).port))).toBe(false);
  } finally {
    await sandbox.stop();
  }
});
