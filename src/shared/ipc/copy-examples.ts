import type { copyChannels } from './copy';
import type { ChannelExample } from './examples';

type CopyExamples = { [C in keyof typeof copyChannels]: ChannelExample<C> };

/** docs/API.md examples for copying items between tables and connections. */
export const copyExamples: CopyExamples = {
  'copy:start': {
    summary:
      "Copies a table, an index, a query or a result set into another table, on the same connection or another one, creating the target from the source's definition when asked.",
    input: {
      requestId: 'copy_9Xk2PqRt',
      source: {
        connectionId: 'prod-eu',
        table: 'Orders',
        spec: { mode: 'query', partitionKey: { S: 'TENANT#acme' } },
      },
      target: { connectionId: 'playground', table: 'Orders-acme', create: true, includeTags: false },
      mapping: { prefixes: [{ from: 'TENANT#acme', to: 'TENANT#demo' }], drop: ['ssn'], rename: [] },
      conflict: { policy: 'skip' },
      segments: 4,
      writeRate: 200,
      verify: true,
    },
    output: { started: true, copyId: 'copy-m9x2k1-3fa29c01' },
    notes:
      'Refused before anything is written with ReadOnlyConnection (target), InvalidInput (same table, a mapping that drops a key, a bad spec), IncompatibleKeys (an existing target whose keys differ, named in the sentence) or NotFound (a missing target without `create`). Progress events carry `progress.copy` {read, written, skipped, failed, rate, etaSeconds, phase}; done.value is a CopyReport {copyId, itemsRead, itemsWritten, itemsSkipped, itemsFailed, failures (each with its key), verified {sourceCount, targetCount, sourceChecksum, targetChecksum, checksumsMatch, differingKeys}, notes}. A cancel, an error or a crash leaves a checkpoint for copy:resume.',
  },
  'copy:resume': {
    summary: 'Continues a stopped copy from its checkpoint, with the settings it started with.',
    input: { requestId: 'copy_b7Lw3NzQ', copyId: 'copy-m9x2k1-3fa29c01' },
    output: { started: true, copyId: 'copy-m9x2k1-3fa29c01' },
    notes:
      "Items of the page in flight when the copy stopped are written again (a put is idempotent), so the target ends with exactly the source's items. Refused with InvalidInput when the copy is complete.",
  },
  'copy:discard': {
    summary: 'Forgets a stopped copy: its checkpoint goes, the items it wrote stay in the target.',
    input: { copyId: 'copy-m9x2k1-3fa29c01' },
    output: { discarded: true },
  },
  'copy:list': {
    summary:
      'Copies with a checkpoint on this machine, newest first: stopped ones can be resumed. A checkpoint that could not be read is set aside and named.',
    input: {},
    output: {
      copies: [
        {
          copyId: 'copy-m9x2k1-3fa29c01',
          source: { connectionId: 'prod-eu', table: 'Orders' },
          target: { connectionId: 'playground', table: 'Orders-acme' },
          state: 'stopped',
          itemsRead: 12500,
          itemsWritten: 12480,
          savedAt: '2026-12-01T18:02:11.000Z',
        },
      ],
      setAside: [
        {
          file: '/home/ana/.config/DynoTable/copies/copy-m9w7p0-51c0be22.json',
          keptAs:
            '/home/ana/.config/DynoTable/copies/copy-m9w7p0-51c0be22.json.unreadable-2026-12-01T18-05-40-120Z',
          message:
            'The checkpoint of copy copy-m9w7p0-51c0be22 (/home/ana/.config/DynoTable/copies/copy-m9w7p0-51c0be22.json) could not be read: it ends in the middle, as a write cut short by a crash leaves a file. DynoTable kept it unchanged as copy-m9w7p0-51c0be22.json.unreadable-2026-12-01T18-05-40-120Z in the same folder; it held a copy from Customers to Customers-acme, 310 bytes. That copy can no longer be resumed; what it wrote stays in the target. Other copies are not affected.',
        },
      ],
    },
  },
};
