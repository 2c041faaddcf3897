import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolder, ownFolders } from '../../../src/main/files/data-folder';

const ROOT = path.resolve(__dirname, '../../..');
const HOME = 'src/main/files/data-folder.ts';
/** A name joined onto the data folder itself: `join(dataDir, 'x')`, `path.resolve(ctx.dataDir, …)`. */
const JOINED = /\b(?:join|resolve)\(\s*[\w.]*[dD]ataDir(?:\(\))?\s*,/;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

function joinsOnto(text: string): string[] {
  return text.split('\n').filter((line) => JOINED.test(line));
}

describe('the data folder is named in one module', () => {
  it('no file but src/main/files/data-folder.ts joins a name onto the data folder', () => {
    const offenders = ['src/main', 'src/cli']
      .flatMap(sources)
      .filter((file) => file !== HOME)
      .flatMap((file) =>
        joinsOnto(readFileSync(path.join(ROOT, file), 'utf8')).map((line) => `${file}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the check catches a planted join', () => {
    expect(joinsOnto("const f = path.join(dataDir, 'new-thing.json');")).toHaveLength(1);
    expect(joinsOnto("const f = join(ctx.dataDir, 'jobs');")).toHaveLength(1);
    expect(joinsOnto("const f = join(defaultDataDir(), 'x');")).toHaveLength(1);
    expect(joinsOnto('const inside = isInside(path.resolve(scope.dataDir), resolved);')).toEqual([]);
  });

  it('lists the layout of the data folder', () => {
    const d = path.join(path.sep, 'data');
    const rel = (p: string) => path.relative(d, p).split(path.sep).join('/');
    expect(
      [
        dataFolder.workspace(d),
        dataFolder.connections(d),
        dataFolder.secrets(d),
        dataFolder.agentSettings(d),
        dataFolder.agentAudit(d),
        dataFolder.mcpExposures(d),
        dataFolder.athenaSettings(d),
        dataFolder.journalSettings(d),
        dataFolder.sampleSeeded(d),
        dataFolder.exports(d),
        dataFolder.uploads(d),
        dataFolder.exportUploads(d),
        dataFolder.migrationSettings(d, 'acknowledgements'),
        dataFolder.migrationSettings(d, 'models'),
        dataFolder.migrationSettings(d, 'dynamoose'),
        dataFolder.jobs(d, 'preflight'),
        dataFolder.jobs(d, 'schema'),
        dataFolder.jobs(d, 'copy'),
        dataFolder.jobs(d, 'export'),
        dataFolder.jobs(d, 'fix'),
        dataFolder.connection(d, 'sql', 'conn-1'),
        dataFolder.connection(d, 'journal', 'a b'),
        dataFolder.connection(d, 'health', 'conn-1'),
      ].map(rel),
    ).toEqual([
      'workspace.json',
      'connections.json',
      'secrets',
      'agent-settings.json',
      'agent-audit.jsonl',
      'mcp-exposures.json',
      'athena-settings.json',
      'journal/settings.json',
      'sample-seeded.json',
      'exports',
      'uploads',
      'export-uploads',
      'migration/acknowledgements',
      'migration/models',
      'migration/dynamoose',
      'jobs/preflight',
      'jobs/schema',
      'jobs/copy',
      'jobs/export',
      'jobs/fix',
      'sql/conn-1',
      expect.stringMatching(/^journal\/a_b-[0-9a-f]{8}$/),
      'health/conn-1',
    ]);
    // Every folder a job or a setting is written into atomically is swept for a killed writer's temp files.
    expect(ownFolders(d).map(rel)).toEqual(
      expect.arrayContaining([
        'jobs',
        'migration',
        'sql',
        'journal',
        'health',
        'secrets',
        'copies',
        'table-exports',
      ]),
    );
  });
});
