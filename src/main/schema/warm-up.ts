import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import type { KeySchema } from '../../shared/ipc/tables';
import { defineOwn } from '../../shared/dynamo/proto-keys';
import type { CoreContext, ServiceSlot } from '../core/context';
import { type IdleWork, runIdleSteps } from '../core/idle-steps';
import { splitWirePage } from '../dynamo/query/wire-page';
import { type EntitySource, SchemaAccumulator, type SchemaState } from './accumulator';
import { reportOfSchemaCheckpoint, type SchemaCheckpoint, type SchemaTableInfo } from './analyze';

/**
 * The Schema view's analysis, warmed while the app is idle. A user's first schema scan in a
 * session otherwise runs the wire walk and the statistics in V8's interpreter until they are
 * compiled: 23.6–25.3 µs of client CPU per item in a first scan against 10–16 in later ones
 * (docs/PERFORMANCE.md, "Schema view full scan vs a plain parallel Scan"). So after start-up the
 * same code reads generated response bytes — every DynamoDB type, string formats, escapes,
 * non-ASCII text, hostile names, paths past the exact count, entities by key and by attribute,
 * a table with a global index (read parsed) — page by page, a page a step, and ends with a
 * checkpoint's copy and a report, as a scan does. No AWS call; nothing is kept (each round's
 * accumulators are dropped). A schema scan's start stops it where it is.
 */

export interface SchemaWarmUpOptions {
  /** Times the generated scan is read. */
  rounds?: number;
  /** Pages of PAGE_ITEMS items a round reads with the common table shape (4 segments). */
  pages?: number;
  startAfterMs?: number;
  onError?: (message: string) => void;
  schedule?: (step: () => void) => void;
}

/** Measured (docs/PERFORMANCE.md, "session 21, schemascan3"). */
const DEFAULT_ROUNDS = 2;
const DEFAULT_PAGES = 8;
/** After start-up's own work (window, connections, the MCP service). */
const DEFAULT_START_AFTER_MS = 2000;
/** Items per page: one page a step, ~1–5 ms of CPU before the code is compiled. */
export const PAGE_ITEMS = 100;
const SEGMENTS = 4;

const STATUSES = ['NEW', 'PAID', 'SHIPPED', 'CANCELLED'];
const CITIES = ['Madrid', 'Zürich', 'Tromsø', 'São Paulo', '東京', 'Kraków'];

const s = (S: string): AttributeValue => ({ S });
const n = (N: string | number): AttributeValue => ({ N: String(N) });
const b64 = (i: number, length: number): string =>
  Buffer.from(Array.from({ length }, (_, k) => (i * 31 + k * 7) & 255)).toString('base64');

