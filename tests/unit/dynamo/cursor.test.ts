import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/main/dynamo/cursor';

const key = {
  PK: { N: '12345678901234567890123456789012345678' },
  SK: { B: Buffer.from([0, 255, 7]).toString('base64') },
  GSI1PK: { S: 'STATUS#NEW' },
};

describe('read cursors', () => {
  it('round-trips typed key values exactly, as a URL-safe opaque string', () => {
    const text = encodeCursor({ table: 'Orders', index: 'GSI1', key, scanned: 1500 });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text, { table: 'Orders', index: 'GSI1' })).toEqual({
      table: 'Orders',
      index: 'GSI1',
      key,
      scanned: 1500,
    });
  });

  it('refuses a cursor from another table or index with a sentence', () => {
    const text = encodeCursor({ table: 'Orders', key, scanned: 0 });
    expect(() => decodeCursor(text, { table: 'Users' })).toThrow(/belongs to Orders, not Users/);
    expect(() => decodeCursor(text, { table: 'Orders', index: 'GSI1' })).toThrow(/not Orders \(index GSI1\)/);
  });

  it('refuses damaged or foreign cursors as invalid input', () => {
    for (const bad of ['', 'not base64!', Buffer.from('{"v":2}').toString('base64url'), 'x'.repeat(20_000)]) {
      expect(() => decodeCursor(bad, { table: 'Orders' })).toThrow(
        expect.objectContaining({ code: 'InvalidInput' }),
      );
    }
    const wrongValue = Buffer.from(
      JSON.stringify({ v: 1, table: 'Orders', key: { PK: { N: 12 } }, scanned: 0 }),
    ).toString('base64url');
    expect(() => decodeCursor(wrongValue, { table: 'Orders' })).toThrow(/damaged/);
  });
});
