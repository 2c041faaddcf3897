import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AcknowledgementStore } from '../../src/main/migration/acknowledgements';
import { parseExpectationsFile } from '../../src/main/migration/expectations';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-acks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the acknowledgement store', () => {
  it('keeps who, when and why in the file the CLI reads as an expectations file', async () => {
    const store = new AcknowledgementStore(dir, () => 'maria');
    const saved = await store.acknowledge('conn-1', 'Events', {
      path: 'occurredAt',
      storage: 'iso',
      reason: 'EventModel stores ISO',
    });
    expect(saved.acknowledgements).toEqual([
      expect.objectContaining({
        path: 'occurredAt',
        storage: 'iso',
        by: 'maria',
        reason: 'EventModel stores ISO',
      }),
    ]);
    expect(Number.isNaN(Date.parse(saved.acknowledgements[0]?.at ?? ''))).toBe(false);
    // The same parser as `scan-migration --expectations` reads it, and it names its table.
    const text = await readFile(saved.file, 'utf8');
    expect(parseExpectationsFile(text, saved.file, 'Events')).toEqual(saved.acknowledgements);
    expect(() => parseExpectationsFile(text, saved.file, 'Orders')).toThrow(
      /for the table Events, not Orders/,
    );
    // A new store (a restart) reads the same.
    expect((await new AcknowledgementStore(dir).list('conn-1', 'Events')).acknowledgements).toEqual(
      saved.acknowledgements,
    );
  });

  it('keeps both of two quick acknowledgements, replaces one per path, and withdraws', async () => {
    const store = new AcknowledgementStore(dir, () => 'maria');
    await Promise.all([
      store.acknowledge('c', 'Events', { path: '__proto__', storage: 'iso', reason: 'a' }),
      store.acknowledge('c', 'Events', { path: 'constructor', storage: 'seconds', reason: 'b' }),
    ]);
    await store.acknowledge('c', 'Events', { path: '__proto__', storage: 'millis', reason: 'changed' });
    const list = (await store.list('c', 'Events')).acknowledgements;
    expect(list.map((a) => [a.path, a.storage, a.reason])).toEqual([
      ['constructor', 'seconds', 'b'],
      ['__proto__', 'millis', 'changed'],
    ]);
    const after = await store.withdraw('c', 'Events', '__proto__');
    expect(after.acknowledgements.map((a) => a.path)).toEqual(['constructor']);
    await expect(store.withdraw('c', 'Events', '__proto__')).rejects.toThrow(/No setting at __proto__/);
  });

  it('keeps every connection id inside its folder and refuses names that are not tables', () => {
    const store = new AcknowledgementStore(dir);
    const root = path.join(dir, 'migration', 'acknowledgements');
    for (const id of ['..', '../..', 'a/b', '.', '%2E%2E']) {
      const file = store.file(id, 'Events');
      expect(path.dirname(path.dirname(file))).toBe(root);
      expect(path.basename(file)).toBe('Events.expectations.json');
    }
    // Two ids never share a folder.
    expect(store.file('..', 'Events')).not.toBe(store.file('%2E%2E', 'Events'));
    expect(() => store.file('c', '../x')).toThrow('The table name "../x" is not valid.');
  });
});
