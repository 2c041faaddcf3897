import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/main/core/events';
import { OperationRegistry } from '../../src/main/core/operations';
import { RunningJobs } from '../../src/main/core/running-jobs';
import type { OperationEvent } from '../../src/shared/ipc';

const progress = { items: 0, pages: 0, consumedCapacity: 0 };

function jobs() {
  const bus = new EventBus();
  const operations = new OperationRegistry(bus);
  const ends = new Map<string, OperationEvent>();
  bus.subscribe((event) => {
    if (event.type === 'done' || event.type === 'cancelled' || event.type === 'error')
      ends.set(event.requestId, event);
  });
  /** Work that runs until `finish` is called. */
  const held = () => {
    let finish: () => void = () => undefined;
    const work = () =>
      new Promise<{ progress: typeof progress }>((resolve) => (finish = () => resolve({ progress })));
    return { work, finish: () => finish() };
  };
  return { running: new RunningJobs(operations), operations, ends, held };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the one list of running jobs', () => {
  it('lists two jobs once each, refuses a second run of either, and forgets each when it ends', async () => {
    const { running, ends, held } = jobs();
    const scan = held();
    const copy = held();
    running.start(
      { kind: 'preflight', id: 'scan_1', requestId: 'req-scan-1', busy: 'That scan is still running.' },
      scan.work,
    );
    running.start(
      { kind: 'copy', id: 'copy_1', requestId: 'req-copy-1', busy: 'The copy is running.' },
      copy.work,
    );
    await settle();

    expect(running.list().map((j) => [j.kind, j.id, j.requestId])).toEqual([
      ['preflight', 'scan_1', 'req-scan-1'],
      ['copy', 'copy_1', 'req-copy-1'],
    ]);
    // A resume of a running job, under a new request id, is refused with the job's own sentence.
    expect(() =>
      running.start(
        { kind: 'preflight', id: 'scan_1', requestId: 'req-scan-2', busy: 'That scan is still running.' },
        held().work,
      ),
    ).toThrow('That scan is still running.');
    expect(running.list()).toHaveLength(2);
    // The same id of another kind is another job.
    expect(running.isRunning('schema', 'scan_1')).toBe(false);

    scan.finish();
    await settle();
    expect(ends.get('req-scan-1')?.type).toBe('done');
    expect(running.list('preflight')).toEqual([]);
    expect(running.isRunning('copy', 'copy_1')).toBe(true);
    copy.finish();
    await settle();
    expect(running.list()).toEqual([]);
  });

  it('forgets a job whose operation could not start, so it can be resumed', async () => {
    const { running, operations, held } = jobs();
    const other = held();
    // The request id is taken by other work: the registry refuses the start.
    operations.start('req-taken-1', other.work);
    expect(() =>
      running.start(
        { kind: 'fix', id: 'plan_1', requestId: 'req-taken-1', busy: 'That plan is already running.' },
        held().work,
      ),
    ).toThrow(/already running/);
    expect(running.isRunning('fix', 'plan_1')).toBe(false);

    const fix = held();
    running.start(
      { kind: 'fix', id: 'plan_1', requestId: 'req-fix-2', busy: 'That plan is already running.' },
      fix.work,
    );
    expect(running.isRunning('fix', 'plan_1')).toBe(true);
    await settle();
    fix.finish();
    other.finish();
    await settle();
    expect(running.isRunning('fix', 'plan_1')).toBe(false);
  });

  it('forgets a job that failed or was cancelled', async () => {
    const { running, operations, ends } = jobs();
    running.start({ kind: 'schema', id: 'schema_1', requestId: 'req-schema-1', busy: 'busy' }, () =>
      Promise.reject(new Error('DescribeTable refused')),
    );
    running.start(
      { kind: 'copy', id: 'copy_2', requestId: 'req-copy-2', busy: 'busy' },
      ({ signal }) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('stopped'))),
        ),
    );
    await settle();
    operations.cancel('req-copy-2');
    await settle();
    expect(ends.get('req-schema-1')?.type).toBe('error');
    expect(ends.get('req-copy-2')?.type).toBe('cancelled');
    expect(running.list()).toEqual([]);
  });
});
