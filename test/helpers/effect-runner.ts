// The triage effect runner as the tests run it: on the sandbox with the login read as app.ts
// reads it (through `ctx.apiFor`, which a test may wrap), with the editor, the pager and the
// renderings stood in for (the renderings say the width asked).
import type { Context } from '../../src/context/context.js';
import { freshLogin } from '../../src/context/fresh-login.js';
import { fillForTicket, readTemplate, templateNames } from '../../src/desk/templates.js';
import { createLookups } from '../../src/lookups/index.js';
import { readTicket } from '../../src/model/ticket.js';
import { createTicketActions } from '../../src/triage/actions.js';
import { createEffectRunner, type EffectDeps } from '../../src/triage/effects.js';

/** An effect runner on `ctx`; `deps` replaces any of its parts. */
export function standInEffectRunner(base: Context, deps: Partial<EffectDeps> = {}) {
  const login = freshLogin(base);
  const { ctx } = login;
  const lookups = createLookups(ctx);
  return createEffectRunner({
    api: ctx.api,
    readLoginAgain: login.readAgain,
    lookups,
    actions: createTicketActions(ctx, lookups),
    signal: ctx.signal,
    editor: async () => 'a message',
    page: async () => undefined,
    suspend: async () => undefined,
    templateNames: () => templateNames(ctx),
    fillTemplate: async (name, ticket) => fillForTicket(ctx, await readTemplate(ctx, name), readTicket(ticket)),
    renderDetail: async (ticket, width) => `${width}: ${JSON.stringify(ticket)}`,
    renderPane: async (ticket, width) => `pane at ${width}: ${JSON.stringify(ticket)}`,
    ...deps,
  });
}
