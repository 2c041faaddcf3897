import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ResultSetStore } from '../../../src/main/resultsets/types';
import { createResultSetStore, WORKER_CRASHED } from '../../../src/main/resultsets/store';

const meta = { connectionId: 'c1', table: 'Orders', keyAttributes: ['PK'] };
let store: ResultSetStore | undefined;

/** Every thread of this process with its nice value (Linux: a nice value belongs to one thread). */
const niceOf = (): Map<number, number> =>
  new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    }),
  );
/** Threads started since `before` that run the worker's code (it lowers its own priority). */
const workersSince = (before: Map<number, number>): number[] =>
  [...niceOf()].filter(([tid, nice]) => !before.has(tid) && nice === 10).map(([tid]) => tid);

afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('createResultSetStore (worker thread)', () => {
  it('keeps items in the worker and answers windows with typed values intact', async () => {
    store = createResultSetStore();
    const id = await store.create(meta);
    const items = Array.from({ length: 250 }, (_, i) => ({
      PK: { S: `ITEM#${i}` },
      amount: { N: `${i}12345678901234567890123456789012345.5` },
      ...(i % 2 === 0 ? { even: { BOOL: true } } : {}),
    }));
    expect(await store.append(id, items.slice(0, 100))).toBe(100);
    expect(await store.append(id, items.slice(100))).toBe(250);
    const window = await store.window(id, 120, 5);
    expect(window).toEqual({
      total: 250,
      offset: 120,
      rows: items.slice(120, 125),
      columns: ['PK', 'amount', 'even'],
      viewKeys: ['PK'],
    });
    expect(await store.drop(id)).toBe(true);
    await expect(store.window(id, 0, 1)).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('appends raw response bodies in chunks, page after page, through the buffers the worker hands back', async () => {
    store = createResultSetStore();
    const id = await store.create(meta);
    const page = (from: number, count: number, padding: number): Buffer =>
      Buffer.from(
        JSON.stringify({
          Items: Array.from({ length: count }, (_, i) => ({
            PK: { S: `ITEM#${from + i}` },
            note: { S: `ü${'x'.repeat(padding)}` },
          })),
          Count: count,
          LastEvaluatedKey: { PK: { S: `ITEM#${from + count - 1}` } },
        }),
      );
    // A big page first, then smaller ones that reuse its buffer: stale bytes past a page must not show.
    const pages = [page(0, 300, 3000), page(300, 5, 10), page(305, 1, 0)];
    let total = 0;
    for (const body of pages) {
      const cut = Math.floor(body.length / 3);
      const appended = await store.appendWire(id, [body.subarray(0, cut), body.subarray(cut)]);
      total = appended.total;
      expect(appended.rest['LastEvaluatedKey']).toEqual({ PK: { S: `ITEM#${total - 1}` } });
    }
    expect(total).toBe(306);
    const window = await store.window(id, 298, 10);
    const rows = window.rows as unknown as { PK: { S: string }; note: { S: string } }[];
    expect(rows.map((row) => [row.PK.S, row.note.S.length])).toEqual([
      ['ITEM#298', 3001],
      ['ITEM#299', 3001],
      ...[300, 301, 302, 303, 304].map((i) => [`ITEM#${i}`, 11]),
      ['ITEM#305', 1],
    ]);
  });

  it('runs its worker thread below normal CPU priority and leaves the main thread alone (Linux)', async () => {
    const before = niceOf();
    store = createResultSetStore();
    await store.create(meta);
    expect(workersSince(before)).toHaveLength(1);
    // The main thread keeps the nice value it started with (0 unless the run itself is niced).
    expect(niceOf().get(process.pid)).toBe(before.get(process.pid));
  });

  it('starts its worker on warm(), before any call, and the first call is answered by that worker', async () => {
    const before = niceOf();
    store = createResultSetStore();
    store.warm();
    store.warm();
    // The thread has started and loaded its code with no call made (it lowers its priority last).
    await vi.waitFor(() => expect(workersSince(before)).toHaveLength(1), { timeout: 30_000 });
    const [warmed] = workersSince(before);
    const id = await store.create(meta);
    expect(await store.append(id, [{ PK: { S: 'a' } }])).toBe(1);
    expect(workersSince(before)).toEqual([warmed]);
  });

  it('starts nothing on warm() once closed', async () => {
    const before = niceOf();
    store = createResultSetStore();
    await store.close();
    store.warm();
    await expect(store.create(meta)).rejects.toThrow(/closed/);
    expect(workersSince(before)).toEqual([]);
  });

  it('answers concurrent calls each with its own response', async () => {
    store = createResultSetStore();
    const ids = await Promise.all([store.create(meta), store.create(meta), store.create(meta)]);
    await Promise.all(
      ids.map((id, i) =>
        store!.append(
          id,
          Array.from({ length: i + 1 }, (_, j) => ({ PK: { S: `${i}-${j}` } })),
        ),
      ),
    );
    const windows = await Promise.all(ids.map((id) => store!.window(id, 0, 10)));
    expect(windows.map((w) => w.total)).toEqual([1, 2, 3]);
  });

  it('fails waiting calls clearly when the worker crashes, then restarts it', async () => {
    store = createResultSetStore({
      workerFile: path.resolve(__dirname, '../../fixtures/resultsets/crashing-worker.ts'),
    });
    const before = await store.create(meta);
    await store.append(before, [{ PK: { S: 'a' } }]);

    const crash = store.drop('crash-now');
    await expect(crash).rejects.toMatchObject({ code: WORKER_CRASHED, retryable: true });
    await expect(crash).rejects.toThrow(
      /stopped unexpectedly: simulated worker failure.*run the query again/,
    );

    // The next call starts a fresh worker: new result sets work, old ids are gone and say so.
    const after = await store.create(meta);
    expect(await store.append(after, [{ PK: { S: 'b' } }])).toBe(1);
    await expect(store.window(before, 0, 1)).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('refuses calls after close', async () => {
    store = createResultSetStore();
    await store.create(meta);
    await store.close();
    await expect(store.create(meta)).rejects.toThrow(/closed/);
  });
});
