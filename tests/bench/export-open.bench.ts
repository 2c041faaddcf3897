/**
 * Opening a 1,000,000-item export (`npm run bench -- export-open`; env EXPORT_ITEMS, ROUNDS):
 * client CPU per item of openExport() from a local folder in the documented layout (gunzip,
 * line batching, the worker's byte-level encoding into the result-set store), as a ratio to
 * JSON.parse of the same decompressed lines, measured in the same run in paired rounds.
 * Goal: at most 1.5. CPU is process.cpuUsage(), which counts every thread (the worker too).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { generateExport } from '../support/exports/generate-export';
import { createResultSetStore } from '../../src/main/resultsets/store';
import { openExport } from '../../src/main/exports/export-open';
import { folderFiles } from '../../src/main/exports/export-source';

const ITEMS = Number(process.env.EXPORT_ITEMS ?? 1_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const cpuMicros = (): number => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function main(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'dynotable-export-bench-'));
  try {
    const generated = await generateExport(folder, ITEMS);
    const texts = await Promise.all(
      generated.dataFiles.map(async (f) => gunzipSync(await readFile(f)).toString('utf8')),
    );
    const lines = texts.flatMap((text) => text.split('\n').filter((line) => line !== ''));
    texts.length = 0;
    const decompressedBytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
    const parse: number[] = [];
    const open: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      gc();
      let started = cpuMicros();
      let kept = 0;
      for (const line of lines) kept += (JSON.parse(line) as { Item?: object }).Item ? 1 : 0;
      parse.push((cpuMicros() - started) / kept);

      gc();
      const store = createResultSetStore();
      await store.create({ connectionId: 'warm', table: 'warm', keyAttributes: [] });
      started = cpuMicros();
      const opened = await openExport(folderFiles(folder), store, {
        connectionId: 'bench',
        keyAttributes: ['pk', 'sk'],
      });
      open.push((cpuMicros() - started) / opened.items);
      if (opened.items !== ITEMS) throw new Error(`opened ${opened.items} items, expected ${ITEMS}`);
      await store.close();
    }
    const p = median(parse);
    const o = median(open);
    const rows = [
      ['JSON.parse of the decompressed lines (reference)', p, 1],
      ['openExport from a local folder (gunzip + encode into the store)', o, o / p],
    ] as const;
    process.stdout.write(
      `${ITEMS.toLocaleString('en')} items, ${generated.dataFiles.length} data files, ${(decompressedBytes / 2 ** 20).toFixed(1)} MiB decompressed, ${ROUNDS} paired rounds (median)\n`,
    );
    for (const [label, micros, ratio] of rows)
      process.stdout.write(
        `${label.padEnd(70)} ${micros.toFixed(2).padStart(7)} µs/item ${ratio.toFixed(2).padStart(6)}×\n`,
      );
    process.stdout.write(
      `goal ≤ 1.5×: ${o / p <= 1.5 ? 'met' : 'not met'}; load: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

void main();
