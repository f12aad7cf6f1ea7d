// Load check of the sandbox: mixed reads over loopback, bounded in count and time.
// Targets: 2,000 requests/second of mixed reads; a list page under 50 ms with 20,000 tickets.
//
//   npm run build && node bench/sandbox-load.mjs
//       spawns `node bin/tkt.js sandbox --port 0 --seed-tickets 20000` and stops it afterwards
//   SANDBOX_URL=http://127.0.0.1:8642 node bench/sandbox-load.mjs
//       uses a sandbox that is already running (it must have the demo login admin/admin)
//
// Options (environment): BENCH_REQUESTS (default 20000), BENCH_SECONDS (default 15), BENCH_CONCURRENCY (default 32).
import { Pool } from 'undici';
import { login, requireBuild, startSandbox } from './lib.mjs';

const maxRequests = Number(process.env.BENCH_REQUESTS ?? 20_000);
const maxSeconds = Number(process.env.BENCH_SECONDS ?? 15);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

if (!process.env.SANDBOX_URL) requireBuild();
const sandbox = process.env.SANDBOX_URL ? { url: process.env.SANDBOX_URL, stop: async () => {} } : await startSandbox(['--seed-tickets', '20000']);
const base = new URL(sandbox.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) {
  await sandbox.stop();
  throw new Error(`refusing to load ${base.hostname}: this bench only talks to loopback`);
}
const pool = new Pool(base.origin, { connections: concurrency, pipelining: 1 });

async function call(method, path, body) {
  const { statusCode, body: responseBody } = await pool.request({
    method,
    path,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await responseBody.text();
  if (statusCode >= 400) throw new Error(`${method} ${path}: HTTP ${statusCode} ${text.slice(0, 200)}`);
  return text === '' ? undefined : JSON.parse(text);
}

let token;
try {
  ({ token } = await login(sandbox.url));
  const firstPage = await call('POST', '/api/TicketsApi', { length: 100 });
  const ids = firstPage.map((t) => t.ticketId);
  const listTypes = ['AllTickets', 'MyOpenTickets', 'OverdueTickets', 'UnassignedTickets', 'CompletedTickets', 'AllMyGroups'];
  const searches = [undefined, 'laptop', 'critical', 'anna'];
  // The mix: half list pages (deep pages too), the rest detail and lookup reads.
  const mix = [
    (i) => ({
      list: true,
      run: () =>
        call('POST', '/api/TicketsApi', { listType: listTypes[i % listTypes.length], page: 1 + (i % 50), length: 10, search: searches[i % searches.length] }),
    }),
    (i) => ({ list: false, run: () => call('GET', `/api/TicketsApi/${ids[i % ids.length]}`) }),
    (i) => ({ list: true, run: () => call('POST', '/api/TicketsApi', { page: 1 + (i % 200), length: 25 }) }),
    () => ({ list: false, run: () => call('GET', '/api/TicketsApi/appmetadata') }),
    (i) => ({ list: false, run: () => call('GET', `/api/TicketsApi/metadata/${ids[i % ids.length]}`) }),
    (i) => ({ list: true, run: () => call('POST', '/api/TicketsApi', { search: String(ids[i % ids.length]).slice(0, 3), filterBy: 'TicketId' }) }),
  ];

  const listLatencies = [];
  let issued = 0;
  let completed = 0;
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  async function worker() {
    while (issued < maxRequests && performance.now() < deadline) {
      const i = issued++;
      const job = mix[i % mix.length](i);
      const t0 = performance.now();
      await job.run();
      if (job.list) listLatencies.push(performance.now() - t0);
      completed++;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  listLatencies.sort((a, b) => a - b);

  // A single list page with nothing else in flight: the latency one user sees.
  const alone = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await call('POST', '/api/TicketsApi', { listType: listTypes[i % listTypes.length], page: 1 + i, length: 25, search: searches[i % searches.length] });
    alone.push(performance.now() - t0);
  }
  alone.sort((a, b) => a - b);

  const rps = completed / seconds;
  console.log(`mixed reads: ${completed} requests in ${seconds.toFixed(2)} s = ${rps.toFixed(0)} req/s (concurrency ${concurrency}; target 2000)`);
  console.log(`list page under load: p50 ${percentile(listLatencies, 50).toFixed(1)} ms, p95 ${percentile(listLatencies, 95).toFixed(1)} ms`);
  console.log(`list page alone:      p50 ${percentile(alone, 50).toFixed(1)} ms, p95 ${percentile(alone, 95).toFixed(1)} ms (target < 50)`);
  process.exitCode = rps >= 2000 && percentile(alone, 95) < 50 ? 0 : 1;
} finally {
  await pool.close();
  await sandbox.stop();
}
