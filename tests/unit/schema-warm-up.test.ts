import { describe, expect, it } from 'vitest';
import type { CoreContext } from '../../src/main/core/context';
import { runIdleSteps } from '../../src/main/core/idle-steps';
import { CoreServices } from '../../src/main/core/services';
import { splitWirePage } from '../../src/main/dynamo/query/wire-page';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import {
  PAGE_ITEMS,
  startSchemaWarmUp,
  stopSchemaWarmUp,
  warmSchemaAnalysis,
  warmUpItem,
} from '../../src/main/schema/warm-up';
import { STRING_FORMATS } from '../../src/main/schema/formats';
import { VALUE_TYPES } from '../../src/main/schema/path-stats';
import { manualSchedule } from '../support/manual-schedule';
import { reportHead } from '../support/schema-report-head';

describe("the schema analysis' idle warm-up", () => {
  it('reads every DynamoDB type, every string format and both kinds of entity through the scan path', () => {
    const keys = {
      partitionKey: { name: 'PK', type: 'S' as const },
      sortKey: { name: 'SK', type: 'S' as const },
    };
    const accumulator = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
    const Items = Array.from({ length: PAGE_ITEMS }, (_, i) => warmUpItem(i));
    accumulator.addWire(splitWirePage(Buffer.from(JSON.stringify({ Count: PAGE_ITEMS, Items }))).items);
    const report = buildSchemaReport(accumulator, reportHead({ scanId: 'w', table: 'W', keys }), [
      'PK',
      'SK',
    ]);
    const types = new Set(report.attributes.flatMap((a) => Object.keys(a.types)));
    expect([...types].sort()).toEqual([...VALUE_TYPES].sort());
    const formats = new Set(report.attributes.flatMap((a) => Object.keys(a.formats)));
    expect([...formats].sort()).toEqual([...STRING_FORMATS].sort());
    expect(report.attributes.map((a) => a.path)).toEqual(
      expect.arrayContaining(['__proto__', '"address.city"']),
    );
    expect(report.entities.length).toBeGreaterThanOrEqual(2);
  });

  it('runs one step per turn of the event loop and ends at its last step', async () => {
    const hand = manualSchedule();
    const work = startSchemaWarmUp({ startAfterMs: 0, rounds: 1, pages: 2, schedule: hand.schedule });
    let turns = 0;
    while (hand.turn()) turns++;
    // Two pages built, then per table shape its pages, each segment's state and its report.
    expect(await work.done).toBe(turns - 1);
    expect(turns).toBeGreaterThan(2 + 3);
  }, 60_000);

  it('stops before its next step when told, and says how many it ran', async () => {
    const hand = manualSchedule();
    const work = startSchemaWarmUp({ startAfterMs: 0, schedule: hand.schedule });
    hand.turn();
    hand.turn();
    work.stop();
    expect(hand.turn()).toBe(true); // the step already scheduled finds it stopped and runs nothing
    expect(hand.turn()).toBe(false);
    expect(await work.done).toBe(2);
  });

  it('logs a failing step once, with a sentence, and ends', async () => {
    const said: string[] = [];
    function* failing(): Generator<void> {
      yield;
      throw new Error('no such page');
    }
    const work = runIdleSteps(failing(), { name: 'A warm-up', onError: (m) => said.push(m) });
    expect(await work.done).toBe(1);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^A warm-up failed at step 2: Error: no such page/);
  });

  it("is one per core, and a schema scan's start stops it before its first step", async () => {
    const ctx = {} as CoreContext;
    Object.assign(ctx, { services: new CoreServices(() => ctx) });
    const work = warmSchemaAnalysis(ctx);
    expect(warmSchemaAnalysis(ctx)).toBe(work);
    stopSchemaWarmUp(ctx);
    // Stopped during its start-up delay: it never ran a step.
    expect(await work.done).toBe(0);
  });

  it("is stopped by the core's shutdown", async () => {
    const ctx = {} as CoreContext;
    const services = new CoreServices(() => ctx);
    Object.assign(ctx, { services });
    const work = warmSchemaAnalysis(ctx);
    await services.close();
    expect(await work.done).toBe(0);
  });
});
