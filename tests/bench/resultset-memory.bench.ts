/**
 * Memory per item of the result-set store, for ~1 KB items (DynamoDB's own size measure).
 * Run: npx tsx --expose-gc tests/bench/resultset-memory.bench.ts [items] [core|worker] [typical|random]
 * `typical` items carry prose, ids, dates and enums like real tables; `random` fills the long
 * text with random base64 (nothing to compress: the worst case).
 * `core` prints the in-process cost of ResultSetCore (heap + array buffers); `worker` the whole
 * process RSS growth after the same items went through the real worker-backed store. Run them
 * as separate processes so one measurement's garbage does not hide in the other's RSS.
 */
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import { ResultSetCore } from '../../src/main/resultsets/result-set-core';
import { createResultSetStore } from '../../src/main/resultsets/store';

const count = Number(process.argv[2] ?? 1_000_000);
const mode = process.argv[3] ?? 'core';
const isRandom = process.argv[4] === 'random';
let seed = 42;
/** A small deterministic PRNG, so every run stores the same bytes. */
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
}
const words =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(
    ' ',
  );

/** A deterministic order-like item of about 1 KB (attribute names + values, as DynamoDB counts). */
function makeItem(i: number): Item {
  let text = '';
  if (isRandom) {
    const bytes = Buffer.alloc(600);
    for (let b = 0; b < bytes.length; b++) bytes[b] = Math.floor(random() * 256);
    text = bytes.toString('base64');
  } else {
    while (text.length < 740) text += `${words[Math.floor(random() * words.length)]!} `;
    text += `ref ${Math.floor(random() * 2 ** 48).toString(16)}`;
  }
  return {
    PK: { S: `USER#u${(i % 50_000).toString().padStart(6, '0')}` },
    SK: { S: `ORDER#${i.toString(36).padStart(10, '0')}` },
    GSI1PK: { S: `STATUS#${['NEW', 'PAID', 'SHIPPED'][i % 3]!}` },
    GSI1SK: { S: new Date(1_700_000_000_000 + i * 60_000).toISOString() },
    entity: { S: 'Order' },
    total: { N: `${(i % 100_000) / 100 + 0.01}` },
    currency: { S: 'EUR' },
    createdAt: { N: String(1_700_000_000_000 + i * 60_000) },
    shipping: {
      M: {
        street: { S: `${i % 999} Main Street` },
        city: { S: 'Springfield' },
        zip: { S: `${10_000 + (i % 89_999)}` },
      },
    },
    lines: {
      L: [{ M: { sku: { S: `SKU-${i % 1000}` }, qty: { N: String(1 + (i % 5)) }, price: { N: '19.99' } } }],
    },
    tags: { SS: ['gift', `batch-${i % 17}`] },
    note: { S: text },
  };
}

/** DynamoDB's item size rules: names + values, numbers about half their digits, 3 bytes per M/L. */
function valueSize(value: AttributeValue): number {
  if ('S' in value) return Buffer.byteLength(value.S);
  if ('N' in value) return Math.ceil(value.N.replace(/[-.]/g, '').length / 2) + 1;
  if ('B' in value) return Buffer.from(value.B, 'base64').length;
  if ('SS' in value) return value.SS.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if ('M' in value) return 3 + dynamoSize(value.M);
  if ('L' in value) return 3 + value.L.reduce((n, v) => n + 1 + valueSize(v), 0);
  return 1;
}

function dynamoSize(item: Item): number {
  return Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name) + valueSize(value), 0);
}

function used(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function main(): Promise<void> {
  const sample = makeItem(12345);
  console.log(
    `items: ${count}, sample item ≈ ${dynamoSize(sample)} bytes (tagged JSON ${Buffer.byteLength(JSON.stringify(sample))})`,
  );

  if (mode === 'core') measureCore();
  else await measureWorker();
}

function measureCore(): void {
  const before = used();
  const core = new ResultSetCore();
  const id = core.create({ connectionId: 'bench', table: 'bench', keyAttributes: ['PK', 'SK'] });
  let started = performance.now();
  for (let i = 0; i < count; i += 1000) {
    const page: Item[] = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) page.push(makeItem(j));
    core.append(id, page);
  }
  const appendMs = performance.now() - started;
  const after = used();
  started = performance.now();
  core.window(id, count - 100, 100);
  const windowMs = performance.now() - started;
  console.log(
    `core: ${((after - before) / count).toFixed(0)} bytes/item (${((after - before) / 2 ** 20).toFixed(0)} MiB), ` +
      `append ${(appendMs / 1000).toFixed(1)} s, window of 100 ${windowMs.toFixed(2)} ms`,
  );
}

async function measureWorker(): Promise<void> {
  used();
  const rssBefore = process.memoryUsage().rss;
  const store = createResultSetStore();
  const storeId = await store.create({ connectionId: 'bench', table: 'bench', keyAttributes: ['PK', 'SK'] });
  const started = performance.now();
  for (let i = 0; i < count; i += 1000) {
    const page: Item[] = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) page.push(makeItem(j));
    await store.append(storeId, page);
  }
  const storeMs = performance.now() - started;
  used();
  const rssAfter = process.memoryUsage().rss;
  console.log(
    `worker store: process RSS +${((rssAfter - rssBefore) / 2 ** 20).toFixed(0)} MiB ` +
      `(${((rssAfter - rssBefore) / count).toFixed(0)} bytes/item, includes the worker's own heap), ` +
      `append through the worker ${(storeMs / 1000).toFixed(1)} s, RSS now ${(rssAfter / 2 ** 20).toFixed(0)} MiB`,
  );
  await store.close();
}

void main();
