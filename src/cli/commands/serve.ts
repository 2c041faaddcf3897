import { shutdownCore } from '../../main/create-core';
import { startCoreServer } from '../../main/server/core-server';
import type { BrowserServer } from '../../main/server/http-server';
import { createCliCore } from '../cli-core';
import { findRendererDir } from '../renderer-dir';
import { parseFlags } from './command-io';
import { UsageError } from './types';

const HELP = `Usage: dynotable serve [--port N] [--playground] [--verbose]

Serves the DynoTable UI and its API on 127.0.0.1 for your browser. Open the printed address
once; it carries this launch's access token, which the page trades for a cookie.

  --port N       Listen on port N (default 0: any free port).
  --playground   Start the local playground (DynamoDB Local, needs Java 17+) right away.
  --verbose      Log every request (method, path and status; never the token) to stderr.

Data folder: $DYNOTABLE_DATA_DIR, or the same folder the desktop app uses.
Remote box: ssh -L N:127.0.0.1:N host, then open the printed address on your machine
(the port must be the same on both ends: DynoTable only answers to its own Host).`;

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new UsageError(`--port wants a number from 0 to 65535, not "${text}".`);
  return port;
}

function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // A second Ctrl+C while shutting down means "now".
      process.once('SIGINT', () => process.exit(130));
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseFlags(argv, {
    port: { type: 'string' },
    playground: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (parsed.values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const port = parsePort(parsed.values.port);
  const verbose = parsed.values.verbose;

  // The browser is on the other side of the socket (maybe another machine): say the link.
  const core = await createCliCore({
    openUrl: (url) => {
      process.stdout.write(`Open this link in your browser: ${url}\n`);
      return Promise.resolve();
    },
  });
  const stopSignal = waitForStopSignal();

  let server: BrowserServer;
  try {
    server = await startCoreServer(core, {
      staticDir: findRendererDir(),
      port,
      log: (line, level) => {
        if (verbose || level === 'error') process.stderr.write(`[serve] ${line}\n`);
      },
    });
  } catch (error) {
    await shutdownCore(core);
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new Error(
        `Port ${port} is already in use. Choose another with --port N, or --port 0 for any free port.`,
      );
    }
    throw error;
  }
  process.stdout.write(`DynoTable is running in browser mode. Open: ${server.url}\n`);
  process.stdout.write('Press Ctrl+C to stop.\n');

  if (parsed.values.playground) {
    process.stdout.write('Starting the local playground…\n');
    void core.playground.start().then(
      (status) =>
        process.stdout.write(
          status.state === 'running'
            ? `Local playground is running at ${status.endpoint ?? 'its local endpoint'}.\n`
            : `Local playground is ${status.state}: ${status.message ?? 'no reason given'}\n`,
        ),
      (error: unknown) =>
        process.stderr.write(
          `Local playground did not start: ${error instanceof Error ? error.message : String(error)}\n`,
        ),
    );
  }

  const signal = await stopSignal;
  process.stdout.write(`Stopping DynoTable (${signal})…\n`);
  await server.close();
  await shutdownCore(core);
  return 0;
}
