import { itemsHarness } from './items-context';

/**
 * A grid commit in a process of its own, for a test to kill mid-way:
 * `commit-child.ts <endpoint> <dataDir> <table> <count>` commits, through the real items:commit
 * on the connection "local", one staged change per item ITEM#0000… (as seeded: status "open",
 * note "n<i>") setting status "closed", journaling into <dataDir>. One change is one UpdateItem;
 * more are TransactWriteItems of 100.
 */
async function main(): Promise<void> {
  const [endpoint, dataDir, table, count] = process.argv.slice(2);
  if (!endpoint || !dataDir || !table || !count)
    throw new Error('usage: <endpoint> <dataDir> <table> <count>');
  const h = itemsHarness(endpoint);
  (h.ctx as { dataDir: string }).dataDir = dataDir;
  const changes = Array.from({ length: Number(count) }, (_, i) => {
    const seen = {
      pk: { S: `ITEM#${String(i).padStart(4, '0')}` },
      status: { S: 'open' },
      note: { S: `n${i}` },
    };
    return { id: String(i), seen, desired: { ...seen, status: { S: 'closed' } } };
  });
  process.stdout.write('started\n');
  const answer = await h.call('items:commit', {
    connectionId: 'local',
    table,
    token: `kill${Date.now().toString(36)}`,
    changes,
  });
  if (!answer.ok) throw new Error(answer.error.message);
  process.stdout.write('finished\n');
  await h.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
