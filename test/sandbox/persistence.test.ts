import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { openSandbox, registerForm } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-test-'));
  dirs.push(dir);
  return dir;
}

test('with a data file, tickets, uploads and tokens survive a restart', async () => {
  const dataFile = join(tempDir(), 'state.json');
  const first = await openSandbox({ dataFile });
  const token = first.sandbox.issueToken('admin');
  const created = await first.request('POST', '/api/TicketsApi/register', {
    token,
    form: registerForm(first.userId('kmensah'), { Title: 'Survives restarts' }),
    files: [{ name: 'notes.txt', content: 'kept bytes' }],
  });
  expect(created.status).toBe(201);
  const demoCount = first.sandbox.state.tickets.length;
  await first.sandbox.close();
  // Written atomically: no temp file is left next to it.
  expect(readdirSync(join(dataFile, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([]);

  const second = await openSandbox({ dataFile, seedTickets: 50 });
  expect(second.sandbox.state.tickets).toHaveLength(demoCount);
  const reloaded = await second.request('GET', `/api/TicketsApi/${created.body.id}`, { token });
  expect(reloaded.status).toBe(200);
  expect(reloaded.body).toMatchObject({ title: 'Survives restarts', attachments: [{ fileName: 'notes.txt', size: 10 }] });
  const attachment = second.sandbox.state.attachments.find((a) => a.ticketId === created.body.id);
  expect(readFileSync(attachment?.path ?? '', 'utf8')).toBe('kept bytes');
  const next = await second.request('POST', '/api/TicketsApi/register', { token, form: registerForm(second.userId('kmensah')) });
  expect(next.body.id).toBe(created.body.id + 1);
  await second.sandbox.close();
  expect(JSON.parse(readFileSync(dataFile, 'utf8')).tickets).toHaveLength(demoCount + 1);
});

test('without a data file, the upload folder is removed on close', async () => {
  const sandbox = await startSandbox();
  const folder = sandbox.state.attachments[0]?.path.replace(/\/[^/]+$/, '') ?? '';
  expect(readdirSync(folder).length).toBeGreaterThan(0);
  await sandbox.close();
  expect(() => readdirSync(folder)).toThrow();
});

test('a large upload is streamed to disk intact', async () => {
  const { sandbox, request } = await openSandbox();
  const id = sandbox.state.tickets[0]?.id;
  const big = new Uint8Array(24 * 1024 * 1024);
  for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
  const reply = await request('POST', `/api/TicketsApi/addfiles/${id}`, { as: 'admin', files: [{ name: 'big.zip', content: big }] });
  expect(reply.status).toBe(200);
  const saved = sandbox.state.attachments.find((a) => a.id === reply.body.saved[0].id);
  expect(saved?.size).toBe(big.length);
  expect(saved?.sha256).toBe(createHash('sha256').update(big).digest('hex'));
});

test('a temp file left by a crash mid-save is removed at the next start', async () => {
  const dir = tempDir();
  const dataFile = join(dir, 'state.json');
  const first = await openSandbox({ dataFile });
  await first.sandbox.close();
  // What a SIGKILL between writing the temp file and renaming it leaves behind: named by the PID
  // of a process that has ended (a fixed number could be a live process of this machine's).
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(join(dir, `state.json.${deadPid}.tmp`), '{"half": ');

  const second = await openSandbox({ dataFile });
  await second.sandbox.close();
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});
