#!/usr/bin/env node
// Whether tkt's fast path in front of string-width (src/output/table.ts displayWidth) still pays:
// measuring the cells of 20,000 tickets (what `list --all` at a terminal and triage's table do)
// with string-width alone and with the fast path first (printable ASCII, Latin-1 and Latin
// Extended: one column each, no segmentation), on ASCII, Latin and CJK text, in one run,
// interleaved rounds, medians. string-width has a fast path of its own, for ASCII only.
//
//   node bench/width.mjs [--rounds 15]
import { parseArgs } from 'node:util';
import stringWidth from 'string-width';
import { machineLine, median } from './lib.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(values.rounds);

// The same test as displayWidth's.
const ONE_COLUMN_EACH = /^[\x20-\x7e\xa0-\xac\xae-\u02ff]*$/;
const withFastPath = (text) => (ONE_COLUMN_EACH.test(text) ? text.length : stringWidth(text));

const TICKETS = 20_000;
const cells = {
  ascii: ['Printer on floor 2 keeps jamming', 'Anna Berg', 'In Progress', 'in 3h'],
  latin: ['Drucker in der Küche druckt nur Müll', 'Jörg Müller', 'Łódź office', 'Zoë Ñúñez'],
  cjk: ['打印机卡纸了 in room 2', '王小明', '処理中', '🔥 サーバー室'],
};

function measureAll(width, texts) {
  let total = 0;
  for (let i = 0; i < TICKETS; i += 1) for (const text of texts) total += width(`${text} ${i}`);
  return total;
}

function time(run) {
  const started = performance.now();
  run();
  return performance.now() - started;
}

console.log(machineLine());
console.log(`${TICKETS} tickets x 4 cells, ${rounds} interleaved rounds, median ms`);
for (const [name, texts] of Object.entries(cells)) {
  if (measureAll(stringWidth, texts) !== measureAll(withFastPath, texts)) throw new Error(`the fast path measures ${name} text differently`);
  const plain = [];
  const fast = [];
  for (let round = 0; round < rounds; round += 1) {
    plain.push(time(() => measureAll(stringWidth, texts)));
    fast.push(time(() => measureAll(withFastPath, texts)));
  }
  const [a, b] = [median(plain), median(fast)];
  console.log(`${name.padEnd(6)} string-width ${a.toFixed(1).padStart(7)}  fast path + string-width ${b.toFixed(1).padStart(7)}  ratio ${(a / b).toFixed(2)}x`);
}
