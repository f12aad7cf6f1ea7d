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
