// A client we did not write: the official MCP Inspector's CLI mode lists tkt mcp's tools and
// calls list_tickets against the sandbox.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';
import { childEnv } from './mcp-process.js';

const run = promisify(execFile);
const inspectorBuild = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build');

describe('the MCP Inspector CLI against tkt mcp', () => {
  let h: Harness;
  useHarness({ login: 'tech' }, (harness) => (h = harness));
  beforeAll(ensureBuilt, 120_000);

  // The Inspector looks for its package.json relative to the working directory: run it from its build folder.
  const inspect = async (...args: string[]) =>
    JSON.parse(
      (
        await run(process.execPath, ['index.js', process.execPath, BIN, 'mcp', '--url', h.sandbox.url, ...args], {
          cwd: inspectorBuild,
          env: childEnv({ TKT_CONFIG_DIR: h.configDir }),
        })
      ).stdout,
    ) as Record<string, unknown>;

  it('lists the read tools and calls list_tickets', async () => {
    const listed = (await inspect('--method', 'tools/list')) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(['list_tickets', 'get_ticket', 'my_queue', 'lookups']);
    const called = (await inspect('--method', 'tools/call', '--tool-name', 'list_tickets', '--tool-arg', 'limit=3')) as {
      structuredContent: { tickets: { id: number; title: string }[] };
    };
    expect(called.structuredContent.tickets).toHaveLength(3);
    for (const ticket of called.structuredContent.tickets) expect(h.sandbox.state.tickets.find((t) => t.id === ticket.id)?.title).toBe(ticket.title);
  });
});
