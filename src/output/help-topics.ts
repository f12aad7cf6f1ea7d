// The reference tables behind `tkt help environment|exit-codes|formatting` (docs/cli.md section 10).
// The README shows the same text: test/commands/help.test.ts checks that each README section
// contains its topic's markdown exactly, so the two are edited together, here first.

export interface HelpTopic {
  /** What `tkt help` lists next to the topic's name. */
  summary: string;
  /** The README's section heading that shows this text. */
  readmeSection: string;
  /** Markdown, exactly as in the README. */
  markdown: string;
}

import { reflow, wrapWords } from './reflow.js';

const lines = (...text: string[]): string => text.join('\n');

export const HELP_TOPICS = {
  environment: {
    summary: 'environment variables and the files tkt keeps',
    readmeSection: 'Environment and files',
    markdown: lines(
      '| variable | meaning |',
      '|---|---|',
      "| `TKT_URL` | base URL (as `--url`): the service's root, without `/api` (every path of the service starts with `/api`: `tkt login` refuses a URL ending in `/api`, exit 2 before anything is sent; elsewhere the 404 it leads to is exit 1 with a hint naming the URL meant) |",
      '| `TKT_TOKEN` | bearer token used as-is; the token cache is neither read nor written. Your user ID (for `--by` and `@me`) comes from its `sub`, `nameid` or `.../nameidentifier` claim |',
      '| `TKT_PROFILE` | profile name (as `--profile`), default `default` |',
      '| `TKT_CONFIG_DIR` | settings, tokens and lookup cache; default `$XDG_CONFIG_HOME/tkt` or `~/.config/tkt` (macOS `~/Library/Preferences/tkt`, Windows `%APPDATA%\\tkt`) |',
      '| `TKT_PASSWORD` | password for `tkt login` without a terminal |',
      "| `TKT_SCREEN_READER` | set (`1`) for a screen reader or a braille display: questions are asked line by line, as at `TERM=dumb`; no progress bar, spinner or wait line; `tkt triage` keeps the terminal's cursor on the highlighted row, or where text is typed (README: Screen readers and large fonts) |",
      "| `TKT_ALIAS_DEPTH` | set by tkt for a shell alias (`'!...'`): how many shell aliases its command runs inside; tkt refuses a shell alias run inside 10 others, exit 2 (README: Aliases) |",
      '| `NO_COLOR`, `FORCE_COLOR` | the usual meaning |',
      "| `TERM` | `dumb` (Emacs' M-x shell, some IDE consoles: escapes show as text): no colour unless `FORCE_COLOR`, and nothing that moves the cursor (no progress bar, spinner, pager or escape after the editor; `watch --notify` only rings; questions asked line by line, choices numbered); `tkt triage` exits 2 |",
      '| `CI` | never prompt (as `--no-input`) |',
      '| `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` | honoured; a proxy that cannot be reached, drops the tunnel or refuses it is named in the error, not taken for the service (README: A broken or hostile service). A proxy without a scheme (`proxy.corp:3128`) is `http://`, as curl takes it; `NO_PROXY` takes host names, domains (`.corp.example`), `host:port`, `*`, and CIDR ranges for IP addresses (`10.0.0.0/8`, `::1/128`) |',
      "| `NODE_DISABLE_COMPILE_CACHE` | set (`1`): no compiled code kept in `cache/code/` (below), as for Node's own cache |",
      "| `NODE_EXTRA_CA_CERTS` | honoured (private CAs); a certificate error's hint names it, and `NODE_USE_SYSTEM_CA=1` (trust the system store) on Node >= 22.19 and 24.6; when it is set, the hint names its file, and says so when Node could not load it (missing, unreadable, no PEM certificate). A certificate that is trusted but for other names is no CA problem: the hint says which names it is for; nor is one that has expired or is not valid yet: the hint says so, to be renewed by its owner or this machine's clock checked (with the clock's time) |",
      '',
      'The programs tkt starts for you, `$EDITOR`/`$VISUAL`, `$PAGER` and `$BROWSER`, get your',
      'environment without `TKT_TOKEN` and `TKT_PASSWORD`: they have no use for them, and a browser',
      'lives on after tkt, holding what it was given. `watch --exec` commands keep them: a command of',
      'yours may run tkt itself.',
      '',
      'Each of them is a command line, run by `sh` as git runs its editor: `code --wait` is a program and',
      'its option, so a program whose path has spaces is quoted inside the value. An editor given as',
      'such a path unquoted (`/mnt/c/Program Files/Notepad++/notepad++.exe`: sh looks for',
      '`/mnt/c/Program`) could not start, and the hint says how to quote it where it was set: `tkt config',
      'set editor \'"/mnt/c/Program Files/Notepad++/notepad++.exe"\'`, or `export EDITOR=\'"..."\'` for',
      '`$EDITOR` (`$VISUAL`). A pager or `$BROWSER` given so gets the same hint after the warning that',
      'prints the ticket or URL instead (`tkt config set pager \'"..."\'`, `export PAGER=\'"..."\'`,',
      '`export BROWSER=\'"..."\'`). Messages name such a program as you wrote it: `the editor "/opt/My',
      'Editor/ed" failed (exit code 3)`, quotes once.',
      '',
      'Settings are read flag first, then environment, then the profile. Files under the config folder:',
      '`config.json` (profiles: URL, `allowHttp`), `tokens/<profile>.json` (token, its URL, user,',
      'expiry), `cache/<profile>.json` (lookups) and `cache/code/` (the code V8 compiled for each',
      "command's bundle in an earlier run, so that the next run does not compile it again; written",
      'only after a run that ended well, which then removes the files of other tkt builds and Node versions but the two newest of each',
      'bundle (so that two builds or Node versions used in turn keep theirs), never by a tkt without a config folder, and not read or written',
      "at all with `NODE_DISABLE_COMPILE_CACHE=1`; on Node 22.1 and later `cache/code/node/` holds Node's own compile cache of",
      'completion and the full CLI, kept there rather than in the shared temporary folder, and under the same rules; neither is used',
      'where another user may write to the config folder, `cache/` or `cache/code/`). Files are mode 0600 in 0700 folders (an existing',
      '`TKT_CONFIG_DIR` keeps its mode, and may be a symbolic link: to a dotfiles folder, say). Each',
      'write takes a lock file beside its file, then writes a temporary file and renames it into',
      "place, so several `tkt` at once neither corrupt a file nor lose each other's changes; a lock",
      'left by a process that died is taken over, by one process only when several find it at once',
      '(a `<lock>.<inode>-<time>.takeover` file claims it for the milliseconds of the take-over), and a',
      'holder releases only its own lock. A write takes',
      'milliseconds: a lock still held after a second is said on stderr (`warning: waiting for',
      '.../config.json.lock, held by process 4242`), and one held more than 10 s is taken over, said',
      "too when its process still runs (its PID may be another program's by now). The lookup cache is",
      'the exception: it only saves a request, so its lock is waited for a second at most, silently, and',
      'a run that still finds it held leaves the cache to the other run (`xargs -P 20 tkt list --refresh`',
      'says nothing of it; a later run may fetch the lookups once more). A lock path that is',
      'not a file (a folder) is exit 1 at once, naming it.',
      '',
      "`tokens/`, `cache/`, a token file and the lookup cache file must be tkt's own: a symbolic link",
      'there is refused, exit 1 naming it (`error: cannot write .../tokens/default.json: .../tokens is a',
      'symbolic link`, as ssh refuses an odd key file), so that tkt never reads a token or a lookup (which',
      'turns a name into an ID), nor changes the mode of a folder, that someone else chose; `login` stops before sending the password. `tkt logout` still removes',
      'a linked token file. When a token is read, a token file that the group or others may read or',
      'write, or a config folder or `tokens/` that others may write, is a warning on stderr once per run',
      'with the command that fixes it (`warning: .../tokens/default.json is readable by others (0644):',
      'chmod 600 .../tokens/default.json`); the command goes on, as kubectl and helm do for a',
      'readable config, and tkt changes no mode it did not set (the next `tkt login` writes the file',
      '0600 again). A folder writable by its group is not warned about: where each user has a group of',
      'their own (umask 002, Debian, Fedora) that is the usual mode. Not on Windows, whose files are',
      'private by their ACLs.',
      '',
      'With `TKT_URL` and `TKT_TOKEN` no config folder is needed: one that is missing, or a',
      '`TKT_CONFIG_DIR` that names a file, reads as empty, and only what must write there (`login`,',
      '`config set`, `alias set`, `templates edit`) fails, exit 1, naming the path that is not a folder',
      '(`error: cannot write /ci/tkt/config.json: /ci/tkt is not a folder`); lookups that cannot be',
      'cached there are a warning (with `-q` too), and a folder that is missing is not made for them:',
      'the run keeps them in memory and writes no file (nor the code cache).',
    ),
  },
  'exit-codes': {
    summary: 'what each exit status means',
    readmeSection: 'Exit codes',
    markdown: lines(
      '| code | meaning |',
      '|---|---|',
      '| 0 | success (also "already closed", "already resolved", "already assigned to you") |',
      '| 1 | the operation failed: server rejected it (400, 500), network failure, time-out, or at least one ID of a multi-ID command failed; declining a confirmation or a question (Ctrl-D at a prompt, or Esc: `cancelled`); a `--fields` or `--query` that failed on the answer to a change that was made; a `list` walk over a desk that changed under it (tickets may be missing) |',
      '| 2 | usage error before any request: unknown flag, missing value without a terminal, malformed value, a lookup name matching nothing or several things |',
      '| 3 | not found (404, or a 400 saying the ticket or user was not found, as resolve answers for a ticket and `create --integration` for a requester); not a 404 that says the service URL is wrong (a path with `/api` twice, an endpoint every service has: authenticate, the list, the metadata, or any path under a base URL where the app metadata is not found either: asked once, at the first 404 of a run), which is 1 with a hint naming the URL meant |',
      '| 4 | not authenticated: no token, expired token, 401, wrong credentials, locked-out account |',
      "| 5 | permission denied (403, or register's 400 saying the permission is missing) |",
      '| 129 | hung up (SIGHUP: the terminal closed, an SSH session dropped): the run ends as on SIGTERM, its drafts kept and its temporary files removed |',
      '| 130 | interrupted (Ctrl-C, SIGINT) |',
      '| 143 | terminated (SIGTERM, e.g. a cancelled CI job) |',
      '',
      "A multi-ID command exits 1 when any ID failed; with a single ID it exits with that ID's own code;",
      'a run stopped by a 401 or a 403 exits 4 or 5.',
      "Every failure prints one `error:` line on stderr, the server's own message under it (whatever its",
      'shape: problem+json with field errors, a JSON string, `{message}`, plain text, or an HTML error',
      "page's title, headings and paragraphs as text), and a `hint:` where one helps; the exit code reads",
      'the message alike in any shape. `--debug` adds stack traces.',
    ),
  },
  formatting: {
    summary: 'output rules: --json, -q, --query, --fields, --csv, tables, colour',
    readmeSection: 'Scripting',
    markdown: lines(
      'Output rules: data on stdout; progress, prompts, warnings and errors on stderr.',
      '',
      "- `--json`: exactly one JSON document, the API's response body unchanged (`list --all` prints one",
      '  array of every item, each ticket once even when the desk changed during the walk: exit 1 if any may be missing,',
      '  see Finding tickets). The `ID...` commands (read, resolve, close, pickup, delete) print JSON',
      '  Lines, one object per ID, even for one ID: `{"id":12,"ok":true,"status":204}` or',
      '  `{"id":13,"ok":false,"status":404,"error":"not found (HTTP 404): ...","body":...}`; `error`',
      '  says what happened as the text line does (`permission denied (HTTP 403)`, `connection refused:',
      '  POST ...`); a success that changed nothing carries its `note`',
      '  (`{"id":12,"ok":true,"note":"already open, nothing changed"}`: assign, reopen, pickup and update sent',
      "  nothing); a pickup of another technician's ticket names them in `previousAssignee`.",
      '- `-q`: IDs for `list` and `metadata --collection NAME` (an item without an ID: its name; without',
      '  `--collection`, exit 2), the new ID for `create`, nothing for actions that succeed. Without it, a',
      '  change says what it did on stdout, as its result (`✓ #12 closed`, `Set editor to vi for every',
      '  profile`, `Added alias mine: ...`), where `--json` puts its document; `login` and `logout` say',
      '  theirs on stderr, as notes. So a cron line or a provisioning script that wants silence on',
      '  success adds `-q`, and still gets every error and warning on stderr. An output asked',
      '  for by name (`--json`, `--fields`, `--query`) wins over `-q`, as in `gh`: `-q` then only keeps',
      "  notes off stderr. One note stays with `-q`, for a person only: `tkt list`'s `10 shown; more",
      '  with --page 2, or --all` when stdout is a pipe and stderr a terminal, so that whoever piped',
      '  `tkt list -q` into `tkt close -` learns it closed one page (see Finding tickets). When `--fields` or',
      '  `--query` fails on the answer of `tkt create -q` (exit 1),',
      '  the new ID is still printed on stdout: a script never loses the ticket it made.',
      '- `--query EXPR` (every command that prints JSON): a [JMESPath](https://jmespath.org)',
      '  expression, the query language of the aws and az CLIs, applied to the JSON document, or to',
      '  each JSON Line of the `ID...` commands; it implies `--json`. `--raw` prints a string result',
      '  without quotes, an object on one line of compact JSON and an array one element per line',
      '  (strings bare, `null` as an empty line, objects as compact JSON), for `for id in $(...)` loops',
      '  and JSON Lines; a string holding line breaks is printed with them, over several lines, as',
      '  `jq -r` prints it. A malformed expression or an unknown function is exit 2 before any request. No',
      '  jq needed. On `list --all`, a projection over the',
      "  array (`[].ticketId`, `[?status=='Open'].{id: ticketId}`) runs page by page, so memory stays",
      '  flat; any other expression (`length(@)`, `sort_by(@, &dueDate)`) sees the whole array, held',
      '  in memory. A query that finds nothing because it reads a member the answer lacks where it is',
      "  read is followed by a `hint:` on stderr naming it and the members there, down the query's path",
      '  (`tkt show 1013 --query subject`: a ticket has no `subject`, only its `conversations[]` entries',
      "  do; `ticketId`: did you mean `id`?; `tkt status --query 'urgent[].id'`: the answer's `urgent[]`",
      '  has no `id`, did you mean `ticketId`?), once a run. An empty list lacks nothing (`list',
      '  --search` that found no ticket): nothing is read from it, so no hint follows.',
      '- `--fields LIST` (list, show, create, metadata, status): JSON limited to those members, matched',
      "  without regard to case, kept in the service's spelling, in the order asked; it implies",
      "  `--json`. A ticket's members also answer to the other names tkt reads them by: `ticketId` or",
      "  `id` picks a detail's `id` and a list item's `ticketId` alike, `title` a list item's",
      '  `subject`. One rule checks the names of `--fields` and `--columns`: a column of `tkt list`',
      '  always passes; any other name that no returned item has is exit 2 naming the fields that exist.',
      '  When nothing came back to check against (an empty list, or items that are not objects: bare',
      '  names), a member name tkt reads tickets by (`dueDate`, `updatedOn`, `resolution`...) passes,',
      '  and any other name is told by a `warning:` on stderr (`--columns: nosuch is not a column tkt',
      '  knows, and no tickets came back to check it against`), exit 0: a cron report with a typo is',
      '  told in a quiet week, not first failed in a busy one. Other answers (metadata, status) have no',
      '  names known ahead.',
      '- Exit 2 means nothing was changed on the service. Its answers are not described ahead, so a',
      '  `--fields` name or a `--query` that fails on the data (`abs(@)` on an object) is found only on',
      '  the answer: after a request that changed something (`tkt create`, `tkt pickup`...) the change',
      '  counts, so stderr says what was done, as the usual output would (`Created ticket #1042`,',
      '  `✓ #1023 picked up`), and the run exits 1 with the error; do not run it again. After a read',
      '  (`list`, `show`, a dry run) it stays exit 2.',
      '- `--csv` (list, profiles, metadata with `--collection`): RFC 4180 CSV with a header row of column names,',
      '  CRLF line ends, fields with commas, quotes, line breaks or other control characters quoted. CSV',
      "  is for programs: piped or redirected, every value is the service's own, control characters",
      '  included (a spreadsheet or a CSV reader gets the title as it was written); at a terminal they',
      '  are made visible, as in every human output. A value that starts with `=`, `+`, `-` or `@` is',
      "  written as it is too, so a spreadsheet that opens the file may take a requester's title",
      '  `=HYPERLINK(...)` for a formula: import such a file with its columns as text (Excel: Data, From',
      '  Text/CSV; LibreOffice: without "Evaluate formulas"), as for any CSV from outside. The CSV is',
      '  UTF-8 with no byte-order mark (BOM), as programs that read CSV expect; a spreadsheet opened by',
      "  double-click has no sign that it is UTF-8, and Excel then reads it in the system's code page,",
      '  turning non-ASCII text into mojibake (`Ã©` for `é`). Import it instead (Data, From Text/CSV,',
      '  File Origin "65001: Unicode (UTF-8)"), or write the BOM first for a file meant to be',
      "  double-clicked: `{ printf '\\357\\273\\277'; tkt list --csv; } > tickets.csv`. `--columns LIST` chooses the",
      '  columns of the table, the TSV and the CSV: the named ones (`tkt list --help`: id, title,',
      '  status, priority, requester, assignee, due, created) or any member of the items',
      '  (`--columns id,isOverdue`), checked as `--fields` names are. A column named twice is shown',
      '  once, where first named: in any case (`id,ID`), or under two names of one member (`title,subject`',
      '  of a ticket), as `--fields` keeps one member. `-q` with `--columns` is exit 2.',
      '- At a terminal, an empty cell of a table (no assignee, no due date) shows `-`, as in triage, so',
      '  that a row read aloud keeps its columns apart. Piped (not a terminal), tables are',
      '  tab-separated lines without a header, like `gh`, and an empty cell stays empty, as in CSV.',
      '  Piped TSV and CSV carry ISO 8601 timestamps in UTC (`2026-11-24T09:00:00.000Z`), never `2d overdue`.',
      '  So do `tkt status` (a line per count, `open<TAB>3`, then one per urgent ticket: ID, due,',
      '  priority, status, title; no headings) and `tkt profiles` (the active mark `*` or nothing, name,',
      '  URL or nothing, state).',
      '- Colour, spinners and progress bars appear only when stderr is a terminal and colour is not',
      '  disabled (`NO_COLOR`, `--no-color`, or `TERM=dumb`, as chalk and gh read it). `FORCE_COLOR`',
      '  forces colour on stderr even when it is not a terminal or is a dumb one, never progress bars or',
      '  spinners (a CI log would keep every frame; a dumb terminal would show their escapes as text).',
      '  Data on stdout is coloured only when stdout is a terminal too: `tkt list 2>/dev/null` at a',
      '  terminal prints it plain (unless `FORCE_COLOR`), and data on a piped stdout stays plain either way.',
      '- A service that takes the connection and then keeps tkt waiting is not taken for a hung tkt,',
      '  whatever the command (`tkt list`, `show`, `reply`, `pickup`, `close`, `create`, `login`...):',
      '  after a second without an answer, one line on stderr says `Waiting for helpdesk.example.com…`',
      '  until the answer comes (or `--timeout` ends the wait). It is erased before anything is printed,',
      '  before a prompt, the editor or the pager takes the terminal (`tkt reply 1013` shows it while the',
      '  ticket is read, then opens the editor on a clean line), never drawn while they have it, and',
      '  erased when Ctrl-C ends the run or says what it waits for (`interrupted: waiting up to 30s for 1',
      '  request in flight; ...` takes its place). While a read waits to be tried again (a 503 or 429, a',
      '  dropped connection), the line says why and for how long:',
      '  `Waiting for helpdesk.example.com: the service is busy (503): trying again in 8 s (try 2 of 3)…`.',
      '  While `tkt attach` sends its files, once the upload has gone a second (a small file never shows',
      '  it), the same line says how far, drawn anew at most 20 times a second: `Uploading report.zip:',
      '  412 MB of 1 GB (40%)`; of several files, the one being sent (`Uploading b.zip (file 2 of 3):',
      '  ...`); of a pipe, whose size is known only once read, the bytes sent (`Uploading build.log: 412',
      '  MB sent`). Bytes count as the connection takes them, not as they are read from disk; the files',
      "  all sent, the line says what it waits for, the service's answer. A run of several IDs (or rows",
      '  of `create --from`) draws its progress bar instead, which says that the run goes on and how far:',
      '  one line drawn in place at a time. With `-q` or `--dry-run`, which draw no bar, the wait line',
      '  shows, under any line printed meanwhile.',
      "  Like `gh`'s spinner, it shows only to a person at a terminal: stderr and stdout both terminals",
      '  (`tkt list --json | jq` shows nothing), colour not disabled, not under `CI`, not with `--debug`',
      '  (whose trace says what is sent). `watch` and `triage` never show it, as they draw their own',
      "  state, nor `mcp`, whose streams are its protocol's.",
      '- Text from the server is shown with control characters made visible (`^[`, `^G`, `^M`,',
      '  `<U+009B>`, like `cat -v`), and so are the bidi controls that show the text after them',
      '  reordered (`<U+202E>`), so a ticket title can never move the cursor, retitle the window, clear',
      '  the screen or read backwards. So is piped TSV, the human output in a pipe (for `grep`, `cut`,',
      "  `awk`: a value's line breaks and tabs become a space, in `tkt show`'s `Title:` and other field",
      '  lines too, while its description, resolution and conversation keep their lines); for the',
      '  values as sent, use `--csv` or `--json`. `--json` keeps the content as the server sent it (DEL,',
      '  C1 and bidi controls written as `\\u009b`-style escapes, the same JSON).',
    ),
  },
  ci: {
    summary: 'tkt in a CI job: the variables, no prompts, one ticket per failure',
    readmeSection: 'Scripting',
    markdown: lines(
      'A CI job needs no login and leaves no file: set `TKT_URL` and `TKT_TOKEN` (its user ID comes from',
      'the token), and `CI` (or `--no-input`) never asks: a value missing is exit 2 naming it. Data goes',
      'to stdout, everything else to stderr; branch on the exit code (`tkt help exit-codes`), read JSON',
      'with `--json` or `--query`.',
      '',
      '- One ticket per failure, however many builds fail: `tkt create --integration --requester ci-bot',
      '  --title "$JOB failed" --description-file log.txt --dedup-key "$JOB"` creates the key\'s ticket',
      '  once, then adds each later failure to it.',
      '- On recovery: `tkt resolve --dedup-key "$JOB" --requester ci-bot --details "fixed in $SHA"`',
      '  resolves it (none open: exit 0).',
      '- `tkt close - --json < ids.txt` gives one JSON Line per ID, those never sent marked',
      '  `notStarted`; a cancelled job (SIGTERM) exits 143 after the requests in flight, saying what',
      '  was done.',
    ),
  },
} satisfies Record<string, HelpTopic>;

