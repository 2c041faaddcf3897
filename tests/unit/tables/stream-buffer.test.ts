import { describe, expect, it } from 'vitest';
import {
  emptyBuffer,
  matches,
  MAX_RECORDS,
  receive,
  release,
} from '../../../src/renderer/features/streams/buffer';
import type { StreamRecord } from '../../../src/shared/ipc/stream-record';

const record = (i: number, eventName: StreamRecord['eventName'] = 'INSERT'): StreamRecord => ({
  eventId: `e${i}`,
  eventName,
  sequenceNumber: String(i),
  keys: { pk: { S: `order-${i}` }, sk: { N: String(i) } },
  shardId: 'shard-1',
});

describe('the stream tail buffer', () => {
  it('shows newest first and never keeps more than the bound, counting what it let go', () => {
    let buffer = emptyBuffer();
    for (let i = 0; i < MAX_RECORDS + 120; i += 20)
      buffer = receive(
        buffer,
        Array.from({ length: 20 }, (_, j) => record(i + j)),
        false,
      );
    expect(buffer.shown).toHaveLength(MAX_RECORDS);
    expect(buffer.shown[0]?.eventId).toBe(`e${MAX_RECORDS + 119}`);
    expect(buffer.received).toBe(MAX_RECORDS + 120);
    expect(buffer.dropped).toBe(120);
  });

  it('holds records while paused, bounded too, and shows them on resume in order', () => {
    let buffer = receive(emptyBuffer(), [record(1)], false);
    buffer = receive(buffer, [record(2), record(3)], true);
    expect(buffer.shown.map((r) => r.eventId)).toEqual(['e1']);
    expect(buffer.held).toHaveLength(2);
    buffer = release(buffer);
    expect(buffer.shown.map((r) => r.eventId)).toEqual(['e3', 'e2', 'e1']);
    expect(buffer.held).toEqual([]);
    expect(buffer.received).toBe(3);
    const flooded = receive(
      emptyBuffer(),
      Array.from({ length: MAX_RECORDS + 5 }, (_, i) => record(i)),
      true,
    );
    expect(flooded.held).toHaveLength(MAX_RECORDS);
    expect(flooded.dropped).toBe(5);
  });

  it('filters by event type and by text in any key value, not in the type tags', () => {
    const all = new Set(['INSERT', 'MODIFY', 'REMOVE'] as const);
    expect(matches(record(7, 'REMOVE'), new Set(['INSERT'] as const), '')).toBe(false);
    expect(matches(record(7), all, 'ORDER-7')).toBe(true);
    expect(matches(record(7), all, '7')).toBe(true);
    // "S" and "N" are DynamoDB's type tags, not key text.
    expect(matches(record(7), all, 'S')).toBe(false);
  });
});
