// The README's CI recipes (GitHub Actions, GitLab CI, Jenkins), their shell lines cut out of
// README.md and run exactly as printed, as each CI system runs them, against a sandbox: a failing
// build twice (one ticket, updated), a green build (resolved, and no stranger's ticket of the key),
// green again (nothing to resolve).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.js';
import { BIN, ensureBuilt } from './helpers/terminal.js';

const README = resolve(import.meta.dirname, '../README.md');
const OPEN = 1;
const RESOLVED = 6;

interface Recipe {
  /** The line the recipe's paragraph starts with. */
  intro: string;
  /** The shell and its flags, as the CI system runs a script. */
  shell: string[];
  /** A line that says under which outcome the scripts after it run; its group 1 is that outcome. */
  condition: RegExp;
  /** The line that opens a script. */
  opens: RegExp;
  /** Whether a line (after the opening) ends the script; `indent` is the opening line's. */
  ends(line: string, indent: number): boolean;
  failure: string;
  success: string;
  /** The CI system's own variables. */
  env: Record<string, string>;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const yamlBlockEnds = (line: string, indent: number) => line.trim() !== '' && indentOf(line) <= indent;

const RECIPES: Record<string, Recipe> = {
  'GitHub Actions': {
    intro: 'GitHub Actions:',
    // A `run` step's shell with `shell: bash` (the recipe's defaults); without it, `bash -e {0}`,
    // no pipefail: `make test | tee build.log` passed on a red build (test below).
    shell: ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c'],
    condition: /^\s+(?:- )?if: (\w+)\(\)/,
    opens: /^\s+run: \|$/,
    ends: yamlBlockEnds,
    failure: 'failure',
    success: 'success',
    env: { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '9001', GITHUB_JOB: 'test' },
  },
  'GitLab CI': {
    intro: 'GitLab CI:',
    shell: ['bash', '-e', '-c'],
    condition: /^\s+when: (on_\w+)$/,
    opens: /^\s+- \|$/,
    ends: yamlBlockEnds,
    failure: 'on_failure',
    success: 'on_success',
    env: {
      CI_PIPELINE_URL: 'https://gitlab.example.com/acme/shop/-/pipelines/77',
      CI_PROJECT_PATH: 'acme/shop',
      CI_COMMIT_REF_NAME: 'main',
      CI_COMMIT_REF_SLUG: 'main',
    },
  },
  Jenkins: {
    intro: 'Jenkins (declarative pipeline):',
    // `sh` steps run /bin/sh -xe; without -x here, so that stderr is tkt's alone.
    shell: ['sh', '-e', '-c'],
    condition: /^\s+(failure|fixed) \{$/,
    opens: /^\s+sh '''$/,
    ends: (line) => line.trim() === "'''",
    failure: 'failure',
    success: 'fixed',
    // A multibranch job's name: its branch's slash as %2F, which a key may not hold.
    env: { BUILD_URL: 'https://jenkins.example.com/job/shop/12/', JOB_NAME: 'acme/shop/feature%2Flogin' },
  },
};

/** The recipe's scripts by the outcome they run on, dedented, from the first code block after its intro. */
async function scriptsOf(recipe: Recipe): Promise<Map<string, string>> {
  const lines = (await readFile(README, 'utf8')).split('\n');
  const intro = lines.findIndex((line) => line.startsWith(recipe.intro));
  expect(intro, `README.md has no line starting "${recipe.intro}"`).toBeGreaterThan(-1);
  const start = lines.findIndex((line, index) => index > intro && line.startsWith('```')) + 1;
  const end = lines.findIndex((line, index) => index >= start && line === '```');
  const scripts = new Map<string, string>();
  let outcome: string | undefined;
  for (let index = start; index < end; index++) {
    const line = lines[index]!;
    outcome = recipe.condition.exec(line)?.[1] ?? outcome;
    if (!recipe.opens.test(line)) continue;
    const body: string[] = [];
    while (index + 1 < end && !recipe.ends(lines[index + 1]!, indentOf(line))) body.push(lines[++index]!);
    const dedent = Math.min(...body.filter((text) => text.trim() !== '').map(indentOf));
    expect(outcome, `a script of ${recipe.intro} runs under no condition`).toBeDefined();
    scripts.set(outcome!, body.map((text) => text.slice(dedent)).join('\n'));
  }
  return scripts;
}

/** The CI system's environment for a job in `workspace` (secrets, its variables), and a run of the script for an outcome there. */
function runnerOf(recipe: Recipe, scripts: Map<string, string>, workspace: string) {
  const env = {
    PATH: `${dir}:${process.env.PATH ?? ''}`,
    HOME: dir,
    TKT_CONFIG_DIR: join(dir, 'config'),
    TKT_URL: sandbox.url,
    TKT_TOKEN: sandbox.issueToken('ci-bot'),
    GITHUB_OUTPUT: join(workspace, 'github-output'),
    ...recipe.env,
  };
  const run = (outcome: string) => promisify(execFile)(recipe.shell[0]!, [...recipe.shell.slice(1), scripts.get(outcome)!], { cwd: workspace, env });
  return { env, run };
}

let sandbox: RunningSandbox;
let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'tkt-readme-ci-recipes-'));
  await symlink(BIN, join(dir, 'tkt'));
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  await sandbox?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.each(Object.entries(RECIPES))('the README recipe for %s', (name, recipe) => {
  it('opens one ticket for a failure, updates it on the next one, resolves it when green', async () => {
    const scripts = await scriptsOf(recipe);
    expect([...scripts.keys()].sort()).toEqual([recipe.failure, recipe.success].sort());
    for (const script of scripts.values()) expect(script).not.toMatch(/TKT_URL=|TKT_TOKEN=/);
    const workspace = join(dir, name.replace(/\W/g, '-'));
    await mkdir(workspace);
    await writeFile(join(workspace, 'build.log'), `${Array.from({ length: 80 }, (_, n) => `line ${n + 1}`).join('\n')}\nerror: tests failed\n`);
    const output = join(workspace, 'github-output');
    const { env, run } = runnerOf(recipe, scripts, workspace);

    const earlier = new Set(sandbox.state.tickets.map((t) => t.id));
    const first = await run(recipe.failure);
    const second = await run(recipe.failure);
    expect([first.stderr, second.stderr]).toEqual(['', '']);
    const ciBot = sandbox.state.users.find((u) => u.username === 'ci-bot')!;
    const opened = sandbox.state.tickets.filter((t) => !earlier.has(t.id));
    expect(opened).toHaveLength(1);
    const ticket = opened[0]!;
    expect(ticket).toMatchObject({ creatorId: ciBot.id, ticketPriorityId: 3 });
    expect(ticket.title).toMatch(/ \[[\w.:/-]+\]$/);
    expect(ticket.description).toContain(Object.values(recipe.env)[0]);
    expect(ticket.description).toContain('line 80\nerror: tests failed\n');
    expect(ticket.description).not.toContain('line 30\n');
    expect(sandbox.state.attachments.filter((a) => a.ticketId === ticket.id).map((a) => a.fileName)).toEqual(['build.log', 'build.log']);
    expect(sandbox.state.conversations.filter((c) => c.ticketId === ticket.id && c.type === 'RequesterReply')).toHaveLength(1);
    if (name === 'GitHub Actions') expect(await readFile(output, 'utf8')).toBe(`id=${ticket.id}\nid=${ticket.id}\n`);
    else expect([first.stdout, second.stdout]).toEqual([`created #${ticket.id}\n`, `updated #${ticket.id}\n`]);

    // Anyone may end a title of their own with the key: the green build resolves the job's ticket alone.
    const key = /\[([^\]]+)\]$/.exec(ticket.title)![1]!;
    const decoy = await promisify(execFile)(
      join(dir, 'tkt'),
      ['create', '--integration', '-q', '--requester', 'aberg', '--title', `Help [${key}]`, '--description', 'd'],
      { env },
    );
    const green = await run(recipe.success);
    expect(green).toMatchObject({ stdout: `✓ #${ticket.id} resolved\n`, stderr: '' });
    expect(ticket.ticketStatusId).toBe(RESOLVED);
    expect(sandbox.state.tickets.find((t) => t.id === Number(decoy.stdout))).toMatchObject({ ticketStatusId: OPEN, resolution: null });
    const greenAgain = await run(recipe.success);
    expect(greenAgain.stderr).toMatch(/^nothing to resolve: no open ticket of requester ci-bot has the key \S+\n$/);
  });

  it('opens the ticket all the same when the job failed before writing its log, or its log is not UTF-8', async () => {
    const scripts = await scriptsOf(recipe);
    const workspace = join(dir, `${name.replace(/\W/g, '-')}-no-log`);
    await mkdir(workspace);
    const { run } = runnerOf(recipe, scripts, workspace);
    const earlier = new Set(sandbox.state.tickets.map((t) => t.id));
    // Checkout or install failed: no build.log at all.
    expect((await run(recipe.failure)).stderr).toBe('');
    const opened = sandbox.state.tickets.filter((t) => !earlier.has(t.id));
    expect(opened).toHaveLength(1);
    const ticket = opened[0]!;
    expect(ticket.description).toContain('(none: the ');
    expect(sandbox.state.attachments.filter((a) => a.ticketId === ticket.id)).toEqual([]);
    // A compiler's stray byte and a last line cut inside a character: the broken bytes dropped, the rest kept.
    await writeFile(join(workspace, 'build.log'), Buffer.from('caf\xe9 \xc3\xa9t\xc3\xa9\nerror: tests failed \xe2\x80', 'latin1'));
    expect((await run(recipe.failure)).stderr).toBe('');
    const reply = sandbox.state.conversations.filter((c) => c.ticketId === ticket.id && c.type === 'RequesterReply').at(-1);
    expect(reply?.message).toContain('caf été\nerror: tests failed');
    expect(sandbox.state.attachments.filter((a) => a.ticketId === ticket.id).map((a) => a.fileName)).toEqual(['build.log']);
    await run(recipe.success);
    expect(ticket.ticketStatusId).toBe(RESOLVED);
  });
});

