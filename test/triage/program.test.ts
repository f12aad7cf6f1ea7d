// The program loop on a sandbox: update.ts's effects run and their results fed back, the screen
// told of each change, and the run's end.
import { describe, expect, it } from 'vitest';
import { startProgram, type TriageProgram } from '../../src/triage/program.js';
import type { TriageState } from '../../src/triage/state.js';
import { start } from '../../src/triage/update.js';
import { standInEffectRunner } from '../helpers/effect-runner.js';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

async function openProgram(): Promise<TriageProgram> {
  const { ctx } = await h.context({ tty: true });
  const perform = standInEffectRunner(ctx, await ctx.api());
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

  it('fails with the error of a first load that fails', async () => {
    h.sandbox.failNext('POST /api/TicketsApi', 500);
    const program = await openProgram();
    await expect(program.finished).rejects.toMatchObject({ status: 500 });
    expect(program.snapshot().ended).toBe(true);
  });
});
