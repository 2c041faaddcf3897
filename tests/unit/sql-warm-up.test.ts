import { describe, expect, it } from 'vitest';
import type { FromWorker } from '../../src/main/sql/worker/protocol';
import { startWarmUp, WARM_UP_STATEMENTS } from '../../src/main/sql/worker/warm-up';
import { SqlWorkerHost } from '../../src/main/sql/worker/worker-host';
import { manualSchedule } from '../support/manual-schedule';

describe('the SQL worker warm-up', () => {
  it('runs every statement of every round over its generated tables without a failure', async () => {
    // A statement that failed would end the warm-up early, so the steps taken say all ran.
    const rounds = 2;
    const steps = await startWarmUp({ rows: 300, rounds, startAfterMs: 0 }).done;
    expect(steps).toBe(1 + rounds * WARM_UP_STATEMENTS.length);
  });

  it('reports a failing statement once, with a sentence naming it, and ends without stopping the worker', async () => {
    const reported: string[] = [];
    const failing = 'SELECT COUNT(*) AS n FROM nowhere';
    const warmUp = startWarmUp({
      rows: 200,
      rounds: 3,
      startAfterMs: 0,
      statements: [WARM_UP_STATEMENTS[1]!, failing],
      onError: (message) => reported.push(message),
    });
    const posted: FromWorker[] = [];
    const host = new SqlWorkerHost((message) => posted.push(message), warmUp);
    // The tables, the first statement, then the failing one: nothing after it.
    expect(await warmUp.done).toBe(3);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(`The SQL worker's warm-up failed running ${failing}`);
    expect(reported[0]).toContain('There is no table or entity view called "nowhere"');
    // The worker answers as before.
    host.handle({ kind: 'call', id: 1, call: { op: 'cacheList', connectionId: 'c' } });
    await expect.poll(() => posted.filter((m) => m.kind === 'result').length).toBe(1);
    expect(posted[0]).toMatchObject({ kind: 'result', id: 1, ok: true });
  });

  it('reports nothing when every step runs', async () => {
    const reported: string[] = [];
    await startWarmUp({ rows: 200, rounds: 1, startAfterMs: 0, onError: (m) => reported.push(m) }).done;
    expect(reported).toEqual([]);
  });

  it('takes one step per turn of the event loop and none after it is stopped', async () => {
    const { schedule, turn } = manualSchedule();
    const warmUp = startWarmUp({ rows: 200, rounds: 3, startAfterMs: 0 }, schedule);
    turn(); // the tables
    turn(); // the first statement
    warmUp.stop();
    turn(); // sees the stop and ends
    expect(turn()).toBe(false);
    expect(await warmUp.done).toBe(2);
  });

  it('waits a moment before its first step: a statement asked for as the worker starts finds none done', async () => {
    const warmUp = startWarmUp({ rows: 200, rounds: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    warmUp.stop();
    expect(await warmUp.done).toBe(0);
  });

  it('is ended by the first statement the worker is asked to plan or run, not by other calls', async () => {
    const { schedule, turn } = manualSchedule();
    const warmUp = startWarmUp({ rows: 200, rounds: 3, startAfterMs: 0 }, schedule);
    const posted: FromWorker[] = [];
    const host = new SqlWorkerHost((message) => posted.push(message), warmUp);
    turn();
    host.handle({ kind: 'call', id: 1, call: { op: 'cacheList', connectionId: 'c' } });
    turn();
    const connection = { id: 'c', version: 1, region: 'us-east-1', endpoint: 'http://127.0.0.1:9' };
    // Not SQL: refused by the parser before any request, and the warm-up is over all the same.
    host.handle({ kind: 'call', id: 2, call: { op: 'plan', connection, sql: 'SELEKT 1', views: [] } });
    while (turn());
    expect(await warmUp.done).toBe(2);
    await expect.poll(() => posted.filter((m) => m.kind === 'result').length).toBe(2);
    expect(posted.find((m) => m.kind === 'result' && m.id === 2)).toMatchObject({ ok: false });
  });
});
