import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Three layers, each with its own script: unit (pure logic), integration (real DynamoDB Local,
// a unique table per test), e2e (real Chromium through browser mode). Benchmarks live apart.
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // vitest's default on 2 cores is one worker (cores − 1); the files are independent.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          // Java for the DynamoDB Locals a file starts for itself (tests/integration/quick-jvm-setup.ts);
          // process.env put back after each file, and a file that leaves listeners on process, a
          // server listening or a global replaced fails (tests/integration/process-state-setup.ts).
          setupFiles: ['tests/integration/quick-jvm-setup.ts', 'tests/integration/process-state-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at a time: each test makes tables of its own on the shared DynamoDB Local; a
          // file that needs a table list of its own gets a database of its own there
          // (tests/support/key-proxy.ts), and one that loads it for minutes or waits on GSI
          // backfills starts its own DynamoDB Local.
          maxWorkers: 2,
          // A worker runs file after file in one process, importing the app, the AWS SDK and vitest
          // once rather than once per file (22 % less CPU on 16 files, docs/PERFORMANCE.md). Each
          // file still builds its own core, data folder and tables; process-state-setup.ts puts
          // process.env back after each and fails a file that leaves other process-wide state.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Java for the DynamoDB Local processes files still start (tests/e2e/support/quick-jvm.ts).
          setupFiles: ['tests/e2e/support/quick-jvm-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // expect.poll gives up after 1 s by default; a walk waits on what the page shows, and a
          // busy machine can take longer than that to show it (docs/PERFORMANCE.md, e2eflake).
          expect: { poll: { timeout: 60_000 } },
          // One file at a time, one worker importing the app (core, SDK clients, server) once for
          // all files (isolate: false); each file still starts its own app, data folder and browser
          // context, and gets a database of its own on the run's one DynamoDB Local. Two workers
          // passed a whole run (580 s), but `npm test` runs this layer beside integration's two
          // workers, the longer lane, where a second e2e worker would only add a fourth busy
          // process on two cores (docs/PERFORMANCE.md).
          fileParallelism: false,
          isolate: false,
        },
      },
    ],
  },
});
