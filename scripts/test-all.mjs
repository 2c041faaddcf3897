// `npm test`: every layer — format, typecheck, lint, unit, integration, e2e — stopping at the first
// stage that fails. The three checks run side by side (each is one process, mostly on one core, and
// the machine has two); their output is printed whole as each ends. `node scripts/test-all.mjs unit
// e2e` runs only the named layers.
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
  { name: 'format', stage: 'checks', args: [bin('prettier/bin/prettier.cjs'), '--check', '.'] },
  {
    name: 'typecheck',
    stage: 'checks',
    args: [bin('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'],
  },
  { name: 'lint', stage: 'checks', args: [bin('eslint/bin/eslint.js'), '.'] },
  { name: 'unit', stage: 'unit', args: vitest('unit') },
  { name: 'integration', stage: 'integration', args: vitest('integration') },
  { name: 'e2e', stage: 'e2e', args: vitest('e2e') },
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

// Screenshots are for a person looking at the UI, not for the suite (tests/e2e/support/screenshots.ts).
const env = { DYNOTABLE_SCREENSHOTS: '0', ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };
const heading = (name) => `\n── ${name} ${'─'.repeat(Math.max(0, 60 - name.length))}\n`;

/** Runs one layer; alone it prints as it goes, beside others its output is held and printed whole. */
function run(layer, isAlone) {
  if (isAlone) process.stderr.write(heading(layer.name));
  const started = Date.now();
  const child = spawn(process.execPath, layer.args, { cwd: root, env, stdio: isAlone ? 'inherit' : 'pipe' });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (!isAlone) process.stderr.write(heading(layer.name) + Buffer.concat(output).toString());
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      resolve({
        name: layer.name,
        ok: status === 0,
        line: `${status === 0 ? 'passed' : 'FAILED'}  ${seconds}s`,
      });
    });
  });
}

const results = [];
let failed;
const stages = [...new Set(selected.map((layer) => layer.stage))];
for (const stage of stages) {
  const group = selected.filter((layer) => layer.stage === stage);
  const ended = await Promise.all(group.map((layer) => run(layer, group.length === 1)));
  results.push(...ended);
  const failure = ended.find((result) => !result.ok);
  if (failure) {
    failed = failure.name;
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
