// What the bundle holds for multipart bodies (README, Uploads): file parts are typed from
// src/api/content-types.ts, so no MIME database is bundled, let alone loaded with every upload.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const metaFile = fileURLToPath(new URL('../../build/meta.json', import.meta.url));

function bundledInputs(): string[] {
  if (!existsSync(metaFile)) throw new Error(`${path.basename(metaFile)} is missing: run \`npm run build\` (npm test does) first`);
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  return Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
}

describe('the multipart code in the bundle', () => {
  it('holds our table of content types and no MIME database', () => {
    const inputs = bundledInputs();
    expect(inputs).toContain('src/api/content-types.ts');
    expect(inputs.filter((input) => /(^|\/)node_modules\/(mime-db|mime-types)\//.test(input))).toEqual([]);
  });
});
