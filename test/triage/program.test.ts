// The program loop on a sandbox: update.ts's effects run and their results fed back, the screen
// told of each change, and the run's end.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Context } from '../../src/context/context.js';
import { pageInTriage } from '../../src/triage/pager.js';
import { startProgram, type TriageProgram } from '../../src/triage/program.js';
import type { TriageState } from '../../src/triage/state.js';
import { saveDrafts } from '../../src/triage/drafts.js';
import { start } from '../../src/triage/update.js';
import { standInEffectRunner } from '../helpers/effect-runner.js';
import { loginAs, type Harness } from '../helpers/harness.js';
import type { TestServer } from '../api/server.js';
import { routeCount, startFrontServer, ticketById, userId, useHarness } from '../helpers/sandbox-state.js';

const OPEN = 1;
const UPDATE = 'POST /api/TicketsApi/update/{id}';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

async function openProgram(env: Record<string, string> = {}): Promise<TriageProgram> {
  const { ctx } = await h.context({ tty: true, env });
  const perform = standInEffectRunner(ctx);
  return startProgram(start('MyOpenOrUnassigned', { columns: 80, rows: 24 }), perform);
}

/** The program's state once `test` passes it, as the screen would be told of it. */
const until = (program: TriageProgram, test: (state: TriageState) => boolean) =>
  new Promise<TriageState>((resolve) => {
    const check = () => {
      if (!test(program.snapshot())) return;
      unsubscribe();
      resolve(program.snapshot());
    };
    const unsubscribe = program.subscribe(check);
    check();
  });

