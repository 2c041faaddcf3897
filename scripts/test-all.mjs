// `npm test`: every layer — format, typecheck, lint, unit, integration, e2e — stopping at the first
// that fails. `node scripts/test-all.mjs unit e2e` runs only the named layers. By default e2e runs
// beside the other layers (two lanes); `--one-lane` runs every layer one after another. Either way
// each layer's output comes whole, one layer after another.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { checkNodeVersion, ensureDependencies, root, say } from './ensure-deps.mjs';

const bin = (file) => path.join(root, 'node_modules', file);
const reportDir = path.join(root, '.tmp', 'test-reports');
const reportFile = (project) => path.join(reportDir, `${project}.json`);
// A JSON report next to the usual output, so the run can end on one "N passed, N failed" line.
const vitest = (project) => [
  bin('vitest/vitest.mjs'),
  'run',
  '--project',
  project,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportFile(project)}`,
];

/** Passed and failed test counts of a vitest layer, from its JSON report. */
function counts(layer) {
  const file = reportFile(layer);
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: report.numPendingTests ?? 0,
  };
}

/** The same commands as package.json's format:check / typecheck / lint / test:* scripts. */
const layers = [
  { name: 'format', args: [bin('prettier/bin/prettier.cjs'), '--check', '.'] },
  { name: 'typecheck', args: [bin('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'lint', args: [bin('eslint/bin/eslint.js'), '.'] },
  { name: 'unit', args: vitest('unit') },
  { name: 'integration', args: vitest('integration') },
  { name: 'e2e', args: vitest('e2e') },
];

// `--two-lanes` was the opt-in before two lanes became the default; it is still accepted.
const flags = new Set(['--one-lane', '--two-lanes']);
const requested = process.argv.slice(2).filter((arg) => !flags.has(arg));
const unknown = requested.filter((name) => !layers.some((layer) => layer.name === name));
if (unknown.length > 0) {
  say(`unknown layer ${unknown.join(', ')}; the layers are ${layers.map((layer) => layer.name).join(', ')}.`);
  process.exit(2);
}
const selected = requested.length > 0 ? layers.filter((layer) => requested.includes(layer.name)) : layers;

checkNodeVersion();
ensureDependencies();
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

/**
 * Lanes run at the same time; the layers of a lane run one after another. By default e2e runs in a
 * lane of its own beside format → typecheck → lint → unit → integration: e2e mostly waits (on
 * Chromium, the app and DynamoDB Local, one file at a time), so on two cores the suite takes about
 * as long as its longer lane instead of the sum of both (docs/PERFORMANCE.md, "The test suite's
 * wall time": 12 minutes against 17 on the quiet machine). `--one-lane` runs every layer one after
 * another, the order to use when a failure has to be told apart from the load beside it.
 */
const oneLane = process.argv.includes('--one-lane');
const lanes = oneLane
  ? [layers.map((layer) => layer.name)]
  : [['format', 'typecheck', 'lint', 'unit', 'integration'], ['e2e']];

const header = (name) => process.stderr.write(`\n── ${name} ${'─'.repeat(Math.max(0, 60 - name.length))}\n`);

/**
 * Runs the selected layers in their lanes. One layer prints at a time, in the order of `layers`:
 * a layer's output is held until the layers before it have ended and is then printed whole, so no
 * two layers' lines interleave. The first failure stops every layer still running (each runs in
 * a process group of its own, so what it started stops too: vitest's workers, DynamoDB Local's
 * JVMs, Chromium) and starts no other. Resolves with each layer's end, by name.
 */
function runLanes(layerLanes) {
  const piped = layerLanes.length > 1;
  const runs = selected.map((layer) => ({ layer, held: [] }));
  const ends = new Map();
  let turn = 0;
  let failed = false;
  // The layer whose turn it is gets its header when it starts; a layer that never starts gets none.
  const print = () => {
    while (runs[turn] && ends.has(runs[turn].layer.name)) {
      turn += 1;
      const next = runs[turn];
      if (!next?.started) continue;
      header(next.layer.name);
      for (const [stream, chunk] of next.held) process[stream].write(chunk);
      next.held = [];
    }
  };
  const start = (run) =>
    new Promise((resolve) => {
      const started = Date.now();
      run.started = true;
      if (runs[turn] === run) header(run.layer.name);
      const child = spawn(process.execPath, run.layer.args, {
        cwd: root,
        stdio: piped ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        detached: piped,
        env: {
          // Screenshots are for a person looking at the UI, not for the suite (tests/e2e/support/screenshots.ts).
          DYNOTABLE_SCREENSHOTS: '0',
          // The colours a terminal would get, although the layer writes into a pipe.
          ...(piped && process.stderr.isTTY ? { FORCE_COLOR: '1' } : {}),
          ...process.env,
          VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
        },
      });
      if (piped) running.add(child);
      const take = (stream) => (chunk) => {
        if (runs[turn] === run) process[stream].write(chunk);
        else run.held.push([stream, chunk]);
      };
      child.stdout?.on('data', take('stdout'));
      child.stderr?.on('data', take('stderr'));
      let exited;
      const ended = (code) => {
        if (ends.has(run.layer.name)) return;
        running.delete(child);
        const stopped = code !== 0 && failed;
        ends.set(run.layer.name, { code, stopped, seconds: ((exited ?? Date.now()) - started) / 1000 });
        if (code !== 0 && !failed) {
          failed = true;
          for (const other of running) stopLayer(other);
        }
        print();
        resolve(code === 0);
      };
      child.once('error', () => ended(1));
      child.once('close', (code) => ended(code ?? 1));
      // A process the layer left behind (a JVM, say) can hold its pipes open past its exit.
      child.once('exit', (code) => {
        exited = Date.now();
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          ended(code ?? 1);
        }, 5_000).unref();
      });
    });
  return Promise.all(
    layerLanes.map(async (lane) => {
      for (const layer of lane) {
        if (failed) return;
        const ok = await start(runs.find((run) => run.layer === layer));
        if (!ok) return;
      }
    }),
  ).then(() => {
    // Layers that never started still take their turn, so the ones after them print.
    for (const run of runs) if (!ends.has(run.layer.name)) ends.set(run.layer.name, undefined);
    print();
    return ends;
  });
}

const running = new Set();
// A layer in a lane is not in the terminal's process group, so Ctrl+C must reach it from here.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    for (const child of running) stopLayer(child);
    process.exit(130);
  });

function stopLayer(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

const layerLanes = lanes
  .map((lane) => selected.filter((layer) => lane.includes(layer.name)))
  .filter((lane) => lane.length > 0);
const ends = await runLanes(layerLanes);
const failed = selected.find((layer) => {
  const end = ends.get(layer.name);
  return end && end.code !== 0 && !end.stopped;
})?.name;
const results = new Map();
for (const layer of selected) {
  const end = ends.get(layer.name);
  if (!end) continue;
  const status = end.code === 0 ? 'passed' : end.stopped ? 'stopped' : 'FAILED';
  results.set(layer.name, `${status}  ${end.seconds.toFixed(1)}s`);
}

process.stderr.write('\n── summary ─────────────────────────────────────────────────────\n');
for (const layer of selected) {
  process.stderr.write(`  ${layer.name.padEnd(12)} ${results.get(layer.name) ?? 'not run'}\n`);
}
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const layer of selected) {
  const layerCounts = counts(layer.name);
  if (!layerCounts) continue;
  for (const key of Object.keys(totals)) totals[key] += layerCounts[key];
}
if (failed) {
  say(`${failed} failed (output above); the layers still running were stopped and the rest did not run.`);
  // A layer that failed before any test ran (typecheck, lint) still counts as a failure.
  if (totals.failed === 0) totals.failed = 1;
} else {
  say(`all ${selected.length} layers passed.`);
}
// The closing line CI reads.
process.stdout.write(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`,
);
if (failed) process.exit(1);
