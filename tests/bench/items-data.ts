import type { Item } from '../../src/shared/dynamo/attribute-value';

const words =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(
    ' ',
  );

/** A deterministic order-like item of about 1 KB, with numbers, binary, a set, a map and a list. */
export function benchItem(i: number): Item {
  let seed = i * 2_654_435_761;
  const next = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  let text = '';
  while (text.length < 560) text += `${words[Math.floor(next() * words.length)] ?? 'x'} `;
  const signature = Buffer.alloc(48);
  for (let b = 0; b < signature.length; b++) signature[b] = Math.floor(next() * 256);
  return {
    PK: { S: `USER#u${(i % 50_000).toString().padStart(6, '0')}` },
    SK: { S: `ORDER#${i.toString(36).padStart(10, '0')}` },
    GSI1PK: { S: `STATUS#${['NEW', 'PAID', 'SHIPPED'][i % 3] ?? 'NEW'}` },
    GSI1SK: { S: new Date(1_700_000_000_000 + i * 60_000).toISOString() },
    entity: { S: 'Order' },
    total: { N: `${(i % 100_000) / 100 + 0.01}` },
    exact: { N: `1234567890123456789012345678901234${String(i % 10_000).padStart(4, '0')}` },
    currency: { S: 'EUR' },
    createdAt: { N: String(1_700_000_000_000 + i * 60_000) },
    signature: { B: signature.toString('base64') },
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
