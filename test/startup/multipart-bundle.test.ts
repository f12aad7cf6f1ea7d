// What the bundle holds for multipart bodies (README, Uploads): src/api/upload.ts writes them and
// src/api/content-types.ts types the files, so no multipart library or MIME database is bundled,
// let alone loaded with every form.
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
  it('is our own writer and table of content types: no multipart library, no MIME database', () => {
    const inputs = bundledInputs();
    expect(inputs).toEqual(expect.arrayContaining(['src/api/upload.ts', 'src/api/content-types.ts']));
    const libraries = /(^|\/)node_modules\/(form-data|combined-stream|delayed-stream|asynckit|mime-db|mime-types)\//;
    expect(inputs.filter((input) => libraries.test(input))).toEqual([]);
  });
});
