import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';

/**
 * A single-table design like the playground's, at benchmark scale: one user per ten items and
 * nine orders per user, ~1 KB per item (a description makes up the bulk, as free text does in
 * real items). Pages come as JSON text, the way DynamoDB's responses arrive, so parsing and
 * ingest cost the same as in the real fetch path.
 */
export type SdkItem = Record<string, SdkValue>;

const STATUSES = ['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];
const COUNTRIES = ['NO', 'SE', 'DK', 'FI', 'DE', 'FR', 'ES', 'IT', 'NL', 'PL', 'US', 'CA'];
const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );

let pool = '';
{
  let x = 12345;
  while (pool.length < 1 << 20) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pool += `${WORDS[x % WORDS.length]} `;
  }
}

/** Free text; JSON.parse of the page makes every item's copy its own string, as in a real fetch. */
function text(seed: number, length: number): string {
  const start = (seed * 7919) % (pool.length - length);
  return pool.slice(start, start + length);
}

export function makeItem(i: number, users: number): SdkItem {
  const userNo = i % 10 === 0 ? i / 10 : Math.floor(i / 10);
  const userId = `u${String(userNo % users).padStart(7, '0')}`;
  if (i % 10 === 0) {
    return {
      PK: { S: `USER#${userId}` },
      SK: { S: `USER#${userId}` },
      type: { S: 'USER' },
      userId: { S: userId },
      name: { S: `Customer ${userNo % 5000}` },
      email: { S: `${userId}@example.com` },
      country: { S: COUNTRIES[userNo % COUNTRIES.length]! },
      createdAt: { S: new Date(Date.UTC(2023, 0, 1) + (i % 365) * 86_400_000).toISOString() },
      address: { M: { city: { S: `City ${userNo % 300}` }, zip: { S: String(10000 + (userNo % 9000)) } } },
      bio: { S: text(i, 820) },
    };
  }
  const cents = (i * 7919) % 100_000;
  return {
    PK: { S: `USER#${userId}` },
    SK: { S: `ORDER#o${String(i).padStart(8, '0')}` },
    type: { S: 'ORDER' },
    userId: { S: userId },
    orderId: { S: `o${i}` },
    amount: { N: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` },
    quantity: { N: String(1 + (i % 5)) },
    status: { S: STATUSES[i % STATUSES.length]! },
    createdAt: { S: new Date(Date.UTC(2024, 0, 1) + (i % 10_000) * 3_600_000).toISOString() },
    tags: { L: [{ S: 'web' }, { S: i % 3 === 0 ? 'promo' : 'regular' }] },
    note: { S: text(i, 760) },
  };
}

/** Pages of `pageSize` items as DynamoDB-style JSON text. */
export function* pages(count: number, pageSize = 1000): Generator<string> {
  const users = Math.ceil(count / 10);
  for (let start = 0; start < count; start += pageSize) {
    const items: SdkItem[] = [];
    for (let i = start; i < Math.min(count, start + pageSize); i++) items.push(makeItem(i, users));
    yield JSON.stringify({ Items: items });
  }
}

/**
 * The two-table shape: `customers` (customerId, name, country) and `orders` (orderId, customerId,
 * status, total), ~150 bytes an item, each order naming a customer spread over all of them.
 */
export function twoTablePages(
  orders: number,
  customers: number,
  pageSize = 1000,
): { customers: () => Generator<string>; orders: () => Generator<string> } {
  const customerId = (c: number): string => `c${String(c).padStart(7, '0')}`;
  function* customerPages(): Generator<string> {
    for (let start = 0; start < customers; start += pageSize) {
      const items: SdkItem[] = [];
      for (let c = start; c < Math.min(customers, start + pageSize); c++)
        items.push({
          customerId: { S: customerId(c) },
          name: { S: `Customer ${c}` },
          country: { S: COUNTRIES[(c * 31) % COUNTRIES.length]! },
        });
      yield JSON.stringify({ Items: items });
    }
  }
  function* orderPages(): Generator<string> {
    for (let start = 0; start < orders; start += pageSize) {
      const items: SdkItem[] = [];
      for (let i = start; i < Math.min(orders, start + pageSize); i++) {
        const cents = (i * 7919) % 100_000;
        items.push({
          orderId: { S: `o${String(i).padStart(8, '0')}` },
          customerId: { S: customerId((i * 48271) % customers) },
          status: { S: STATUSES[i % STATUSES.length]! },
          total: { N: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` },
        });
      }
      yield JSON.stringify({ Items: items });
    }
  }
  return { customers: customerPages, orders: orderPages };
}
