// Every command, registered in the order `tkt --help` lists them.
import type { Command } from 'commander';
import type { CommandHost } from '../cli.js';
import * as api from './api.js';
import * as completion from './completion.js';
import * as login from './login.js';
import * as logout from './logout.js';
import * as whoami from './whoami.js';
import * as list from './list.js';
import * as show from './show.js';
import * as read from './read.js';
import * as metadata from './metadata.js';
import * as create from './create.js';
import * as update from './update.js';
import * as reply from './reply.js';
import * as forward from './forward.js';
import * as resolve from './resolve.js';
import * as close from './close.js';
import * as pickup from './pickup.js';
import * as attach from './attach.js';
import * as deleteCommand from './delete.js';
import * as sandbox from './sandbox.js';

export function registerCommands(program: Command, host: CommandHost): void {
  login.register(program, host);
  logout.register(program, host);
  whoami.register(program, host);
  list.register(program, host);
  show.register(program, host);
  read.register(program, host);
  metadata.register(program, host);
  create.register(program, host);
  update.register(program, host);
  reply.register(program, host);
  forward.register(program, host);
  resolve.register(program, host);
  close.register(program, host);
  pickup.register(program, host);
  attach.register(program, host);
  deleteCommand.register(program, host);
  api.register(program, host);
  sandbox.register(program, host);
  completion.register(program, host);
}
