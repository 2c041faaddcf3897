import { join } from 'node:path';
import { writeFileAtomic } from '../../src/main/files/atomic-file';
import { dataFolder } from '../../src/main/files/data-folder';

/**
 * A child for the kill -9 test: saves big files in the data folder given as argv[2], as the app
 * saves its workspace and checkpoints, until it is killed. Prints its first line once writing.
 */
const dataDir = process.argv[2]!;
const body = JSON.stringify({ version: 1, padding: 'x'.repeat(8 * 1024 * 1024) });

async function writeForever(): Promise<never> {
  process.stdout.write('writing\n');
  for (;;) {
    await Promise.all([
      writeFileAtomic(dataFolder.workspace(dataDir), body),
      writeFileAtomic(join(dataFolder.jobs(dataDir, 'copy'), 'copy-kill-test.json'), body),
    ]);
  }
}

void writeForever();
