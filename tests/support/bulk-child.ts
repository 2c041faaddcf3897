import { bulkHandlers } from '../../src/main/ipc/handlers/bulk';
import { itemsHarness } from './items-context';

/**
 * A bulk update in a process of its own, for a test to kill mid-way:
 * `bulk-child.ts <endpoint> <dataDir> <table> <count>` updates ITEM#0000… to status "closed"
 * through the real bulk:start on the connection "local", journaling into <dataDir>.
 */
async function main(): Promise<void> {
  const [endpoint, dataDir, table, count] = process.argv.slice(2);
  if (!endpoint || !dataDir || !table || !count)
    throw new Error('usage: <endpoint> <dataDir> <table> <count>');
  const h = itemsHarness(endpoint, bulkHandlers);
  (h.ctx as { dataDir: string }).dataDir = dataDir;
  const items = Array.from({ length: Number(count) }, (_, i) => ({
    pk: { S: `ITEM#${String(i).padStart(4, '0')}` },
  }));
  const done = h.waitFor('child_bulk');
  const started = await h.call('bulk:start', {
    connectionId: 'local',
    table,
    requestId: 'child_bulk',
    source: { items },
    action: { type: 'update', set: [{ path: ['status'], value: { S: 'closed' } }], remove: [['note']] },
    conditionOnSeen: false,
  });
  if (!started.ok) throw new Error(started.error.message);
  process.stdout.write('started\n');
  await done;
  process.stdout.write('finished\n');
  await h.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
