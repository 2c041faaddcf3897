import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { channels, contract, operationEventSchema, type Channel } from '../../src/shared/ipc';
import { doneSchemaOf, operationChannels } from '../../src/shared/ipc/contract';
import { eventExamples, examples } from '../../src/shared/ipc/examples';
import { API_DOC_PATH, renderApiDocs } from '../../scripts/gen-api-docs';

describe('docs/API.md examples', () => {
  it('has exactly one example per channel of the contract', () => {
    expect(Object.keys(examples).sort()).toEqual([...channels].sort());
  });

  it.each(channels)('%s: the example input and output match the contract', (channel: Channel) => {
    const example = examples[channel];
    const input = contract[channel].input.safeParse(example.input);
    expect(input.error?.issues ?? []).toEqual([]);
    const output = contract[channel].output.safeParse(example.output);
    expect(output.error?.issues ?? []).toEqual([]);
    expect(example.summary.trim().length).toBeGreaterThan(10);
  });

  it('shows operation events that match the event schema, one operation in seq order', () => {
    for (const event of eventExamples)
      expect(operationEventSchema.safeParse(event).error?.issues ?? []).toEqual([]);
    expect(eventExamples.map((e) => e.seq)).toEqual(eventExamples.map((_e, i) => i));
    expect(eventExamples.at(-1)?.type).toBe('done');
  });

  it('declares the done value of every channel that starts work under a requestId', () => {
    const startsWork = channels.filter((c) => {
      const shape = (contract[c].input as unknown as { shape?: object }).shape;
      return c !== 'ops:cancel' && shape !== undefined && 'requestId' in shape;
    });
    expect([...operationChannels].sort()).toEqual(startsWork.sort());
    // The example scan (a query:start) ends with the value its channel declares.
    const done = eventExamples.at(-1);
    expect(done?.type === 'done' && doneSchemaOf('query:start').safeParse(done.value).success).toBe(true);
    expect(doneSchemaOf('migration:scan').safeParse({ scanId: 'scan_1' }).success).toBe(false);
  });
});

describe('docs/API.md', () => {
  it('is what scripts/gen-api-docs.ts generates from the contract (run `npx tsx scripts/gen-api-docs.ts`)', async () => {
    const current = await readFile(API_DOC_PATH, 'utf8');
    const generated = await renderApiDocs();
    // Compare section by section first, so a stale file names the channel that changed.
    for (const channel of channels) {
      const heading = `### \`${channel}\``;
      expect(current, `docs/API.md lacks ${channel}`).toContain(heading);
    }
    expect(current === generated, 'docs/API.md is stale: run `npx tsx scripts/gen-api-docs.ts`').toBe(true);
  }, 30_000);
});
