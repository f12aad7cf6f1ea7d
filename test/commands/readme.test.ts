// src/commands/README.md shows the shape of a command with a real one: the example must be that
// file as it is, or the README teaches a shape the code left behind.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('src/commands/README.md', () => {
  it('shows src/commands/pickup.ts exactly as it is', () => {
    const example = /```ts\n([\s\S]*?)```/.exec(read('src/commands/README.md'))?.[1];
    expect(example).toBe(read('src/commands/pickup.ts'));
  });
});

// A newcomer follows the Quick start (a login as tech, profile "default"), then copies snippets.
describe('README.md after its Quick start', () => {
  const readme = read('README.md');

  it("the assistants' config snippets start tkt mcp with the Quick start's profile", () => {
    const snippets = [...readme.matchAll(/```json\n(\{[^\n]*"args"[^\n]*\})\n```/g)].map(
      (match) => JSON.parse(match[1]!) as Record<string, Record<string, { args: string[] }>>,
    );
    expect(snippets.length).toBeGreaterThan(1);
    for (const snippet of snippets) {
      for (const server of Object.values(Object.values(snippet)[0]!)) expect(server.args).toEqual(['mcp']);
    }
  });

  it("an example the Quick start's login may not run says which permission it needs", () => {
    const deletes = readme.split('\n').filter((line) => /^tkt delete \d/.test(line));
    expect(deletes.length).toBeGreaterThan(0);
    for (const line of deletes) expect(line).toMatch(/# needs Tickets\.Delete/);
  });
});
