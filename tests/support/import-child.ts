import { transferHandlers } from '../../src/main/ipc/handlers/transfer';
import { coreOn, operationEnded } from './data-folder-core';

/**
 * DynoTable importing a file, in a process of its own for a test to kill:
 * `import-child.ts <dataDir> <connectionId> <table> <file>` starts the real core on <dataDir>,
 * imports the JSON Lines <file> into <table> on the saved connection ("new items only"), prints
 * "started" and, should nobody kill it first, "finished" once the import ended.
 */
async function main(): Promise<void> {
  const [dataDir, connectionId, table, file] = process.argv.slice(2);
  if (!dataDir || !connectionId || !table || !file)
    throw new Error('usage: <dataDir> <connectionId> <table> <file>');
  const ctx = coreOn(dataDir);
  const requestId = 'killed-import';
  const ended = operationEnded(ctx, requestId);
  await transferHandlers['transfer:import'](
    {
      connectionId,
      table,
      requestId,
      format: 'jsonl',
      source: { path: file },
      mode: 'create-only',
      dryRun: false,
    },
    ctx,
  );
  process.stdout.write('started\n');
  process.stdout.write(`finished ${(await ended).type}\n`);
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
