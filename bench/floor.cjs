#!/usr/bin/env node
'use strict';
// The floors the benches hold tkt against (README, Performance): what a careful script does for the
// same requests with nothing but `node:http`, printing the answer. Same headers as tkt (bearer
// token, Accept), same multipart forms; no retries, no lookups, no formatting. CommonJS like
// bin/tkt.js, so that both start the same way. TKT_URL and TKT_TOKEN come from the environment.
//
//   node bench/floor.cjs get PATH                   GET; prints the body
//   node bench/floor.cjs post-json PATH JSON        POST a JSON body; prints the body
//   node bench/floor.cjs post PATH                  POST without a body; prints the body
//   node bench/floor.cjs get-then-post PATH PATH    GET the first (keep-alive), then POST the second without a body; prints its body
//   node bench/floor.cjs form PATH NAME=VALUE...    POST multipart/form-data fields; prints the body (or the status)
//   node bench/floor.cjs upload PATH FILE           POST FILE as the part `Uploads`, streamed from disk; prints the body
//   node bench/floor.cjs close-many CONCURRENCY USER_ID
//       closes every ticket ID read from stdin, CONCURRENCY requests in flight on keep-alive
//       connections; prints "#ID STATUS" a line
//   node bench/floor.cjs list-all LIST_TYPE [--open-ids]
//       every page of the list (100 a page, 4 requests in flight, up to the first short page);
//       prints the items as one JSON array, or with --open-ids the ticketId of each Open one a line
//
// Exits 1 on any answer outside 2xx.
const http = require('node:http');

const base = new URL(process.env.TKT_URL);
const HEADERS = { accept: 'application/json, text/plain;q=0.9, */*;q=0.5', 'user-agent': 'tkt-floor', authorization: `Bearer ${process.env.TKT_TOKEN}` };
const BOUNDARY = `----tktfloor${Math.random().toString(16).slice(2)}`;
const PAGE_SIZE = 100;
const PAGES_IN_FLIGHT = 4;

/** Sends one request; resolves with the status and the whole body. `send` writes the body and ends the request. */
function request(method, path, headers, send, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers: { ...HEADERS, ...headers }, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    send(req);
  });
}

function formBody(fields) {
  const parts = fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`);
}

const formHeaders = (length) => ({ 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': length });
/** POSTs a multipart form of `fields` ([name, value] pairs). */
function postForm(path, fields, agent) {
  const body = formBody(fields);
  return request('POST', path, formHeaders(body.length), (req) => req.end(body), agent);
}

function upload(file) {
  const fs = require('node:fs');
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="Uploads"; filename="${require('node:path').basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const headers = formHeaders(head.length + fs.statSync(file).size + tail.length);
  return [
    headers,
    (req) => {
      req.write(head);
      const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
      stream.pipe(req, { end: false });
      stream.on('end', () => req.end(tail));
    },
  ];
}

function print({ status, body }) {
  process.stdout.write(body.length > 0 ? body : `${status}\n`);
  if (status < 200 || status > 299) process.exitCode = 1;
}

async function closeMany(concurrency, userId) {
  const ids = require('node:fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const { status } = await postForm(
        `/api/TicketsApi/close/${id}`,
        [
          ['TicketId', id],
          ['CloseBy', userId],
        ],
        agent,
      );
      process.stdout.write(`#${id} ${status}\n`);
      if (status !== 204) process.exitCode = 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  agent.destroy();
}

async function listAll(listType, openIds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: PAGES_IN_FLIGHT });
  const fetchPage = async (page) => {
    const body = Buffer.from(JSON.stringify({ page, length: PAGE_SIZE, listType }));
    const answer = await request(
      'POST',
      '/api/TicketsApi',
      { 'content-type': 'application/json', 'content-length': body.length },
      (req) => req.end(body),
      agent,
    );
    if (answer.status !== 200) throw new Error(`page ${page}: HTTP ${answer.status}`);
    return JSON.parse(answer.body);
  };
  const inFlight = [];
  let nextPage = 1;
  let first = true;
  if (!openIds) process.stdout.write('[');
  for (;;) {
    while (inFlight.length < PAGES_IN_FLIGHT) inFlight.push(fetchPage(nextPage++));
    const items = await inFlight.shift();
    if (openIds) {
      const lines = items.filter((item) => item.status === 'Open').map((item) => `${item.ticketId}\n`);
      process.stdout.write(lines.join(''));
    } else if (items.length > 0) {
      process.stdout.write(`${first ? '' : ','}${items.map((item) => JSON.stringify(item)).join(',')}`);
      first = false;
    }
    if (items.length < PAGE_SIZE) break;
  }
  if (!openIds) process.stdout.write(']\n');
  // Pages asked for past the end are left to finish; the process ends once they have.
  await Promise.allSettled(inFlight);
  agent.destroy();
}

async function main([mode, ...args]) {
  switch (mode) {
    case 'get':
      return print(await request('GET', args[0], {}, (req) => req.end()));
    case 'post':
      return print(await request('POST', args[0], { 'content-length': 0 }, (req) => req.end()));
    case 'get-then-post': {
      // Read first, then change, on one keep-alive connection: tkt pickup reads whose the ticket is.
      const agent = new http.Agent({ keepAlive: true });
      const read = await request('GET', args[0], {}, (req) => req.end(), agent);
      if (read.status !== 200) return print(read);
      print(await request('POST', args[1], { 'content-length': 0 }, (req) => req.end(), agent));
      return agent.destroy();
    }
    case 'post-json': {
      const body = Buffer.from(args[1]);
      return print(await request('POST', args[0], { 'content-type': 'application/json', 'content-length': body.length }, (req) => req.end(body)));
    }
    case 'form':
      return print(
        await postForm(
          args[0],
          args.slice(1).map((field) => [field.slice(0, field.indexOf('=')), field.slice(field.indexOf('=') + 1)]),
        ),
      );
    case 'upload': {
      const [headers, send] = upload(args[1]);
      return print(await request('POST', args[0], headers, send));
    }
    case 'close-many':
      return closeMany(Number(args[0]), args[1]);
    case 'list-all':
      return listAll(args[0], args[1] === '--open-ids');
    default:
      throw new Error(`unknown mode: ${mode}`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`floor: ${error.message}\n`);
  process.exitCode = 1;
});
