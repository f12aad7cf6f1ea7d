import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOutgoing, isUpload } from '../../src/api/outgoing.js';
import { plans } from '../../src/api/plans.js';
import { fileUpload } from '../../src/api/upload-name.js';

describe('buildOutgoing', () => {
  it('sends a JSON body whole and traces it with its secrets replaced', async () => {
    const outgoing = await buildOutgoing(plans.authenticate({ Email: 'ann', Password: 'hunter2-long', RememberMe: true, Domain: '' }));
    expect(outgoing.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(outgoing.body as string)).toMatchObject({ Email: 'ann', Password: 'hunter2-long' });
    expect(outgoing.summary()).toBe(' json {"Email":"ann","Password":"***","RememberMe":true,"Domain":""}');
  });

  it('traces no more than the start of a long JSON body', async () => {
    const outgoing = await buildOutgoing(plans.listTickets({ search: 'x'.repeat(2000) }));
    expect((outgoing.body as string).length).toBeGreaterThan(2000);
    expect(outgoing.summary()).toBe(` json ${`{"search":"${'x'.repeat(2000)}`.slice(0, 500)}…`);
  });

  it('sends nothing for a plan without a body', async () => {
    const outgoing = await buildOutgoing(plans.getTicket(1));
    expect(outgoing).toMatchObject({ headers: {}, body: undefined });
    expect(outgoing.summary()).toBe('');
  });

  it('sends a form of fields as one text (written with the head), and one with files as an upload read from disk as it goes', async () => {
    const fields = await buildOutgoing(plans.register({ fields: { Title: 'Printer', Priority: 2 } }));
    expect(fields.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(typeof fields.body).toBe('string');
    expect(isUpload(fields.body)).toBe(false);
    expect(fields.summary()).toBe(' multipart [Title, Priority]');

    const dir = await mkdtemp(join(tmpdir(), 'tkt-outgoing-'));
    try {
      const file = join(dir, 'log.txt');
      await writeFile(file, 'a log');
      const upload = await buildOutgoing(plans.register({ fields: { Title: 'Printer' }, files: [file].map(fileUpload) }));
      expect(isUpload(upload.body)).toBe(true);
      // The part names as upload.ts gives them (the file's name with its part).
      expect(upload.summary()).toMatch(/^ multipart \[Title, Uploads\b.*\]$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
