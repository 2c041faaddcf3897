// `npm test`: every layer in order — format, typecheck, lint, unit, integration, e2e — stopping at the
// first that fails. `node scripts/test-all.mjs unit e2e` runs only the named layers.
import { spawnSync } from 'node:child_process';
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

const requested = process.argv.slice(2);
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

const results = [];
let failed;
for (const layer of selected) {
  process.stderr.write(`\n── ${layer.name} ${'─'.repeat(Math.max(0, 60 - layer.name.length))}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, layer.args, {
    cwd: root,
    stdio: 'inherit',
    // Screenshots are for a person looking at the UI, not for the suite (tests/e2e/support/screenshots.ts).
    env: { DYNOTABLE_SCREENSHOTS: '0', ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  results.push({ name: layer.name, line: `${ok ? 'passed' : 'FAILED'}  ${seconds}s` });
  if (!ok) {
    failed = layer.name;
    break;
  }
}

process.stderr.write('\n── summary ─────────────────────────────────────────────────────\n');
for (const layer of selected) {
  const result = results.find((r) => r.name === layer.name);
  process.stderr.write(`  ${layer.name.padEnd(12)} ${result ? result.line : 'not run'}\n`);
}
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const layer of selected) {
  const layerCounts = counts(layer.name);
  if (!layerCounts) continue;
  for (const key of Object.keys(totals)) totals[key] += layerCounts[key];
}
if (failed) {
  say(`${failed} failed (output above); the layers after it did not run.`);
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
