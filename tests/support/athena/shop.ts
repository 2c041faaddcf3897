import type { AttributeValue, Item } from '../../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../../src/shared/sql/catalog';
import { tableInfo } from '../../../src/main/sql/executor/run-local';
import { SchemaAccumulator } from '../../../src/main/schema/accumulator';
import { attributeOf } from '../../../src/main/schema/report';
import { exportSchemaOf, type AttrNode } from '../../../src/main/athena/export-schema';

/**
 * A single-table design with what makes Athena translation hard: a price that is sometimes a
 * number and sometimes a string, dates as ISO text and as epoch milliseconds, NULL next to
 * missing, negative decimals, a map, a list of maps, a string set, a top-level name with a dot,
 * and an attribute called `select`. Numbers are written as DynamoDB stores and exports them:
 * normalized, without trailing zeros.
 */
const S = (s: string): AttributeValue => ({ S: s });
const N = (n: string): AttributeValue => ({ N: n });

function user(id: string, name: string, extra: Item = {}): Item {
  return { PK: S(`USER#${id}`), SK: S('PROFILE'), name: S(name), ...extra };
}

function order(
  userId: string,
  id: string,
  total: string,
  status: string,
  createdAt: AttributeValue,
  extra: Item = {},
): Item {
  return {
    PK: S(`USER#${userId}`),
    SK: S(`ORDER#${id}`),
    orderId: S(id),
    total: N(total),
    status: S(status),
    createdAt,
    ...extra,
  };
}

export const SHOP_ITEMS: Item[] = [
  user('u1', 'Ada', {
    email: S('ada@example.com'),
    address: { M: { city: S('London'), zip: S('N1') } },
    'address.city': S('Paris'),
    tags: { SS: ['vip', 'beta'] },
  }),
  user('u2', 'Grace', {
    email: { NULL: true },
    address: { M: { city: S('Arlington') } },
    tags: { SS: ['beta'] },
  }),
  user('u3', 'Linus', { select: S('yes') }),
  user('u4', 'Édith', {
    email: S('edith@example.fr'),
    address: { M: { city: S('Paris'), zip: N('75001') } },
  }),
  order('u1', 'o1', '120.5', 'PAID', S('2024-03-05T10:11:12.345Z'), {
    qty: N('2'),
    price: N('60.25'),
    paid: { BOOL: true },
    lines: { L: [{ M: { sku: S('A-1'), qty: N('1') } }, { M: { sku: S('B-2'), qty: N('1') } }] },
  }),
  order('u1', 'o2', '-15.75', 'REFUNDED', N('1709633472345'), {
    qty: N('1'),
    price: S('15.75'),
    paid: { BOOL: false },
    note: { NULL: true },
  }),
  order('u1', 'o3', '0.1', 'PAID', S('2024-01-31T23:59:59Z'), {
    qty: N('3'),
    price: N('0.1'),
    paid: { BOOL: true },
    note: S('gift wrap'),
  }),
  order('u2', 'o4', '999.999999999', 'SHIPPED', S('2023-12-31T08:00:00Z'), {
    qty: N('10'),
    price: S('n/a'),
    lines: { L: [{ M: { sku: S('C-3'), qty: N('10') } }] },
  }),
  order('u2', 'o5', '42', 'PAID', N('1704067200000'), { qty: N('1'), price: N('42'), paid: { BOOL: true } }),
  order('u3', 'o6', '0.2', 'CANCELLED', S('2024-02-29T12:00:00.000Z'), {
    qty: N('5'),
    note: S('50% off_today'),
  }),
  order('u4', 'o7', '1234567.891', 'PAID', S('2024-06-15'), {
    qty: N('7'),
    price: N('176366.841571428'),
    paid: { BOOL: true },
  }),
  order('u4', 'o8', '-0.001', 'SHIPPED', N('1718409600000'), {
    qty: N('0'),
    price: N('-0.001'),
    paid: { BOOL: false },
  }),
  { PK: S('SKU#A-1'), SK: S('META'), title: S('Anvil'), price: N('60.25'), stock: N('12') },
  { PK: S('SKU#B-2'), SK: S('META'), title: S('Bucket'), price: N('15.75'), stock: N('0') },
];

export const SHOP_TABLE = tableInfo('Shop', 'PK', 'SK');

export const SHOP_VIEWS: EntityView[] = [
  {
    name: 'users',
    table: 'Shop',
    source: 'detected',
    conditions: [
      { attribute: 'PK', op: 'begins_with', values: [S('USER#')] },
      { attribute: 'SK', op: '=', values: [S('PROFILE')] },
    ],
  },
  {
    name: 'orders',
    table: 'Shop',
    source: 'detected',
    conditions: [{ attribute: 'SK', op: 'begins_with', values: [S('ORDER#')] }],
  },
  {
    name: 'products',
    table: 'Shop',
    source: 'detected',
    conditions: [{ attribute: 'PK', op: 'begins_with', values: [S('SKU#')] }],
  },
];

/** The export's schema as the Schema view's analysis observes it (the same accumulator, every item). */
export function observedSchema(items: readonly Item[]): AttrNode {
  const accumulator = new SchemaAccumulator({ keys: SHOP_TABLE.keys, entities: { kind: 'keys' } });
  accumulator.addAll(items);
  const { all } = accumulator.groups();
  return exportSchemaOf([...all.values()].map((p) => attributeOf(p, items.length)));
}