export type HelpTopicName = keyof typeof HELP_TOPICS;

const TABLE_ROW = /^\|(.*)\|$/;

/** The topic for a terminal: markdown's backticks and link syntax dropped, text and tables wrapped to `width`. */
export function renderHelpTopic(topic: HelpTopic, width: number): string {
  const out: string[] = [];
  const plain = (text: string) => text.replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)').replace(/`/g, '');
  const source = topic.markdown.split('\n');
  for (let index = 0; index < source.length;) {
    if (!TABLE_ROW.test(source[index]!)) {
      const text: string[] = [];
      for (; index < source.length && !TABLE_ROW.test(source[index]!); index += 1) text.push(plain(source[index]!));
      out.push(reflow(text.join('\n'), width));
      continue;
    }
    const rows: string[][] = [];
    for (; index < source.length && TABLE_ROW.test(source[index]!); index += 1) {
      if (/^[-|: ]+$/.test(source[index]!)) continue; // the header's underline
      rows.push(
        TABLE_ROW.exec(source[index]!)![1]!
          .split(' | ')
          .map((cell) => plain(cell.trim())),
      );
    }
    const keyWidth = Math.max(...rows.map((cells) => cells[0]!.length));
    for (const [key, ...rest] of rows) {
      const wrapped = wrapWords(rest.join(' | '), Math.max(20, width - keyWidth - 2));
      wrapped.forEach((line, lineIndex) => out.push(`${(lineIndex === 0 ? key! : '').padEnd(keyWidth)}  ${line}`.trimEnd()));
    }
  }
  return `${out.join('\n')}\n`;
}
