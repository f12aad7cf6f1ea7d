#!/usr/bin/env node
// Peak memory of `tkt list --all --json` over 20,000 sandbox tickets: --all must stream
// pages to stdout instead of holding every ticket.
//
// Usage: npm run build && node bench/list-all-memory.mjs [--tickets N] [--limit N]
// Starts `tkt sandbox --seed-tickets N --port 0` itself, or uses SANDBOX_URL when set
// (an already running sandbox with the demo logins). Loopback only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, login, megabytes, requireBuild, runChild, startSandbox } from './lib.mjs';

const { values } = parseArgs({ options: { tickets: { type: 'string', default: '20000' }, limit: { type: 'string' } } });

requireBuild();
const configDir = mkdtempSync(join(tmpdir(), 'tkt-bench-'));
const sandbox = process.env.SANDBOX_URL ? { url: process.env.SANDBOX_URL, stop: async () => {} } : await startSandbox(['--seed-tickets', values.tickets]);
try {
  const { token } = await login(sandbox.url);
  const env = { ...process.env, TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir };
  const limitArgs = values.limit ? ['--page', '1', '--limit', values.limit] : [];
  let bytes = 0;
  let items = 0;
  const result = await runChild(process.execPath, [bin, 'list', '--all', '--json', '--view', 'all-tickets', ...limitArgs], {
    env,
    measureRss: true,
    onStdout: (chunk) => {
      bytes += chunk.length;
      // Each array element starts on a line indented by two spaces with "{".
      items += chunk.toString('utf8').match(/^ {2}\{$/gm)?.length ?? 0;
    },
  });
  if (result.code !== 0) throw new Error(`tkt exited ${result.code}: ${result.stderr.slice(-2000)}`);
  console.log(`tkt list --all --json: ${items} tickets, ${(bytes / 1024 / 1024).toFixed(1)} MB of JSON`);
  console.log(`  wall time: ${result.seconds.toFixed(2)} s`);
  console.log(`  peak RSS:  ${megabytes(result.peakKb)}`);
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
