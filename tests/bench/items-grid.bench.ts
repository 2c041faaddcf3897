/**
 * The grid at a million rows, in real Chromium (`npm run bench -- items-grid`; env GRID_ROWS,
 * default 1,000,000). The real browser-mode server and core stream rows into a result set as
 * page events, exactly as a scan does; the page is the real ItemGrid pulling its window with
 * resultsets:window. Measured in the page:
 *   - while rows stream in (and the grid scrolls along): the longest main-thread task
 *     (PerformanceObserver 'longtask', which reports tasks over 50 ms) and the longest frame;
 *   - once all rows are in: frames per second while scrolling steadily, and while jumping.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { createUnavailableSecretStore } from '../../src/main/aws/secret-store';
import { createCore, shutdownCore } from '../../src/main/create-core';
import { createDispatcher } from '../../src/main/ipc/dispatcher';
import { handlers } from '../../src/main/ipc/handlers/index';
import { startBrowserServer } from '../../src/main/server/http-server';
import { benchItem } from './items-data';

const ROWS = Number(process.env.GRID_ROWS ?? 1_000_000);
const PAGE = 1000;
const root = path.resolve(__dirname, '../..');
const outDir = path.join(root, '.tmp', 'items-grid-bench');

function buildPage(): void {
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'tests/bench/items-grid-page/vite.config.ts',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
}

/** Ten distinct response bodies, reused: generating a million fresh items would measure the generator. */
function pageBodies(): Uint8Array[] {
  return Array.from({ length: 10 }, (_, p) => {
    const items = Array.from({ length: PAGE }, (_, i) => benchItem(p * PAGE + i));
    return new Uint8Array(Buffer.from(JSON.stringify({ Count: PAGE, ScannedCount: PAGE, Items: items })));
  });
}

interface FrameStats {
  frames: number;
  seconds: number;
  longestFrameMs: number;
}

/** Starts a Chromium timeline trace of the page; the returned function stops it and writes the file. */
async function startTrace(context: BrowserContext, page: Page): Promise<(file: string) => Promise<void>> {
  const cdp = await context.newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown[])));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8',
    transferMode: 'ReportEvents',
  });
  return async (file) => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    await writeFile(file, JSON.stringify(events));
  };
}