describe('the README recipe for GitHub Actions', () => {
  it("fails its test step on a red build: the step's `make test | tee` runs with pipefail (shell: bash)", async () => {
    const text = await readFile(README, 'utf8');
    const recipe = text.slice(text.indexOf(RECIPES['GitHub Actions']!.intro));
    const block = recipe.slice(0, recipe.indexOf('\n```\n', recipe.indexOf('```yaml') + 1));
    // GitHub runs a step with the job's defaults.run.shell; `bash` is `bash --noprofile --norc -eo pipefail {0}`.
    expect(block).toMatch(/\n {4}defaults:\n {6}run:\n {8}shell: bash\n/);
    const step = /^ {6}- run: (make test .*)$/m.exec(block)?.[1];
    expect(step).toBeDefined();
    const workspace = join(dir, 'github-red');
    await mkdir(workspace);
    await writeFile(join(workspace, 'make'), '#!/bin/sh\necho "error: tests failed"\nexit 2\n', { mode: 0o755 });
    const env = { PATH: `${workspace}:${process.env.PATH ?? ''}` };
    const shell = RECIPES['GitHub Actions']!.shell;
    await expect(promisify(execFile)(shell[0]!, [...shell.slice(1), step!], { cwd: workspace, env })).rejects.toMatchObject({ code: 2 });
    // GitHub's default without shell: bash would have passed it.
    await expect(promisify(execFile)('bash', ['-e', '-c', step!], { cwd: workspace, env })).resolves.toMatchObject({ stdout: 'error: tests failed\n' });
  });
});
