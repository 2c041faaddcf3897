import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../src/shared/sql/catalog';
import { type LocalRun, runLocal, tableInfo } from '../../src/main/sql/engine/run-local';
import { toTagged } from '../../src/main/sql/values/value';

/**
 * A small single-table design with everything DynamoDB allows and SQL users trip over:
 * missing attributes, one attribute with different types, nested maps, lists, sets, 38-digit
 * numbers, ISO and epoch dates, orders whose user does not exist. Expected results in the
 * tests are computed from these arrays with plain loops, never by the engine.
 */
export const BIG = '12345678901234567890123456789012345678';

const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string | number): AttributeValue => ({ N: String(n) });

export const users: Item[] = Array.from({ length: 12 }, (_, k) => {
  const n = k + 1;
  const item: Item = { PK: S(`USER#u${n}`), SK: S(`USER#u${n}`), userId: S(`u${n}`), name: S(`User ${n % 5}`), age: N(20 + n) };
  if (n === 5) delete item.name;
  if (n === 7) item.name = N(7);
  if (n === 9) delete item.age;
  if (n % 3 !== 0) item.address = { M: { city: S(n % 2 ? 'Oslo' : 'Bergen'), zip: S(`0${n}00`), geo: { M: { lat: N(`59.${n}1`) } } } };
  if (n === 2) item['address.city'] = S('Literal dotted name');
  if (n % 4 === 0) item.tags = { SS: ['vip', `t${n}`] };
  if (n % 5 === 0) item.scores = { NS: ['1', '2.5', `${n}`] };
  if (n % 2 === 0) item.favorites = { L: [S(`fav${n}`), N(n), { M: { kind: S('nested') } }] };
  if (n === 11) item.active = { BOOL: false };
  if (n === 12) item.deleted = { NULL: true };
  return item;
});

const STATUSES = ['NEW', 'PAID', 'SHIPPED', 'PAID'];
export const orders: Item[] = Array.from({ length: 40 }, (_, k) => {
  const n = k + 1;
  const userNo = (n % 14) + 1; // u13 and u14 do not exist
  const cents = (n * 7919) % 10_000;
  const item: Item = {
    PK: S(`USER#u${userNo}`),
    SK: S(`ORDER#o${String(n).padStart(3, '0')}`),
    orderId: S(`o${n}`),
    userId: S(`u${userNo}`),
    amount: N(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`),
    status: S(STATUSES[n % 4]!),
    createdAt: n % 6 === 0 ? N(Date.UTC(2024, n % 12, 1 + (n % 27), 10)) : S(new Date(Date.UTC(2024, n % 12, 1 + (n % 27), 10)).toISOString()),
    lines: { L: [{ M: { sku: S(`sku${n % 3}`), qty: N(1 + (n % 4)) } }, { M: { sku: S('gift'), qty: N(1) } }] },
  };
  if (n === 7) item.amount = S('n/a');
  if (n === 9) delete item.amount;
  if (n === 11) item.amount = N(BIG);
  if (n === 13) item.amount = N('-0.5');
  if (n === 17) delete item.status;
  return item;
});

export const payments: Item[] = Array.from({ length: 20 }, (_, k) => {
  const n = k + 1;
  return { PK: S(`ORDER#o${n * 2}`), SK: S(`PAYMENT#p${n}`), orderId: S(`o${n * 2}`), paid: N(n % 3 === 0 ? '1E+2' : `${n}.5`) };
});

export const allItems: Item[] = [...users, ...orders, ...payments];

const view = (name: string, prefix: string): EntityView => ({
  name,
  table: 'Shop',
  conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: prefix }] }],
  source: 'detected',
});
export const views: EntityView[] = [view('users', 'USER#'), view('orders', 'ORDER#'), view('payments', 'PAYMENT#')];
export const shop = { info: tableInfo('Shop', 'PK', 'SK', { itemCount: allItems.length, sizeBytes: 20_000 }), items: allItems };

export function run(sql: string): LocalRun {
  return runLocal(sql, [shop], views, Date.UTC(2024, 5, 15, 12));
}

/** Result rows as plain JS: strings, number text, booleans, null, arrays, objects. */
export function rows(sql: string): unknown[][] {
  return run(sql).rows.map((row) => row.map((v) => plain(toTagged(v))));
}

export function plain(v: AttributeValue | undefined): unknown {
  if (v === undefined || 'NULL' in v) return null;
  if ('S' in v) return v.S;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return v.BOOL;
  if ('B' in v) return v.B;
  if ('L' in v) return v.L.map(plain);
  if ('M' in v) return Object.fromEntries(Object.entries(v.M).map(([k, x]) => [k, plain(x)]));
  if ('SS' in v) return v.SS;
  if ('NS' in v) return v.NS;
  return v.BS;
}

/** Attribute as plain JS (numbers stay text), undefined when missing. */
export function get(item: Item, name: string): unknown {
  const v = item[name];
  return v === undefined ? undefined : plain(v);
}

/** Exact decimal text → BigInt scaled by 10^60, written independently of the engine's decimals. */
export function scaled(text: string): bigint {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a number: ${text}`);
  const [, sign, whole = '', fraction = '', exp = '0'] = m;
  const shift = 60 + Number(exp) - fraction.length;
  let digits = BigInt((whole + fraction) || '0');
  if (shift >= 0) digits *= 10n ** BigInt(shift);
  else digits /= 10n ** BigInt(-shift);
  return sign === '-' ? -digits : digits;
}

export const isNumberText = (v: unknown): v is string => typeof v === 'string' && /^-?\d/.test(v);
export const byUser = new Map(users.map((u) => [get(u, 'userId') as string, u]));