async function main(): Promise<void> {
  buildPage();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-grid-bench-'));
  const core = createCore({
    mode: 'browser',
    version: 'bench',
    dataDir,
    secrets: createUnavailableSecretStore(),
    openUrl: () => Promise.resolve(),
  });
  const server = await startBrowserServer({
    dispatch: createDispatcher(handlers, core),
    events: core.events,
    staticDir: outDir,
    port: 0,
  });
  // The e2e tests' Chromium: Debian's, headless, the same flags and viewport.
  const browser = await launchBrowser();
  const { context, page } = browser;
  try {
    // tsx (esbuild keepNames) wraps functions handed to page.evaluate in __name(); give the page one.
    await page.addInitScript('globalThis.__name = (fn) => fn;');
    await page.goto(server.url);
    await page.waitForFunction(() => window.benchReady);

    const bodies = pageBodies();
    // Long tasks of the page's own start-up (script compile, first render) are not the stream's.
    await page.evaluate(() => (window.benchLongTasks = []));
    // GRID_TRACE_STREAM=file: a Chromium trace of the streaming phase, to tell a long task's own
    // work (thread time) from time its thread spent waiting for a core (wall time only).
    const streamTrace = process.env.GRID_TRACE_STREAM ? await startTrace(context, page) : undefined;
    const resultSetId = await core.resultSets.create({
      connectionId: 'bench',
      table: 'bench',
      keyAttributes: ['PK', 'SK'],
    });
    const streamed = new Promise<void>((resolve, reject) => {
      core.operations.start('grid_bench_stream', async (run) => {
        let total = 0;
        try {
          for (let p = 0; p * PAGE < ROWS; p++) {
            const body = bodies[p % bodies.length] ?? new Uint8Array();
            const appended = await core.resultSets.appendWire(resultSetId, [body]);
            total = appended.total;
            run.emit({ type: 'page', resultSetId, added: appended.items, total });
          }
          resolve();
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
        return { progress: { items: total, pages: ROWS / PAGE, consumedCapacity: 0 } };
      });
    });

    streamed.catch(() => undefined); // awaited below; a failure after an earlier error must not crash the run
    // While rows stream in, the grid follows along, scrolling a row per frame.
    await page.waitForSelector('.item-grid-scroller');
    await page.evaluate(() => {
      const state = {
        frames: 0,
        longest: 0,
        last: performance.now(),
        running: true,
        started: performance.now(),
      };
      (window as unknown as { benchStream: typeof state }).benchStream = state;
      const scroller = document.querySelector('.item-grid-scroller');
      const tick = (now: number): void => {
        state.longest = Math.max(state.longest, now - state.last);
        state.last = now;
        state.frames++;
        if (scroller) scroller.scrollTop += 28;
        if (state.running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const streamStarted = Date.now();
    await streamed;
    const streamSeconds = (Date.now() - streamStarted) / 1000;
    await page.waitForFunction((rows) => window.benchTotal >= rows, ROWS);
    if (streamTrace && process.env.GRID_TRACE_STREAM) await streamTrace(process.env.GRID_TRACE_STREAM);
    const during = await page.evaluate(() => {
      const state = (
        window as unknown as {
          benchStream: { frames: number; longest: number; running: boolean; started: number };
        }
      ).benchStream;
      state.running = false;
      return {
        frames: state.frames,
        seconds: (performance.now() - state.started) / 1000,
        longestFrameMs: state.longest,
        longTasks: [...window.benchLongTasks],
      };
    });

    const scroll = (mode: 'steady' | 'jump'): Promise<FrameStats> =>
      page.evaluate(
        (how) =>
          new Promise<FrameStats>((resolve) => {
            const scroller = document.querySelector('.item-grid-scroller');
            if (!scroller) throw new Error('no grid');
            let frames = 0;
            let longest = 0;
            let seed = 7;
            const started = performance.now();
            let last = started;
            const tick = (now: number): void => {
              longest = Math.max(longest, now - last);
              last = now;
              frames++;
              if (how === 'steady') scroller.scrollTop += 3 * 28;
              else {
                seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
                scroller.scrollTop = (seed / 2_147_483_648) * scroller.scrollHeight;
              }
              if (now - started < 5000) requestAnimationFrame(tick);
              else resolve({ frames, seconds: (now - started) / 1000, longestFrameMs: longest });
            };
            requestAnimationFrame(tick);
          }),
        mode,
      );
    await page.evaluate(() => (window.benchLongTasks = []));
    const profiler = process.env.GRID_PROFILE ? await context.newCDPSession(page) : undefined;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.start');
    }
    const metrics = await context.newCDPSession(page);
    await metrics.send('Performance.enable');
    const sample = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        (await metrics.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
      );
    const before = await sample();
    const scrollTrace = process.env.GRID_TRACE ? await startTrace(context, page) : undefined;
    const steady = await scroll('steady');
    if (scrollTrace && process.env.GRID_TRACE) await scrollTrace(process.env.GRID_TRACE);
    const after = await sample();
    const perFrame = (name: string): string =>
      ((((after[name] ?? 0) - (before[name] ?? 0)) * 1000) / steady.frames).toFixed(2);
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      await writeFile(process.env.GRID_PROFILE ?? '', JSON.stringify(profile));
    }
    const jump = await scroll('jump');
    const afterLongTasks = await page.evaluate(() => window.benchLongTasks);

    const rowsShown = await page.locator('.item-grid-row').count();
    const longest = during.longTasks.length > 0 ? Math.max(...during.longTasks) : 0;
    console.log(
      `rows streamed: ${ROWS.toLocaleString('en-US')} in ${streamSeconds.toFixed(1)} s (rows in the DOM at the end: ${rowsShown})`,
    );
    console.log(
      `while streaming: longest main-thread task ${during.longTasks.length > 0 ? `${longest.toFixed(0)} ms (${during.longTasks.length} over 50 ms)` : 'none over 50 ms'}, ` +
        `longest frame ${during.longestFrameMs.toFixed(0)} ms, ${(during.frames / during.seconds).toFixed(1)} fps (goal: no task ≥ 50 ms)`,
    );
    for (const [label, stats] of [
      ['steady scroll, 3 rows/frame', steady],
      ['random jumps, 1 per frame', jump],
    ] as const) {
      console.log(
        `at ${ROWS.toLocaleString('en-US')} rows, ${label}: ${(stats.frames / stats.seconds).toFixed(1)} fps, longest frame ${stats.longestFrameMs.toFixed(0)} ms (goal ≥ 55 fps)`,
      );
    }
    console.log(
      `renderer main thread per frame while scrolling steadily: script ${perFrame('ScriptDuration')} ms, style ${perFrame('RecalcStyleDuration')} ms, layout ${perFrame('LayoutDuration')} ms, all tasks ${perFrame('TaskDuration')} ms`,
    );
    if (afterLongTasks.length > 0)
      console.log(`long tasks while scrolling: ${afterLongTasks.map((t) => t.toFixed(0)).join(', ')} ms`);
    if (browser.pageErrors.length > 0) console.log(`page errors: ${browser.pageErrors.join('; ')}`);
  } finally {
    await browser.close();
    await server.close();
    await shutdownCore(core);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
