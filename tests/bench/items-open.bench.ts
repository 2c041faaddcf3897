/**
 * Opening a table and seeing a save, in real Chromium through browser mode
 * (`npm run bench -- items-open`; env OPEN_RUNS, default 5). The app as it ships: `dynotable serve`
 * from a private build of the CLI bundle (its result-set and SQL workers bundled beside it, as in
 * the desktop app's out/main), the production renderer, the playground's DynamoDB Local. Measured
 * in the page:
 *   - from the click on a table in the list to the first frame whose callbacks see its first rows
 *     (goal: under 300 ms), against a bare Scan of the same 100 items from Node (the DynamoDB floor);
 *     the first open is the app's first after it started;
 *   - from a save's response (items:update, the editor's call) to the frame that paints the
 *     updated row (goal: one frame), against the page's own frame interval.
 * Between runs the table tab is closed, the connection left and the page reloaded, so each open is
 * a first open in that window (no cached result set).
 */
import { execFileSync, execSync, spawn, type ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { launchBrowser } from '../e2e/support/browser';
import { benchRendererDir, buildRendererIfNeeded } from '../e2e/support/build-renderer';
import { localClient } from '../support/dynamo-local';

const RUNS = Number(process.env.OPEN_RUNS ?? 5);
const table = 'DynoTableSample';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const ms = (value: number): string => `${value.toFixed(1)} ms`;

const root = path.resolve(__dirname, '../..');
const benchCliDir = path.join(path.dirname(benchRendererDir), 'cli');

/**
 * `npm run build:cli` into the bench's folder, beside its renderer: the bundle the CLI and
 * browser mode ship, with resultset-worker.js and sql-worker.js next to it. esbuild takes a few
 * seconds, so it runs every time rather than guessing whether the sources changed.
 */
function buildCli(): string {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', benchCliDir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return path.join(benchCliDir, 'index.js');
}

interface ServedApp {
  url: string;
  endpoint: string;
  stop(): Promise<void>;
}

/** `dynotable serve --playground` in its own process and data folder, up to the playground answering. */
async function serveApp(cli: string, dataDir: string): Promise<ServedApp> {
  const child: ChildProcess = spawn(process.execPath, [cli, 'serve', '--playground'], {
    env: { ...process.env, DYNOTABLE_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const started = await new Promise<{ url: string; endpoint: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`dynotable serve exited (${code}): ${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Open: (\S+)/.exec(output)?.[1];
      const endpoint = /Local playground is running at (\S+?)\.?\n/.exec(output)?.[1];
      if (/Local playground is (?!running)/.test(output)) reject(new Error(output));
      if (url && endpoint) resolve({ url, endpoint });
    });
  });
  return {
    ...started,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main(): Promise<void> {
  buildRendererIfNeeded(benchRendererDir);
  const cli = buildCli();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-open-bench-'));
  const app = await serveApp(cli, dataDir);
  const dynamo = localClient(app.endpoint);
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await app.stop();
    throw error;
  });
  const { page } = browser;
  const workspaceFile = path.join(dataDir, 'workspace.json');
  const loadAtStart = execSync('uptime').toString().trim();
  try {
    // DynamoDB Local's own first Scan (the JVM compiling its read path) is not the app's to pay:
    // a Scan the app does not see, so the app's first open is timed against a warm service.
    await dynamo.send(new ScanCommand({ TableName: table, Limit: 100 }));
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    // When a read's first page event reaches the page, before the app's own handler parses it:
    // the open's time on this side of the event stream against the server's.
    await page.addInitScript(() => {
      const Native = window.EventSource;
      window.EventSource = class extends Native {
        constructor(url: string | URL, init?: EventSourceInit) {
          super(url, init);
          this.addEventListener('message', (message: MessageEvent<string>) => {
            const marks = window as unknown as { firstPageEvent?: number };
            if (marks.firstPageEvent === undefined && message.data.includes('"type":"page"'))
              marks.firstPageEvent = performance.now();
          });
        }
      };
    });
    await page.goto(app.url);
    const opens: number[] = [];
    const scans: number[] = [];
    /** Where each open's time went: the page's requests from the click to the painted rows. */
    const openRequests: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.getByRole('button', { name: 'Open playground' }).click();
      const button = page.getByRole('button', { name: table, exact: true });
      await button.waitFor({ timeout: 120_000 });
      opens.push(
        await button
          .evaluate(
            (element) =>
              new Promise<{ open: number; requests: string }>((resolve) => {
                performance.setResourceTimingBufferSize(10_000);
                performance.clearResourceTimings();
                const marks = window as unknown as { firstPageEvent?: number };
                marks.firstPageEvent = undefined;
                const started = performance.now();
                (element as HTMLElement).click();
                const clicked = performance.now() - started;
                let placeholders = -1;
                // performance.now(), not the callback's argument: that is the frame's start, which
                // can precede `started` by most of a frame, and the two clocks must pair.
                const check = (): void => {
                  const now = performance.now();
                  if (placeholders < 0 && document.querySelector('.item-grid-row .item-grid-cell'))
                    placeholders = now - started;
                  // This frame's callbacks see the rows in the DOM: the frame paints them next. A
                  // row still waiting for its item is a grey placeholder (`is-loading`) with the
                  // same cells; only a row holding item data counts.
                  if (document.querySelector('.item-grid-row:not(.is-loading) .item-grid-cell')) {
                    const requests = performance
                      .getEntriesByType('resource')
                      .filter((e) => e.name.includes('/api/'))
                      .map(
                        (e) =>
                          `${e.name.replace(/^.*\/api\//, '')} ${(e.startTime - started).toFixed(0)}→${((e as PerformanceResourceTiming).responseEnd - started).toFixed(0)}`,
                      );
                    resolve({
                      open: now - started,
                      requests: `click handler ${clicked.toFixed(0)}, first page event ${((marks.firstPageEvent ?? Number.NaN) - started).toFixed(0)}, placeholders ${placeholders.toFixed(0)}; ${requests.join(', ')}`,
                    });
                  } else requestAnimationFrame(check);
                };
                requestAnimationFrame(check);
              }),
          )
          .then(({ open, requests }) => {
            openRequests.push(requests);
            return open;
          }),
      );
      const scanStarted = performance.now();
      await dynamo.send(new ScanCommand({ TableName: table, Limit: 100 }));
      scans.push(performance.now() - scanStarted);
      if (run === RUNS - 1) break;
      // Close the tab, leave the connection, and wait until the saved workspace says so.
      const tab = page
        .getByRole('tablist', { name: 'Open tabs' })
        .getByRole('tab', { name: table, exact: true });
      await tab.focus();
      await page.keyboard.press('Delete');
      await tab.waitFor({ state: 'detached' });
      await page
        .getByRole('button', { name: /Connections/ })
        .first()
        .click();
      for (;;) {
        const saved = await readFile(workspaceFile, 'utf8').catch(() => '');
        if (saved && !saved.includes('activeConnectionId') && !saved.includes(`"${table}"`)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await page.reload();
    }

    // Saves: the page calls items:update as the editor does, then waits for the row to change.
    const saves = await page.evaluate(
      async ({ tableName, runs }) => {
        const api = async (channel: string, body: unknown) => {
          const response = await fetch(`/api/${channel}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
          return ((await response.json()) as { value: unknown }).value;
        };
        const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
        const intervals: number[] = [];
        let last = await frame();
        for (let i = 0; i < 30; i++) {
          const now = await frame();
          intervals.push(now - last);
          last = now;
        }
        const row = document.querySelector('.item-grid-row');
        const cells = [...(row?.querySelectorAll('.item-grid-cell') ?? [])].map((c) => c.textContent);
        const headers = [...document.querySelectorAll('.item-grid-th')].map((h) =>
          h.textContent.replace(/[▲▼]$/, ''),
        );
        const [pk, sk] = [cells[0] ?? '', cells[1] ?? ''];
        const key = { PK: { S: pk }, SK: { S: sk } };
        const { item } = (await api('items:get', {
          connectionId: 'playground',
          table: tableName,
          key,
          consistent: true,
        })) as { item: Record<string, Record<string, string>> };
        // The first visible string attribute past the keys: its new value must show in the row.
        const name = headers.slice(2).find((h) => typeof item[h]?.S === 'string') ?? '';
        const latencies: number[] = [];
        const breakdown: { painted: number; windows: { start: number; end: number }[] }[] = [];
        performance.setResourceTimingBufferSize(10_000);
        performance.clearResourceTimings();
        let seen = item;
        for (let i = 0; i < runs; i++) {
          const value = `bench-${i}-${Math.random().toString(36).slice(2, 6)}`;
          const desired = { ...seen, [name]: { S: value } };
          // Watched from the request on: the event carrying the row travels on the event stream
          // and can paint it before the save's own response arrives (a negative latency). The
          // frame's time is performance.now() in its callback, the clock `responded` is read on.
          const painted = new Promise<number>((resolve) => {
            const check = (): void => {
              const shown = document.querySelector('.item-grid-row')?.textContent ?? '';
              if (shown.includes(value)) resolve(performance.now());
              else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          });
          const requested = performance.now();
          const answer = (await api('items:update', {
            connectionId: 'playground',
            table: tableName,
            seen,
            desired,
          })) as { item: Record<string, Record<string, string>> };
          const responded = performance.now();
          seen = answer.item;
          const paintedAt = await painted;
          latencies.push(paintedAt - responded);
          // Where the time went: the grid's window reads since the save was sent (their start and
          // their answer, from the response), against the paint.
          const windows = performance
            .getEntriesByType('resource')
            .filter((e) => e.name.includes('resultsets:window') && e.startTime >= requested)
            .map((e) => ({
              start: e.startTime - responded,
              end: (e as PerformanceResourceTiming).responseEnd - responded,
            }));
          breakdown.push({ painted: paintedAt - responded, windows });
          performance.clearResourceTimings();
        }
        return { latencies, intervals, attribute: name, breakdown };
      },
      { tableName: table, runs: RUNS },
    );

    const open = median(opens);
    const scan = median(scans);
    const frameMs = median(saves.intervals);
    const save = median(saves.latencies);
    const load = execSync('uptime').toString().trim();
    process.stdout.write(
      [
        `load at the start: ${loadAtStart}`,
        `load at the end:   ${load}`,
        `open a table → first rows painted: median ${ms(open)} of ${RUNS} (${opens.map(ms).join(', ')}); goal 300 ms`,
        `  reference, a bare Scan of 100 items from Node: median ${ms(scan)}; ratio ${(open / scan).toFixed(1)}×`,
        ...openRequests.map((r, i) => `  open ${i + 1} (ms from the click): ${r}`),
        `save response → updated row painted (${saves.attribute}): median ${ms(save)} (${saves.latencies.map(ms).join(', ')})`,
        `  reference, the page's frame interval: median ${ms(frameMs)}; ratio ${(save / frameMs).toFixed(1)} frames; goal 1 frame`,
        ...saves.breakdown.map(
          (b, i) =>
            `  save ${i + 1}: painted ${b.painted < 0 ? `${ms(-b.painted)} before` : `${ms(b.painted)} after`} the response; window reads: ${
              b.windows.map((w) => `${ms(w.start)}→${ms(w.end)}`).join(', ') || 'none'
            }`,
        ),
        '',
      ].join('\n'),
    );
  } finally {
    dynamo.destroy();
    await browser.close();
    await app.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
