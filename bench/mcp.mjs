#!/usr/bin/env node
// `tkt mcp`'s cost over the service itself: get_ticket through MCP (the SDK's Client over stdio
// to a warm `tkt mcp`) against the same GET sent directly (fetch, keep-alive), interleaved, the
// median of each; and the size of `tools/list` in tokens (characters / 4) per tool set.
// Target (README, Performance): get_ticket at most 1.2x the direct GET plus 5 ms.
//
// Usage: npm run build && node bench/mcp.mjs [--calls N] [--rounds N]
// Starts `tkt sandbox --port 0` itself. Loopback only; children run in a clean environment.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, cleanEnv, login, machineLine, median, requireBuild, startSandbox } from './lib.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200' }, rounds: { type: 'string', default: '7' } } });
const calls = Number(values.calls);

requireBuild();
const configDir = mkdtempSync(join(tmpdir(), 'tkt-bench-'));
const sandbox = await startSandbox();
const clients = [];
try {
  const { token } = await login(sandbox.url);
  const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir });
  const connect = async (args) => {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env }));
    clients.push(client);
    return client;
  };

  for (const args of [[], ['--write'], ['--write', '--allow-delete']]) {
    const client = await connect(args);
    const { tools } = await client.listTools();
    const chars = JSON.stringify({ tools }).length;
    console.log(`tools/list ${args.join(' ') || '(read-only)'}: ${tools.length} tools, ${chars} characters, ${Math.round(chars / 4)} tokens`);
  }

  const mcp = clients[0];
  const ids = [1001, 1005, 1013, 1020, 1030];
  const viaMcp = async () => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) {
      const result = await mcp.callTool({ name: 'get_ticket', arguments: { id: ids[i % ids.length] } });
      if (result.isError) throw new Error(result.content[0].text);
    }
    return (performance.now() - start) / calls;
  };
  const direct = async () => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) {
      const response = await fetch(`${sandbox.url}/api/TicketsApi/${ids[i % ids.length]}`, { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await response.json();
    }
    return (performance.now() - start) / calls;
  };
  // Warm both (lookups cached, connections open), then interleave.
  await viaMcp();
  await direct();
  const samples = { mcp: [], direct: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, run] of round % 2 === 0
      ? [
          ['mcp', viaMcp],
          ['direct', direct],
        ]
      : [
          ['direct', direct],
          ['mcp', viaMcp],
        ])
      samples[name].push(await run());
  }
  const [m, d] = [median(samples.mcp), median(samples.direct)];
  const target = d * 1.2 + 5;
  console.log(
    `get_ticket through MCP: median ${m.toFixed(2)} ms a call; the GET directly: ${d.toFixed(2)} ms (${(m / d).toFixed(2)}x); target at most ${target.toFixed(2)} ms: ${m <= target ? 'met' : 'MISSED'}`,
  );
  console.log(machineLine());
} finally {
  await Promise.allSettled(clients.map((client) => client.close()));
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
