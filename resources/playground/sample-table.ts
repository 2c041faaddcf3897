import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';

/**
 * The playground's sample single-table design, generated deterministically (same items on
 * every machine). Users, their balances, orders and sessions live under `USER#<id>`; payments
 * live under their order, `ORDER#<id>`.
 *
 * - GSI1 is overloaded: `EMAIL#…` finds a user by email, `STATUS#…` lists orders by status and
 *   date, `USER#…` lists a user's payments.
 * - UnprocessedPayments is sparse: only unprocessed payments carry `unprocessedQueue`, so the
 *   index holds exactly the work still to do, oldest first.
 * - Some profiles are "legacy", written the way dynamoose 4.x leaves them: a nested update of
 *   `address.city` stored as a top-level attribute literally named `address.city`, beside an
 *   `address` map that agrees, disagrees, or is missing. Dates are ISO strings in some items
 *   and epoch milliseconds in others.
 * - Numbers with 38 significant digits, binary values and string/number/binary sets appear so
 *   that every DynamoDB type shows up somewhere.
 */
export const SAMPLE_TABLE = 'DynoTableSample';
export const SAMPLE_TTL_ATTRIBUTE = 'expiresAt';

export const sampleTableDefinition: CreateTableCommandInput = {
  TableName: SAMPLE_TABLE,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' },
    { AttributeName: 'SK', AttributeType: 'S' },
    { AttributeName: 'GSI1PK', AttributeType: 'S' },
    { AttributeName: 'GSI1SK', AttributeType: 'S' },
    { AttributeName: 'unprocessedQueue', AttributeType: 'S' },
    { AttributeName: 'unprocessedSince', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'PK', KeyType: 'HASH' },
    { AttributeName: 'SK', KeyType: 'RANGE' },
  ],
  GlobalSecondaryIndexes: [
    {
      IndexName: 'GSI1',
      KeySchema: [
        { AttributeName: 'GSI1PK', KeyType: 'HASH' },
        { AttributeName: 'GSI1SK', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
    {
      IndexName: 'UnprocessedPayments',
      KeySchema: [
        { AttributeName: 'unprocessedQueue', KeyType: 'HASH' },
        { AttributeName: 'unprocessedSince', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    },
  ],
};

const FIRST_NAMES = ['Aiko', 'Ben', 'Chiara', 'Daichi', 'Emma', 'Farid', 'Grace', 'Haruto', 'Ines', 'Jonas', 'Kenji', 'Lena', 'Mei', 'Noah', 'Olga'];
const LAST_NAMES = ['Sato', 'Miller', 'Rossi', 'Tanaka', 'Dubois', 'Haddad', 'Kim', 'Suzuki', 'Silva', 'Berg'];
const CITIES = ['Tokyo', 'Osaka', 'Kyoto', 'Sapporo', 'Fukuoka', 'Berlin', 'Lisbon', 'Toronto'];
const PRODUCTS = [
  ['SKU-TEA-01', 'Sencha tea, 100 g', '12.50'],
  ['SKU-MUG-02', 'Stoneware mug', '18.00'],
  ['SKU-KET-03', 'Cast-iron kettle', '89.90'],
  ['SKU-WHK-04', 'Bamboo whisk', '9.75'],
  ['SKU-BWL-05', 'Matcha bowl', '34.20'],
] as const;
const ORDER_STATUSES = ['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;
const USERS = 40;
const BASE_TIME = Date.UTC(2024, 0, 8, 9, 0, 0);
const DAY = 86_400_000;

/** A tiny deterministic PRNG (LCG): the sample must be identical on every machine. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const s = (value: string): AttributeValue => ({ S: value });
const n = (value: number | string): AttributeValue => ({ N: String(value) });
const iso = (time: number): string => new Date(time).toISOString();
/** How a date was stored depends on which code wrote the item: ISO text (new) or epoch ms (old). */
const dateValue = (time: number, isLegacy: boolean): AttributeValue => (isLegacy ? n(time) : s(iso(time)));

/** The element at `index`, wrapping around; the lists here are constant and never empty. */
function nth<T>(list: readonly T[], index: number): T {
  const value = list[index % list.length];
  if (value === undefined) throw new Error('nth() of an empty list');
  return value;
}

export function sampleItems(): Item[] {
  const rand = random(20240108);
  const pick = <T>(list: readonly T[]): T => nth(list, Math.floor(rand() * list.length));
  const items: Item[] = [];
  let orderNo = 0;
  let paymentNo = 0;

  for (let u = 1; u <= USERS; u++) {
    const userId = `u${u}`;
    const first = nth(FIRST_NAMES, u - 1);
    const last = nth(LAST_NAMES, u * 7);
    const email = `${first.toLowerCase()}.${last.toLowerCase()}${u}@example.com`;
    const created = BASE_TIME + u * 3 * DAY + Math.floor(rand() * DAY);
    const updated = created + Math.floor(rand() * 90) * DAY;
    const isLegacy = u % 3 === 0;
    const city = pick(CITIES);
    const profile: Item = {
      PK: s(`USER#${userId}`),
      SK: s('PROFILE'),
      entity: s('User'),
      userId: s(userId),
      name: s(`${first} ${last}`),
      email: s(email),
      GSI1PK: s(`EMAIL#${email}`),
      GSI1SK: s(`USER#${userId}`),
      createdAt: dateValue(created, isLegacy),
      updatedAt: dateValue(updated, isLegacy || u % 4 === 0),
      marketingOptIn: { BOOL: u % 2 === 0 },
      loyaltyPoints: n(Math.floor(rand() * 5000)),
    };
    const address: Item = {
      street: s(`${1 + Math.floor(rand() * 40)}-${1 + Math.floor(rand() * 20)} Chome`),
      city: s(city),
      postcode: s(String(1_000_000 + u * 1371)),
    };
    if (!isLegacy) {
      profile.address = { M: address };
    } else if (u % 9 === 0) {
      // Only the dotted attribute: the item never had an address map.
      profile['address.city'] = s(city);
    } else if (u % 6 === 0) {
      // They disagree: a later dynamoose update landed beside the map instead of in it.
      profile.address = { M: address };
      profile['address.city'] = s(nth(CITIES, CITIES.indexOf(city) + 1));
    } else {
      profile.address = { M: address };
      profile['address.city'] = s(city);
    }
    if (u % 5 === 0) profile.tags = { SS: ['early-adopter', u % 10 === 0 ? 'wholesale' : 'newsletter'] };
    if (u === 7) profile.nickname = { NULL: true };
    items.push(profile);

    items.push({
      PK: s(`USER#${userId}`),
      SK: s('BALANCE'),
      entity: s('Balance'),
      currency: s('EUR'),
      balance: n((Math.floor(rand() * 250_000) / 100).toFixed(2)),
      version: n(1 + Math.floor(rand() * 40)),
      // A ledger total kept in micro-cents: 38 significant digits, beyond any JS number.
      lifetimeMicroCents: n(u === 1 ? '12345678901234567890123456789012345678' : `${u}${'0'.repeat(20)}${u * 37}`),
      updatedAt: dateValue(updated, isLegacy),
    });

    const orders = 2 + (u % 4);
    for (let k = 0; k < orders; k++) {
      const orderId = `o${++orderNo}`;
      const placed = created + (k + 1) * 5 * DAY + Math.floor(rand() * DAY);
      const status = nth(ORDER_STATUSES, u + k);
      let cents = 0;
      const lines = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        const [sku, title, price] = pick(PRODUCTS);
        const qty = 1 + Math.floor(rand() * 3);
        cents += qty * Math.round(Number(price) * 100);
        return { M: { sku: s(sku), title: s(title), qty: n(qty), price: n(price) } };
      });
      const total = (cents / 100).toFixed(2);
      items.push({
        PK: s(`USER#${userId}`),
        SK: s(`ORDER#${orderId}`),
        entity: s('Order'),
        orderId: s(orderId),
        status: s(status),
        total: n(total),
        currency: s('EUR'),
        lines: { L: lines },
        GSI1PK: s(`STATUS#${status}`),
        GSI1SK: s(`${iso(placed)}#ORDER#${orderId}`),
        createdAt: dateValue(placed, isLegacy || k % 3 === 2),
      });
      if (status === 'CANCELLED') continue;
      const paymentId = `p${++paymentNo}`;
      const isProcessed = status !== 'PENDING' && paymentNo % 7 !== 0;
      const payment: Item = {
        PK: s(`ORDER#${orderId}`),
        SK: s(`PAYMENT#${paymentId}`),
        entity: s('Payment'),
        paymentId: s(paymentId),
        userId: s(userId),
        amount: n(total),
        currency: s('EUR'),
        method: s(pick(['card', 'bank-transfer', 'konbini'])),
        status: s(isProcessed ? 'PROCESSED' : 'UNPROCESSED'),
        GSI1PK: s(`USER#${userId}`),
        GSI1SK: s(`PAYMENT#${iso(placed)}`),
        createdAt: dateValue(placed + 60_000, isLegacy),
      };
      if (isProcessed) {
        payment.processedAt = dateValue(placed + 3_600_000, isLegacy);
        const signature = Buffer.from(Array.from({ length: 16 }, () => Math.floor(rand() * 256)));
        payment.receiptSignature = { B: signature.toString('base64') };
      } else {
        payment.unprocessedQueue = s('PAYMENTS');
        payment.unprocessedSince = s(iso(placed + 60_000));
        if (paymentNo % 2 === 0) payment.retryDelaysMs = { NS: ['1000', '4000', '16000'] };
      }
      items.push(payment);
    }

    if (u % 2 === 1) {
      const device = (seed: number): string => Buffer.from(`device-${userId}-${seed}`).toString('base64');
      items.push({
        PK: s(`USER#${userId}`),
        SK: s(`SESSION#s${u}`),
        entity: s('Session'),
        startedAt: s(iso(updated)),
        // TTL attribute, epoch seconds; far in the future so the sample does not vanish.
        [SAMPLE_TTL_ATTRIBUTE]: n(Math.floor(Date.UTC(2035, 0, 1) / 1000) + u * 3600),
        deviceFingerprints: { BS: [device(1), device(2)] },
      });
    }
  }
  return items;
}
