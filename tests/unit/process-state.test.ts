import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { leaksSince, processState } from '../support/process-state';

// The integration project runs file after file in one process; its setup file fails a file that
// leaves this state behind (tests/integration/process-state-setup.ts). Leaks planted for real.
describe('what a test file leaves in the process for the next one', () => {
  it('finds nothing when a file put everything back', async () => {
    const before = processState();
    const onExit = (): void => undefined;
    process.on('exit', onExit);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.off('exit', onExit);
    // Closed and not awaited is closed: it no longer listens.
    server.close();
    expect(leaksSince(before)).toEqual([]);
  });

  it('names a listener left on process, by event and function name', () => {
    const before = processState();
    const killChildren = (): void => undefined;
    process.on('exit', killChildren);
    try {
      expect(leaksSince(before)).toEqual([
        "1 'exit' listener(s) added to process and not removed (killChildren)",
      ]);
    } finally {
      process.off('exit', killChildren);
    }
    expect(leaksSince(before)).toEqual([]);
  });

  it('names a server still listening, by its address', async () => {
    const before = processState();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : -1;
      expect(leaksSince(before)).toEqual([
        `server(s) still listening on 127.0.0.1:${port} (started and not closed)`,
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(leaksSince(before)).toEqual([]);
  });

  it('names a global replaced or removed, and leaves a global a library added alone', () => {
    const before = processState();
    const { fetch } = globalThis;
    globalThis.fetch = () => Promise.reject(new Error('stubbed'));
    Reflect.set(globalThis, '__addedOnFirstImport', true);
    try {
      expect(leaksSince(before)).toEqual(['globalThis.fetch replaced or removed']);
    } finally {
      globalThis.fetch = fetch;
      Reflect.deleteProperty(globalThis, '__addedOnFirstImport');
    }
    expect(leaksSince(before)).toEqual([]);
  });
});
