import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cliCommand, ourLines, runCli, type CliRun } from '../support/cli-run';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';

/**
 * scan-migration and schema run as the app's jobs: their records are in the data folder's one
 * job store, Ctrl+C stops them resumably, and --resume ends with the report an uninterrupted
 * run prints.
 */
const endpoint = inject('dynamoEndpoint');
const client = localClient(endpoint);
let dataDir: string;
let table: string;
const env = (): NodeJS.ProcessEnv => ({ AWS_REGION: 'us-east-1', DYNOTABLE_DATA_DIR: dataDir });
const at = (): string[] => ['--table', table, '--endpoint', endpoint];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-cli-jobs-'));
  table = await createTable(client, uniqueTableName('clijobs'), { partitionKey: ['id', 'S'] });
  await putItems(
    client,
    table,
    Array.from({ length: 240 }, (_, i) => ({
      id: { S: `I#${i}` },
      // Findings for the pre-flight: dotted names, ISO dates, booleans as strings.
      ...(i % 4 === 0 ? { 'a.b': { S: `v${i}` } } : {}),
      createdAt:
        i % 3 === 0 ? { S: `2024-01-0${(i % 9) + 1}T10:00:00.000Z` } : { N: String(1704448800000 + i) },
      active: i % 5 === 0 ? { S: 'true' } : { BOOL: i % 2 === 0 },
    })),
  );
});
afterAll(() => {
  client.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The CLI in a child process, sent Ctrl+C (SIGINT) once `ready` holds. */
function interrupted(args: string[], ready: () => boolean): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const cli = cliCommand(args);
    const child = spawn(cli.command, cli.args, {
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const poll = setInterval(() => {
      if (!ready()) return;
      clearInterval(poll);
      child.kill('SIGINT');
    }, 100);
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(poll);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

const jobsOf = (kind: string): string[] => {
  const dir = path.join(dataDir, 'jobs', kind);
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** The id a stopped run printed in its resume hint. */
function resumeIdIn(run: CliRun, command: string): string {
  const line = ourLines(run.stderr).find((l) => l.startsWith(`dynotable ${command}: stopped at `));
  expect(line, run.stderr).toBeDefined();
  const id = /--resume (\S+)`/.exec(line!)?.[1];
  expect(id).toBeDefined();
  return id!;
}

/** A checkpoint record (not a summary or report): the job has read something and saved it (every 5 s). */
function checkpointed(kind: string): boolean {
  return jobsOf(kind).some((name) => /^[A-Za-z0-9_-]+\.json$/.test(name) && !name.includes('.summary'));
}

describe('CLI jobs in the one job store', () => {
  it('scan-migration is a pre-flight job: Ctrl+C stops it resumably, --resume prints the same report', async () => {
    const whole = await runCli(['scan-migration', ...at(), '--segments', '1', '--quiet'], env());
    expect(whole.code, whole.stderr).toBe(1);
    const expected = JSON.parse(whole.stdout) as Record<string, unknown>;
    // A job record of the finished scan, in the data folder the app reads.
    const done = jobsOf('preflight').filter((n) => n.endsWith('.summary.json'));
    expect(done).toHaveLength(1);
    const summary = JSON.parse(readFileSync(path.join(dataDir, 'jobs/preflight', done[0]!), 'utf8')) as {
      state: string;
      table: string;
      scanId: string;
    };
    expect(summary).toMatchObject({ state: 'done', table, scanId: expected.scanId });

    const stopped = await interrupted(
      ['scan-migration', ...at(), '--segments', '1', '--items-per-second', '20', '--quiet'],
      () => checkpointed('preflight'),
    );
    expect(stopped.code).toBe(2);
    const scanId = resumeIdIn(stopped, 'scan-migration');
    expect(scanId).not.toBe(expected.scanId);
    // Stopped, not gone: its checkpoint record waits in the job store.
    expect(jobsOf('preflight')).toContain(`${scanId}.json`);

    const resumed = await runCli(['scan-migration', ...at(), '--resume', scanId, '--quiet'], env());
    expect(resumed.code, resumed.stderr).toBe(1);
    const report = JSON.parse(resumed.stdout) as Record<string, unknown>;
    const comparable = ({
      scanId: _id,
      startedAt: _s,
      finishedAt: _f,
      consumedReadCapacity: _c,
      ...rest
    }: Record<string, unknown>) => rest;
    expect(report.scanId).toBe(scanId);
    expect(comparable(report)).toEqual(comparable(expected));
    // Finished: the checkpoint record is gone, the summary says done.
    expect(jobsOf('preflight')).not.toContain(`${scanId}.json`);
  });

  it('schema --full is a schema job: Ctrl+C stops it resumably, --resume prints the same report', async () => {
    const whole = await runCli(['schema', ...at(), '--full', '--quiet'], env());
    expect(whole.code, whole.stderr).toBe(0);
    expect(jobsOf('schema').filter((n) => n.endsWith('.report.json'))).toHaveLength(1);

    const stopped = await interrupted(
      ['schema', ...at(), '--full', '--segments', '1', '--items-per-second', '20', '--quiet'],
      () => checkpointed('schema'),
    );
    expect(stopped.code).toBe(2);
    const scanId = resumeIdIn(stopped, 'schema');
    expect(jobsOf('schema')).toContain(`${scanId}.json`);

    const resumed = await runCli(['schema', ...at(), '--full', '--resume', scanId, '--quiet'], env());
    expect(resumed.code, resumed.stderr).toBe(0);
    const drawless = (text: string) => {
      const { draw: _draw, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(drawless(resumed.stdout)).toEqual(drawless(whole.stdout));
  });

  it('--resume with nothing to resume is a usage error: exit 2 and a sentence', async () => {
    const none = await runCli(['scan-migration', ...at(), '--resume', 'scan-nothing-here'], env());
    expect(none.code).toBe(2);
    expect(ourLines(none.stderr)).toEqual(['dynotable scan-migration: There is no scan scan-nothing-here.']);
    const schema = await runCli(['schema', ...at(), '--full', '--resume', 'schema-nothing-here'], env());
    expect(schema.code).toBe(2);
    expect(ourLines(schema.stderr)).toHaveLength(1);
    expect(ourLines(schema.stderr)[0]).toMatch(/^dynotable schema: .*schema-nothing-here/);
    const bad = await runCli(['schema', ...at(), '--resume', '../../etc'], env());
    expect(bad.code).toBe(2);
    expect(ourLines(bad.stderr)).toEqual([
      'dynotable schema: --resume wants the ID a stopped run printed, not "../../etc".',
    ]);
  });
});
