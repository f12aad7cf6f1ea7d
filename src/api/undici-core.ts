// undici's index also loads fetch, WebSocket, EventSource, caches and mocks: about half of its
// load time, paid on every command that talks to the service, for nothing tkt uses. We load only
// the proxy-aware agent and the request API, and attach the API to dispatchers exactly as
// undici's index does (`Object.assign(Dispatcher.prototype, api)`). The deep paths are undici's
// internals, not its API, so package.json pins undici to one exact version (no range): a new
// version comes only by editing that line, and test/api/* and every command test exercise them.
import { setFlagsFromString } from 'node:v8';
import type { EnvHttpProxyAgent as EnvHttpProxyAgentType, Pool as PoolType } from 'undici';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import requestApi from 'undici/lib/api/index.js';

Object.assign(DispatcherClass.prototype, requestApi);

// undici parses HTTP with a WebAssembly module (compiled on first connection, after this line).
// V8 recompiles it with TurboFan on background threads, and Node waits for those threads before
// it exits: about 80 ms on every command that makes a request. The baseline (Liftoff) code is
// fast enough for a CLI's responses. Set here, not in the bin, so --help never loads node:v8.
setFlagsFromString('--liftoff-only');

export const EnvHttpProxyAgent: typeof EnvHttpProxyAgentType = EnvHttpProxyAgentClass;
/** What a proxy agent talks to its proxy with (undici's own default: transport.ts wraps it). */
export const Pool: typeof PoolType = PoolClass;