/** A single-table design's user or order, a different mix of every type by `i`. */
export function warmUpItem(i: number): Item {
  const user = `u${(i >> 2).toString(36).padStart(6, '0')}`;
  const at = 1_700_000_000_000 + i * 60_013;
  const iso = new Date(at).toISOString();
  const item: Item = Object.create(null) as Item;
  item.PK = s(`USER#${user}`);
  if (i % 4 === 0) {
    item.SK = s('PROFILE');
    item.type = s('user');
    item.name = s(`User ${i % 97}`);
    item.email = s(`${user}@example.org`);
    item.id = s(
      `${(Math.imul(i, 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    );
    item.createdAt = s(iso);
    item.age = n(18 + (i % 60));
    item.active = { BOOL: i % 3 !== 0 };
    item.avatar = { B: b64(i, 24) };
    item.tags = { SS: ['vip', `t${i % 9}`, `grp-${i % 5}`] };
    item.prefs = {
      M: {
        theme: s(i % 2 ? 'dark' : 'light'),
        langs: { L: [s('en'), s(i % 3 ? 'nb' : 'pt-BR')] },
        notify: { BOOL: i % 5 === 0 },
      },
    };
    item.bio = s(`Lives in ${CITIES[i % CITIES.length]!} — "quoted", a\ttab\nand a line ${i}`);
    item.website = s(`https://example.org/u/${user}?ref=${i}`);
    if (i % 8 === 0) item.deletedAt = { NULL: true };
    defineOwn(item, '__proto__', s('proto'));
    item['address.city'] = s(CITIES[i % CITIES.length]!);
  } else {
    item.SK = s(`ORDER#${i.toString(36).padStart(8, '0')}`);
    item.type = s('order');
    item.status = s(STATUSES[i % STATUSES.length]!);
    item.total = n(i % 7 === 0 ? `-${i}.5` : `${(i * 1373) % 100_000}.${i % 100}`);
    item.placedAt = n(at);
    item.placedAtSeconds = n(Math.round(at / 1000));
    item.shippedOn = s(iso.slice(0, 10));
    item.epochText = s(String(Math.round(at / 1000)));
    item.lines = {
      L: [0, 1, 2].slice(0, 1 + (i % 3)).map((k) => ({
        M: { sku: s(`SKU-${(i * 7 + k) % 997}`), qty: n(1 + k), price: n(`${(i + k) % 500}.99`) },
      })),
    };
    item.scores = { NS: [String(i % 100), '3.25', `-${i % 7}`] };
    item.blobs = { BS: [b64(i, 4), b64(i + 1, 6)] };
    item.meta = s(`{"source":"web","n":${i % 10}}`);
    item.note = s(`Deliver after ${iso.slice(0, 10)}, ref ${i}`);
    item.GSI1PK = s(`STATUS#${STATUSES[i % STATUSES.length]!}`);
    item.GSI1SK = s(iso);
    if (i % 11 === 0) item.big = n('12345678901234567890.123456789');
  }
  return item;
}

/** A Scan's response bytes for `count` items from `first`, as DynamoDB sends them. */
function responseBody(first: number, count: number): Buffer {
  const Items = Array.from({ length: count }, (_, k) => warmUpItem(first + k));
  const last = Items[count - 1]!;
  return Buffer.from(
    JSON.stringify({
      ConsumedCapacity: { TableName: 'warm-up', CapacityUnits: count / 20 },
      Count: count,
      Items,
      LastEvaluatedKey: { PK: last.PK, SK: last.SK },
      ScannedCount: count,
    }),
  );
}

const key = (name: string): KeySchema['partitionKey'] => ({ name, type: 'S' });

interface Shape {
  keys: KeySchema;
  entities: EntitySource;
  indexes?: SchemaTableInfo['indexes'];
  segments: number;
  /** Share of a round's pages this shape reads: the common shape all, the others one. */
  isCommon: boolean;
}

/**
 * The tables a round reads: PK and SK with entities by key prefix (the wire walk, the common
 * case, read by 4 segments), a partition key with entities by a type attribute (the wire walk),
 * and a table with a global index (its synthetic keys read items parsed).
 */
const SHAPES: Shape[] = [
  {
    keys: { partitionKey: key('PK'), sortKey: key('SK') },
    entities: { kind: 'keys' },
    segments: SEGMENTS,
    isCommon: true,
  },
  {
    keys: { partitionKey: key('PK') },
    entities: { kind: 'attribute', name: 'type' },
    segments: 1,
    isCommon: false,
  },
  {
    keys: { partitionKey: key('PK'), sortKey: key('SK') },
    entities: { kind: 'keys' },
    indexes: [{ name: 'GSI1', kind: 'GSI', keys: { partitionKey: key('GSI1PK'), sortKey: key('GSI1SK') } }],
    segments: 1,
    isCommon: false,
  },
];

function tableInfo(shape: Shape, items: number): SchemaTableInfo {
  const indexKeys = Object.create(null) as Record<string, string[]>;
  for (const index of shape.indexes ?? []) {
    indexKeys[index.keys.partitionKey.name] = [index.name];
    if (index.keys.sortKey) indexKeys[index.keys.sortKey.name] = [index.name];
  }
  return {
    table: 'warm-up',
    keys: shape.keys,
    indexKeys,
    itemCount: items,
    sizeBytes: items * 600,
    readItemCount: items,
    ...(shape.indexes ? { indexes: shape.indexes } : {}),
  };
}

/**
 * The steps: each reads one page into a segment's accumulator, or ends a table's scan. Each
 * shape's last accumulators and report go into `kept`, see startSchemaWarmUp.
 */
function* warmUpSteps(rounds: number, pages: number, kept: unknown[]): Generator<void> {
  const bodies: Buffer[] = [];
  for (let p = 0; p < pages; p++) {
    bodies.push(responseBody(p * PAGE_ITEMS, PAGE_ITEMS));
    yield;
  }
  for (let round = 0; round < rounds; round++) {
    for (const shape of SHAPES) {
      const accumulators = Array.from(
        { length: shape.segments },
        () => new SchemaAccumulator({ keys: shape.keys, entities: shape.entities, indexes: shape.indexes }),
      );
      const read = shape.isCommon ? bodies : bodies.slice(round % pages, (round % pages) + 1);
      for (let p = 0; p < read.length; p++) {
        accumulators[p % shape.segments]!.addWire(splitWirePage(read[p]!).items);
        yield;
      }
      // The end of a scan: each segment's state, the checkpoint's copy (save() in analyze.ts),
      // then its report, in steps of their own.
      const states: SchemaState[] = [];
      for (const accumulator of accumulators) {
        states.push(accumulator.toJSON());
        yield;
      }
      const checkpoint: SchemaCheckpoint = JSON.parse(
        JSON.stringify({
          version: 1,
          scanId: 'warm-up',
          table: 'warm-up',
          mode: 'full',
          startedAt: new Date(0).toISOString(),
          totalSegments: shape.segments,
          info: tableInfo(shape, read.length * PAGE_ITEMS),
          entities: shape.entities,
          consumed: read.length * 5,
          pages: read.length,
          throttledRequests: 0,
          segments: states.map((state, segment) => ({ segment, done: true, state })),
        } satisfies SchemaCheckpoint),
      ) as SchemaCheckpoint;
      kept[SHAPES.indexOf(shape)] = [
        accumulators,
        reportOfSchemaCheckpoint(checkpoint, new Date(0).toISOString()),
      ];
      yield;
    }
  }
}

/**
 * Until it is stopped (by a schema scan's start, or shutdown), the warm-up keeps its last
 * accumulators and reports. Compiled code depends on the hidden classes of the objects it saw;
 * once no object of a class is left, a full collection drops the class and the code that
 * depends on it. Measured: one forced full GC between the warm-up and a first scan took that
 * scan from ~9 back to 15–18 µs of CPU per item, kept objects to 11–14 (docs/PERFORMANCE.md).
 */
export function startSchemaWarmUp(options: SchemaWarmUpOptions = {}): IdleWork {
  const kept: unknown[] = [];
  const work = runIdleSteps(
    warmUpSteps(options.rounds ?? DEFAULT_ROUNDS, options.pages ?? DEFAULT_PAGES, kept),
    {
      name: "The schema analysis' warm-up",
      startAfterMs: options.startAfterMs ?? DEFAULT_START_AFTER_MS,
      onError: options.onError,
      schedule: options.schedule,
    },
  );
  return {
    stop: () => {
      work.stop();
      kept.length = 0;
    },
    done: work.done,
  };
}

/** One warm-up per core: started by the desktop app after start-up, stopped by a scan or shutdown. */
const schemaWarmUpSlot: ServiceSlot<IdleWork> = {
  name: 'schemaWarmUp',
  create: () => startSchemaWarmUp({ onError: (message) => console.warn(message) }),
  close: (work) => {
    work.stop();
    return Promise.resolve();
  },
};

export function warmSchemaAnalysis(ctx: CoreContext): IdleWork {
  return ctx.services.get(schemaWarmUpSlot);
}

/** A real scan starts: what is compiled by now is what it runs; the rest is not worth its CPU. */
export function stopSchemaWarmUp(ctx: CoreContext): void {
  ctx.services.running(schemaWarmUpSlot)?.stop();
}
