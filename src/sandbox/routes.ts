// The service's endpoints (docs/service.md 4.0-4.17) over the store: one table of routes, each answered by a
// handler of auth-routes.ts, list-routes.ts or ticket-routes.ts. Each handler either answers or
// throws an HttpFailure; the order of checks follows ASP.NET: token (401), permission (403), model
// validation (400), then the action.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenClaims } from './jwt.js';
import { verifyToken } from './jwt.js';
import type { PermissionName, SandboxUser } from './model.js';
import { Permission } from './model.js';
import { emptyFailure, htmlFailure, messageFailure, problem, sendJson } from './http.js';
import type { SandboxStore } from './store.js';
import { appMetadata } from './views.js';
import { type SandboxConfig, type Call } from './call.js';
import { authenticate } from './auth-routes.js';
import { list, metadata, listByUsername } from './list-routes.js';
import {
  getTicket,
  register,
  update,
  sendMessage,
  close,
  resolve,
  pickup,
  markRead,
  addFiles,
  deleteTicket,
  newTicket,
  requesterReply,
} from './ticket-routes.js';
export interface Route {
  method: string;
  /** Matched case-insensitively, as ASP.NET routes are; group 1 is the id. */
  pattern: RegExp;
  /** Stats key, e.g. "POST /api/TicketsApi/close/{id}". */
  key: string;
  anonymous?: boolean;
  /** 403 when the token lacks it (register checks its own, answering 400). */
  permission?: PermissionName;
  handle(call: Call): Promise<void> | void;
}

/** A route's stats key, e.g. "POST /api/TicketsApi/close/{id}", is also what it matches. */
type RouteSpec = Omit<Route, 'method' | 'pattern' | 'key'>;

const ID = '(-?\\d+|[^/]+)';

/** "POST /api/TicketsApi/close/{id}" as a route: matched case-insensitively, as ASP.NET routes are. */
function route(key: string, spec: RouteSpec): Route {
  const [method, path] = key.split(' ') as [string, string];
  const source = path
    .split('{id}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(ID);
  return { method, pattern: new RegExp(`^${source}$`, 'i'), key, ...spec };
}

const ROUTES: Route[] = [
  route('POST /api/Users/authenticate', { anonymous: true, handle: authenticate }),
  route('POST /api/TicketsApi', { handle: list }),
  route('GET /api/TicketsApi/appmetadata', { handle: (call) => sendJson(call.res, 200, appMetadata(call.store)) }),
  route('GET /api/TicketsApi/metadata', { handle: metadata }),
  route('GET /api/TicketsApi/metadata/{id}', { handle: metadata }),
  route('POST /api/TicketsApi/register', { handle: register }),
  route('POST /api/TicketsApi/new', { handle: newTicket }),
  route('POST /api/TicketsApi/list', { handle: listByUsername }),
  route('POST /api/TicketsApi/update/{id}', { permission: Permission.update, handle: update }),
  route('POST /api/TicketsApi/forward/{id}', { permission: Permission.forward, handle: sendMessage('Forward') }),
  route('POST /api/TicketsApi/reply/{id}', { permission: Permission.reply, handle: sendMessage('Reply') }),
  route('POST /api/TicketsApi/close/{id}', { permission: Permission.close, handle: close }),
  route('POST /api/TicketsApi/resolve/{id}', { permission: Permission.resolve, handle: resolve }),
  route('POST /api/TicketsApi/pickup/{id}', { permission: Permission.pickup, handle: pickup }),
  route('POST /api/TicketsApi/read/{id}', { handle: markRead }),
  route('POST /api/TicketsApi/addfiles/{id}', { handle: addFiles }),
  route('POST /api/TicketsApi/reqreply/{id}', { handle: requesterReply }),
  route('GET /api/TicketsApi/{id}', { handle: getTicket }),
  route('DELETE /api/TicketsApi/{id}', { permission: Permission.delete, handle: deleteTicket }),
];

export interface Match {
  route: Route;
  id: string | undefined;
  /** The stats key: the route's, or for a HEAD its GET route's under HEAD ("HEAD /api/TicketsApi/{id}"). */
  key: string;
}

/** The route for a request, or undefined for an unmatched one. */
export function matchRoute(method: string, path: string): Match | undefined {
  // As any HTTP service, HEAD is answered wherever GET is, with GET's status and headers; node:http
  // leaves the body out of an answer to HEAD.
  const head = method === 'HEAD';
  const routeMethod = head ? 'GET' : method;
  for (const route of ROUTES) {
    if (route.method !== routeMethod) continue;
    const found = route.pattern.exec(path);
    if (found) return { route, id: found[1], key: head ? `HEAD ${route.key.slice('GET '.length)}` : route.key };
  }
  return undefined;
}

/** Runs a matched route: token, permission, injected fault, path id, handler. */
export async function runRoute(
  match: Match,
  req: IncomingMessage,
  res: ServerResponse,
  store: SandboxStore,
  config: SandboxConfig,
  baseUrl: string,
  takeFault: () => number | undefined,
): Promise<void> {
  const { route } = match;
  let caller: SandboxUser | undefined;
  let claims: TokenClaims | undefined;
  if (!route.anonymous) {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    claims = token === undefined ? undefined : verifyToken(token, store.state.secret, config.now());
    caller = store.user(claims?.sub);
    if (!claims || !caller) {
      throw emptyFailure(401, { 'www-authenticate': token === undefined ? 'Bearer' : 'Bearer error="invalid_token"' });
    }
    if (route.permission && !claims.permissions.includes(route.permission)) throw emptyFailure(403);
  }
  const fault = takeFault();
  if (fault !== undefined) {
    throw fault >= 500 ? htmlFailure(fault, 'An unexpected error occurred while saving the ticket.') : messageFailure(fault, 'The ticket could not be saved.');
  }
  let id: number | undefined;
  if (match.id !== undefined) {
    if (!/^-?\d+$/.test(match.id) || !Number.isSafeInteger(Number(match.id)))
      throw problem(400, { id: [`The value '${decodeURIComponent(match.id)}' is not valid.`] });
    id = Number(match.id);
  }
  await route.handle({ req, res, store, config, id, baseUrl, caller: caller as SandboxUser, claims: claims as TokenClaims });
}
