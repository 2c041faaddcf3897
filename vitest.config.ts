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
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One worker runs the files one after another: importing the app (core, SDK clients,
          // server) once instead of once per file. Each file still starts its own app, data
          // folder and browser context, so no state a test can see is shared.
          isolate: false,
        },
      },
    ],
  },
});
