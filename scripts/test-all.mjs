// `npm test`: every layer in order — typecheck, lint, unit, integration, e2e — stopping at the
// first that fails. `node scripts/test-all.mjs unit e2e` runs only the named layers.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { checkNodeVersion, ensureDependencies, root, say } from './ensure-deps.mjs';

const bin = (file) => path.join(root, 'node_modules', file);
const vitest = (project) => [bin('vitest/vitest.mjs'), 'run', '--project', project];

/** The same commands as package.json's typecheck / lint / test:* scripts. */
const layers = [
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

const results = [];
let failed;
for (const layer of selected) {
  process.stderr.write(`\n── ${layer.name} ${'─'.repeat(Math.max(0, 60 - layer.name.length))}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, layer.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
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
if (failed) {
  say(`${failed} failed (output above); the layers after it did not run.`);
  process.exit(1);
}
say(`all ${selected.length} layers passed.`);
