import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loopGroups,
  oneLoop,
  readImportGraph,
  twoWayFeaturePairs,
  type ImportGraph,
} from '../../../scripts/import-loops';

/**
 * The house's import graph, read from the real files with the TypeScript compiler's own module
 * resolution (scripts/import-loops.ts): no runtime import loop anywhere in src/, the renderer's
 * transport imports no feature, and few features import each other.
 */
const root = path.resolve(import.meta.dirname, '../../..');
let graph: ImportGraph;

// Reading ~700 files is a few seconds on a busy machine: once, for every test here.
beforeAll(() => {
  graph = readImportGraph(root);
}, 60_000);

describe('the import graph of src/', () => {
  it('reads the real files and their imports', () => {
    expect(graph.files).toContain('src/main/index.ts');
    expect(graph.runtime.get('src/renderer/app.tsx')).toContain('src/renderer/shell/event-routing.ts');
  });

  it('has no runtime import loop', () => {
    const loops = loopGroups(graph.runtime).map((group) => oneLoop(graph.runtime, group).join(' → '));
    expect(loops).toEqual([]);
  });

  it('keeps src/renderer/ipc/ free of features', () => {
    const intoFeatures = [...graph.all]
      .filter(([from]) => from.startsWith('src/renderer/ipc/'))
      .flatMap(([from, targets]) =>
        [...targets].filter((to) => to.startsWith('src/renderer/features/')).map((to) => `${from} → ${to}`),
      );
    expect(intoFeatures).toEqual([]);
  });

  // Features talk through the workspace's and the operations' stores and are put together in
  // src/renderer/shell/; a pair left importing each other says why where it does.
  it('has at most three pairs of renderer features importing each other', () => {
    expect(twoWayFeaturePairs(graph.all).length).toBeLessThanOrEqual(3);
  });
});

describe('the loop check itself', () => {
  let dir: string;

  // A small planted tree: a.ts ↔ b.ts at runtime, c.ts ↔ d.ts through `import type` only,
  // and a renderer pair of features that import each other.
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-import-loops-'));
    const files: Record<string, string> = {
      'src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'src/c.ts': "import type { D } from './d';\nexport interface C { d?: D }\n",
      'src/d.ts': "import { type C } from './c';\nexport interface D { c?: C }\n",
      'src/e.ts': "import { a } from './a';\nexport const e = a;\n",
      'src/renderer/features/one/x.ts': "import { y } from '../two/y';\nexport const x = y;\n",
      'src/renderer/features/two/y.ts': "import type { X } from '../one/types';\nexport const y = 1 as X;\n",
      'src/renderer/features/one/types.ts': 'export type X = number;\n',
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds a planted runtime loop and names its path', () => {
    const planted = readImportGraph(dir);
    const groups = loopGroups(planted.runtime);
    expect(groups).toEqual([['src/a.ts', 'src/b.ts']]);
    expect(oneLoop(planted.runtime, groups[0]!)).toEqual(['src/a.ts', 'src/b.ts', 'src/a.ts']);
  });

  it('counts a loop through type-only imports apart from the runtime ones', () => {
    const planted = readImportGraph(dir);
    expect(loopGroups(planted.all)).toEqual([
      ['src/a.ts', 'src/b.ts'],
      ['src/c.ts', 'src/d.ts'],
    ]);
  });

  it('finds features that import each other', () => {
    expect(twoWayFeaturePairs(readImportGraph(dir).all)).toEqual(['one ↔ two']);
  });
});
