// Real HTTP against a sandbox on port 0, with a tiny request helper per test file.
import { afterEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON, the text when not JSON, undefined when empty. */
  body: any;
}

export interface RequestOptions {
  /** A demo login name, or a raw token; none means no Authorization header. */
  as?: string;
  token?: string;
  json?: unknown;
  form?: Record<string, string | number | boolean | readonly (string | number)[]>;
  files?: { name: string; content: string | Uint8Array }[];
}

export interface TestSandbox {
  sandbox: RunningSandbox;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  userId(username: string): string;
}

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

export async function openSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  running.push(sandbox);
  return {
    sandbox,
    userId(username) {
      const user = sandbox.state.users.find((u) => u.username === username);
      if (!user) throw new Error(`no user ${username}`);
      return user.id;
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = {};
      const token = options.token ?? (options.as === undefined ? undefined : sandbox.issueToken(options.as));
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      let body: string | FormData | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      } else if (options.form !== undefined || options.files !== undefined) {
        const form = new FormData();
        for (const [name, value] of Object.entries(options.form ?? {})) {
          for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
        }
        for (const file of options.files ?? []) form.append('Uploads', new Blob([file.content]), file.name);
        body = form;
      }
      const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text === '' ? undefined : text;
      if (text !== '' && /json/.test(response.headers.get('content-type') ?? '')) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}

/** The fields register needs, valid, for the given requester. */
export function registerForm(creatorId: string, overrides: Record<string, string | number> = {}): Record<string, string | number> {
  return {
    Title: 'Printer on fire',
    Description: 'Smoke everywhere',
    CreatorId: creatorId,
    SiteId: 1,
    DepartmentId: 1,
    TicketStatusId: 1,
    TicketType: 1,
    ...overrides,
  };
}