describe('the triage program', () => {
  it("loads the view and the highlighted ticket's detail, acts on a key, and ends on q", async () => {
    const program = await openProgram();
    const loaded = await until(program, (state) => state.loading === undefined);
    const id = loaded.visible[0]!.id;
    await until(program, (state) => state.details.get(id)?.texts.has(80) === true);

    program.dispatch({ kind: 'key', input: 'p', key: {} });
    const done = await until(program, (state) => state.running === undefined && state.status?.tone === 'ok');
    expect(done.status?.text).toBe(`✓ picked up #${id}`);

    program.dispatch({ kind: 'key', input: 'q', key: {} });
    await expect(program.finished).resolves.toBe('quit');
  });

  it('leaves a ticket that already has the change alone on o and a, saying so as tkt reopen and tkt assign do', async () => {
    const program = await openProgram();
    const loaded = await until(program, (state) => state.loading === undefined);
    const id = loaded.visible[0]!.id;
    const ticket = ticketById(h, id);
    Object.assign(ticket, { ticketStatusId: OPEN, assignedUser: userId(h, 'tech') });
    const { updatedOn } = ticket;
    const updates = routeCount(h, UPDATE);
    const press = (input: string, key: Record<string, boolean> = {}) => program.dispatch({ kind: 'key', input, key });
    /** The status line once the action under way is done. */
    const said = async () => (await until(program, (state) => state.running === undefined && state.status !== undefined)).status?.text;

    press('o');
    expect(await said()).toBe(`✓ #${id} already open, nothing changed`);

    press('a');
    await until(program, (state) => state.overlay?.kind === 'picker');
    for (const letter of 'tom') press(letter);
    press('', { return: true });
    expect(await said()).toBe(`✓ #${id} already assigned to Tom Tech (tech), nothing changed`);

    expect(routeCount(h, UPDATE)).toBe(updates);
    expect(ticket.updatedOn).toBe(updatedOn);
    press('q');
    await program.finished;
  });

  it('reads the saved login again after a refusal and on R: a login made in another shell lets the screen go on', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'prod');
    const { ctx } = await h.context({ tty: true, globals: { profile: 'prod' } });
    const login = { shownProfile: 'prod', globals: ctx.globals, env: ctx.env };
    const program = startProgram(start('MyOpenOrUnassigned', { columns: 80, rows: 24 }, { login }), standInEffectRunner(ctx));
    const loaded = await until(program, (state) => state.loading === undefined);
    const id = loaded.visible[0]!.id;
    await until(program, (state) => state.details.get(id)?.texts.has(80) === true);
    const press = (input: string) => program.dispatch({ kind: 'key', input, key: {} });
    const said = async () => (await until(program, (state) => state.running === undefined && state.loading === undefined && state.status !== undefined)).status;

    // The service restarts with a new signing key: the token the screen holds is refused.
    const { secret } = h.sandbox.state;
    onTestFinished(() => void (h.sandbox.state.secret = secret));
    h.sandbox.state.secret = 'a new signing key';
    press('p');
    expect(await said()).toEqual({ text: `✗ picking up #${id}: not authenticated, HTTP 401; run "tkt login --profile prod"`, tone: 'error' });
    // `tkt login --profile prod` in another shell: the next key goes with the new token.
    await loginAs(h.sandbox, h.configDir, 'tech', 'prod');
    press('p');
    expect(await said()).toMatchObject({ text: expect.stringMatching(new RegExp(`^✓ (picked up #${id}|#${id} already assigned)`)), tone: 'ok' });

    // Again, with no refusal seen in between: R reads the login before the view.
    await until(program, (state) => state.details.get(id)?.texts.has(80) === true);
    h.sandbox.state.secret = 'another signing key';
    await loginAs(h.sandbox, h.configDir, 'tech', 'prod');
    press('R');
    expect(await said()).toEqual({ text: '✓ my-open-or-unassigned read again', tone: 'ok' });
    press('q');
    await program.finished;
  });

  it('follows a refusal met by Enter (the ticket read for the pager) with the login hint, as any other refusal', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'prod');
    const { ctx } = await h.context({ tty: true, globals: { profile: 'prod' } });
    const login = { shownProfile: 'prod', globals: ctx.globals, env: ctx.env };
    const paged: string[] = [];
    const perform = standInEffectRunner(ctx, { page: async (text) => void paged.push(text) });
    const program = startProgram(start('MyOpenOrUnassigned', { columns: 80, rows: 24 }, { login }), perform);
    const loaded = await until(program, (state) => state.loading === undefined);
    const second = loaded.visible[1]!.id;
    await until(program, (state) => state.details.get(loaded.visible[0]!.id)?.texts.has(80) === true);
    const press = (input: string, key: Record<string, boolean> = {}) => program.dispatch({ kind: 'key', input, key });

    // The token is refused from now on: the next ticket's detail is not read, so Enter reads it for the pager.
    const { secret } = h.sandbox.state;
    onTestFinished(() => void (h.sandbox.state.secret = secret));
    h.sandbox.state.secret = 'a new signing key';
    press('j');
    await until(program, (state) => state.failedRead?.id === second);
    press('', { return: true });
    const said = await until(program, (state) => state.status?.tone === 'error');
    expect(said.status?.text).toBe(`✗ show #${second}: not authenticated, HTTP 401; run "tkt login --profile prod"`);
    expect(paged).toEqual([]);
    press('q');
    await program.finished;
  });

  /** An executable `name` in a folder with a space in its name (`Program Files`), as Windows paths have. */
  async function spacedProgram(name: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'tkt-triage-spaced-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await mkdir(join(dir, 'Program Files'));
    const program = join(dir, 'Program Files', name);
    await writeFile(program, '#!/bin/sh\ncat > /dev/null\n');
    await chmod(program, 0o755);
    return program;
  }

  /** The first ticket's ID and the status line after `key` on it, on a program that pages with triage's pager. */
  async function statusAfter(ctx: Context, input: string, key: Record<string, boolean> = {}): Promise<[number, string | undefined]> {
    const perform = standInEffectRunner(ctx, { page: (text) => pageInTriage(ctx, text) });
    const program = startProgram(start('MyOpenOrUnassigned', { columns: 80, rows: 24 }), perform);
    const loaded = await until(program, (state) => state.loading === undefined);
    const id = loaded.visible[0]!.id;
    await until(program, (state) => state.details.get(id)?.texts.has(80) === true);
    program.dispatch({ kind: 'key', input, key });
    const said = await until(program, (state) => state.running === undefined && state.opening === undefined && state.status !== undefined);
    program.dispatch({ kind: 'key', input: 'q', key: {} });
    await program.finished;
    return [id, said.status?.text];
  }

  it('says how to quote a pager that is a path with spaces, given unquoted, where it was set (Enter), as tkt show does', async () => {
    const pager = await spacedProgram('pager.sh');
    const quoted = `'"${pager}"'`;
    const fromEnv = (await h.context({ tty: true, env: { PAGER: pager } })).ctx;
    const [id, said] = await statusAfter(fromEnv, '', { return: true });
    expect(said).toBe(
      `✗ show #${id}: the pager "${pager}" ($PAGER) could not be run; $PAGER is a path with spaces, which the shell splits: quote it: export PAGER=${quoted}`,
    );
    expect((await h.cli(['config', 'set', 'pager', pager])).code).toBe(0);
    onTestFinished(async () => void (await h.cli(['config', 'unset', 'pager'])));
    const saved = (await h.context({ tty: true, env: { PAGER: '' } })).ctx;
    expect((await statusAfter(saved, '', { return: true }))[1]).toBe(
      `✗ show #${id}: the pager "${pager}" ("tkt config get pager") could not be run; the pager setting is a path with spaces, which the shell splits: quote it: tkt config set pager ${quoted}`,
    );
  });

  it('says how to quote a $BROWSER that is a path with spaces, given unquoted (w), as tkt browse does', async () => {
    const browser = await spacedProgram('browser.sh');
    expect((await h.cli(['config', 'set', 'web-url', 'https://desk.example.com/t/{id}'])).code).toBe(0);
    onTestFinished(async () => void (await h.cli(['config', 'unset', 'web-url'])));
    const { ctx } = await h.context({ tty: true, env: { BROWSER: browser, PATH: process.env.PATH! } });
    const [id, said] = await statusAfter(ctx, 'w');
    expect(said).toBe(
      `no browser to open it: https://desk.example.com/t/${id}; $BROWSER is a path with spaces, which the shell splits: quote it: export BROWSER='"${browser}"'`,
    );
  });

  it('fails with the error of a first load that fails', async () => {
    h.sandbox.failNext('POST /api/TicketsApi', 500);
    const program = await openProgram();
    await expect(program.finished).rejects.toMatchObject({ status: 500 });
    expect(program.snapshot().ended).toBe(true);
  });

  describe('on a flaky link, an action whose answer was lost', () => {
    /** A server in front of the sandbox that passes `route`'s request on and cuts the connection once the service has answered it. */
    const cuttingAfterAnswer = (route: string) =>
      startFrontServer(h, (req, _res, body) => {
        if (req.method !== 'POST' || req.url !== route) return false;
        const headers = { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? 'application/json' };
        void fetch(`${h.sandbox.url}${route}`, { method: 'POST', headers, body }).then(() => req.socket.destroy());
        return true;
      });
    const openBehind = async (server: TestServer) => {
      onTestFinished(() => server.close());
      const program = await openProgram({ TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('tech') });
      const loaded = await until(program, (state) => state.loading === undefined);
      return { program, id: loaded.visible[0]!.id };
    };

    it('says a pickup is in doubt, never a failure, and shows the ticket as the service has it', async () => {
      const first = await openProgram();
      const id = (await until(first, (state) => state.loading === undefined)).visible[0]!.id;
      Object.assign(ticketById(h, id), { assignedUser: null });
      const { program } = await openBehind(await cuttingAfterAnswer(`/api/TicketsApi/pickup/${id}`));

      program.dispatch({ kind: 'key', input: 'p', key: {} });
      const over = await until(program, (state) => state.running === undefined && state.status?.text.includes(`#${id}`) === true);
      expect(over.status?.text).toBe(`? picking up #${id}: in doubt (it may have been carried out): check the ticket (Enter shows it) before picking up again`);
      // It was carried out: the row and the detail read again say so.
      expect(ticketById(h, id).assignedUser).toBe(userId(h, 'tech'));
      expect(over.details.get(id)?.ticket).toMatchObject({ assignedUser: userId(h, 'tech') });
    });

    it('keeps a reply in doubt, says it may have been sent, and on leaving never says it was not sent', async () => {
      const first = await openProgram();
      const id = (await until(first, (state) => state.loading === undefined)).visible[0]!.id;
      const { program } = await openBehind(await cuttingAfterAnswer(`/api/TicketsApi/reply/${id}`));
      const replies = () => routeCount(h, 'POST /api/TicketsApi/reply/{id}');
      const before = replies();

      program.dispatch({ kind: 'key', input: 'r', key: {} });
      const over = await until(program, (state) => state.running === undefined && state.status?.text.includes(`#${id}`) === true);
      expect(over.status?.text).toBe(
        `? replying to #${id}: in doubt (it may have been carried out): check the ticket (Enter shows it) before replying again; your reply is kept: r opens it again`,
      );
      expect(replies()).toBe(before + 1);
      expect(over.drafts.reply.get(id)).toBe('a message');
      const saved = await saveDrafts({ dir: h.configDir }, { globals: {}, env: {} }, over);
      expect(saved).toEqual([`the reply to #${id} may have been sent (in doubt); it is kept in ${join(h.configDir, 'drafts', `reply-${id}.txt`)}\n`]);
    });
  });
});
