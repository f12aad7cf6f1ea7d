#!/usr/bin/env node
// Uploads must stream: peak RSS of `tkt attach ID FILE` with a 1 GB file against a 1 MB one, and
// of the sandbox (its own child process) receiving each. Both must stay flat: the 1 GB case at
// most 100 MB above the 1 MB case. The 1 GB source file is sparse (truncate), the sandbox stores a
// real copy under --data's upload folder in a temp dir; both are removed afterwards.
//
//   npm run build && node bench/attach-memory.mjs
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, login, megabytes, peakRssKb, requireBuild, runChild, startSandbox } from './lib.mjs';

const MB = 1024 * 1024;
const MAX_GROWTH_KB = 100 * 1024;
const CASES = [
  ['1 MB', MB],
  ['1 GB', 1024 * MB],
];

async function firstTicketId(url, token) {
  const response = await fetch(`${url}/api/TicketsApi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ length: 1 }),
  });
  const [item] = await response.json();
  return item.ticketId;
}

/** Attaches a `size`-byte .log file to a ticket of a fresh sandbox; resolves with both peaks. */
async function measure(dir, label, size) {
  const file = join(dir, `upload-${size}.log`);
  await writeFile(file, '');
  await truncate(file, size);
  const dataFile = join(dir, `state-${size}.json`);
  const sandbox = await startSandbox(['--data', dataFile]);
  try {
    const { token } = await login(sandbox.url);
    const env = { ...process.env, TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: dir, NO_COLOR: '1' };
    const ticketId = await firstTicketId(sandbox.url, token);
    const result = await runChild(process.execPath, [bin, 'attach', String(ticketId), file], { env, measureRss: true });
    if (result.code !== 0) throw new Error(`tkt attach exited ${result.code}: ${result.stderr.slice(-2000)}`);
    const sandboxPeakKb = peakRssKb(sandbox.child.pid);
    // It was really stored, whole: the only upload of this size in the sandbox's folder.
    const uploads = `${dataFile}.uploads`;
    const stored = readdirSync(uploads).filter((name) => statSync(join(uploads, name)).size === size);
    if (stored.length !== 1) throw new Error(`the sandbox did not store the ${label} upload`);
    return { label, seconds: result.seconds, tktPeakKb: result.peakKb, sandboxPeakKb };
  } finally {
    await sandbox.stop();
    await rm(file, { force: true });
  }
}

requireBuild();
const dir = await mkdtemp(join(tmpdir(), 'tkt-bench-attach-'));
try {
  const results = [];
  for (const [label, size] of CASES) results.push(await measure(dir, label, size));
  for (const r of results) {
    console.log(`attach ${r.label}: ${r.seconds.toFixed(2)} s; peak RSS tkt ${megabytes(r.tktPeakKb)}, sandbox ${megabytes(r.sandboxPeakKb)}`);
  }
  const [first, last] = [results[0], results[results.length - 1]];
  const tktGrowth = last.tktPeakKb - first.tktPeakKb;
  const sandboxGrowth = last.sandboxPeakKb - first.sandboxPeakKb;
  const flat = tktGrowth < MAX_GROWTH_KB && sandboxGrowth < MAX_GROWTH_KB;
  console.log(
    `growth 1 MB -> 1 GB: tkt ${megabytes(tktGrowth)}, sandbox ${megabytes(sandboxGrowth)} (limit +${megabytes(MAX_GROWTH_KB)}) ${flat ? 'OK' : 'NOT FLAT'}`,
  );
  process.exitCode = flat ? 0 : 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
