import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { FixPlanSummary, FixResult, MigrationReport, ScanSummary } from '../../shared/ipc/migration';
import {
  type DataFileKind,
  readDataFile,
  readDataFileOrFail,
  stringInSetAside,
  stringsNamed,
} from '../core/data-files';
import { AcknowledgementStore } from './acknowledgements';
import { DynamooseFileStore, OrmModelStore } from './model-store';
import { type JobKindSpec, JobStore, type JobView } from '../jobs/job-store';
import type { MigrationScanCheckpoint } from './scan-migration';

const ID = /^[A-Za-z0-9_-]{6,80}$/;
/** The scan list reads at most this many summaries (newest first by id). */
const MAX_LISTED = 200;

/**
 * What each file must hold to be used. Deliberately little: the files are ours and a release
 * may add fields, so an older file is read as it is; these only tell a file from garbage.
 */
const scanShape = z.object({ scanId: z.string(), table: z.string() });
const planShape = z.object({ planId: z.string() });

function migrationFile<T>(what: string, shape: z.ZodType, instead: string): DataFileKind<T> {
  return {
    what,
    parse: (json) => {
      shape.parse(json);
      return json as T;
    },
    held: heldTable,
    instead,
  };
}

function heldTable(text: string): string | undefined {
  const [table] = stringsNamed(text, 'table');
  return table === undefined ? undefined : `a pre-flight of ${table}`;
}

const SUMMARY = '.summary.json';
const REPORT = '.report.json';

const OTHERS = 'Other scans are not affected.';
const kinds = {
  summary: (id: string) =>
    migrationFile<ScanSummary>(
      `The record of pre-flight scan ${id}`,
      scanShape.extend({ connectionId: z.string(), state: z.string() }),
      `It is listed as failed; start a new scan of the table. ${OTHERS}`,
    ),
  report: (id: string) =>
    migrationFile<MigrationReport>(
      `The report of pre-flight scan ${id}`,
      scanShape,
      `Start a new scan of the table to see its findings again. ${OTHERS}`,
    ),
  result: (id: string) =>
    migrationFile<FixResult>(
      `The outcome of fix ${id}`,
      planShape,
      'What the fix wrote stays in the table; scan the table again to see where it stands.',
    ),
};

export const preflightJob: JobKindSpec<MigrationScanCheckpoint> = {
  kind: 'preflight',
  ids: ID,
  badId: (id) => `${id} is not a scan or plan id.`,
  payload: scanShape.extend({ startedAt: z.string(), segments: z.array(z.unknown()) }),
  // A checkpoint is written only while its scan reads; runningJobs() tells a live one from a cut-off one.
  envelopeOf: (c) => ({ id: c.scanId, state: 'running', startedAt: c.startedAt }),
  what: (id) => `The checkpoint of pre-flight scan ${id}`,
  held: heldTable,
  instead: `What that scan read so far is lost; start a new scan of the table. ${OTHERS}`,
  legacy: { checkpoint: '.checkpoint.json', sides: [SUMMARY, REPORT] },
};

const RESULT = '.result.json';
const UPDATES = '.updates.jsonl';
const RESULTS = '.results.jsonl';

/**
 * A fix plan as a job (<data>/jobs/fix/<id>.json): the record's payload is the plan's summary;
 * the planned updates, the outcome of each write (read back to resume) and the run's result are
 * its side files. A plan waits to be run or resumed, so its record is always `stopped`; whether
 * a run finished is in its result.
 */
export const fixJob: JobKindSpec<FixPlanSummary> = {
  kind: 'fix',
  ids: ID,
  badId: (id) => `${id} is not a scan or plan id.`,
  payload: planShape.extend({ connectionId: z.string(), table: z.string(), createdAt: z.string() }),
  envelopeOf: (p) => ({ id: p.planId, state: 'stopped', startedAt: p.createdAt }),
  what: (id) => `The fix plan ${id}`,
  held: (text) => {
    const [table] = stringsNamed(text, 'table');
    return table === undefined ? undefined : `a fix of ${table}`;
  },
  instead: 'Plan the fix again from its scan; what a run of it wrote stays in the table.',
  legacy: { checkpoint: '.plan.json', sides: [RESULT, UPDATES, RESULTS] },
};

export function newMigrationId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Pre-flight scans (checkpoint record, summary, report) and fix plans (plan, updates, outcomes,
 * result): typed views of the job store (<data>/jobs/preflight/ and <data>/jobs/fix/), one file
 * per thing, written atomically so a crash mid-save leaves the previous checkpoint intact.
 */
export class MigrationStore {
  private readonly scans: JobView<MigrationScanCheckpoint>;
  private readonly plans: JobView<FixPlanSummary>;
  /** The model settings the team acknowledged, per connection and table. */
  readonly acknowledgements: AcknowledgementStore;
  /** The dynotable-orm model file each table's pre-flight uses. */
  readonly models: OrmModelStore;
  /** The dynamoose schema file each table's scans check the items against. */
  readonly dynamoose: DynamooseFileStore;

  constructor(dataDir: string, jobs: JobStore = new JobStore(dataDir)) {
    this.acknowledgements = new AcknowledgementStore(dataDir);
    this.models = new OrmModelStore(dataDir);
    this.dynamoose = new DynamooseFileStore(dataDir);
    this.scans = jobs.view(preflightJob);
    this.plans = jobs.view(fixJob);
  }

  /** An unreadable file is set aside and fails with its sentence (DataFileSetAside); a missing one is NotFound. */
  private async read<T>(path: string, kind: DataFileKind<T>, what: string): Promise<T> {
    const value = await readDataFileOrFail(path, kind);
    if (value === undefined) throw new AppFailure(ErrorCodes.notFound, `There is no ${what}.`);
    return value;
  }

  saveCheckpoint(c: MigrationScanCheckpoint): Promise<void> {
    return this.scans.write(c);
  }
  loadCheckpoint(scanId: string): Promise<MigrationScanCheckpoint> {
    return this.scans.load(
      scanId,
      `There is no checkpoint for scan ${scanId} (it finished, or was never started).`,
    );
  }
  async dropCheckpoint(scanId: string): Promise<void> {
    await this.scans.forget(scanId);
  }

  async saveSummary(s: ScanSummary): Promise<void> {
    await this.scans.writeSide(s.scanId, SUMMARY, s);
  }
  async loadSummary(scanId: string): Promise<ScanSummary> {
    return this.read(await this.scans.file(scanId, SUMMARY), kinds.summary(scanId), `scan ${scanId}`);
  }
  async saveReport(r: MigrationReport): Promise<void> {
    await this.scans.writeSide(r.scanId, REPORT, r);
  }
  async loadReport(scanId: string): Promise<MigrationReport> {
    return this.read(
      await this.scans.file(scanId, REPORT),
      kinds.report(scanId),
      `report for scan ${scanId}`,
    );
  }

  async listSummaries(filter: { connectionId: string; table?: string }): Promise<ScanSummary[]> {
    const ids = (await this.scans.idsWith(SUMMARY)).slice(0, MAX_LISTED);
    const summaries = await Promise.all(ids.map((id) => this.listedSummary(id, filter)));
    return summaries.filter(
      (s): s is ScanSummary =>
        s !== undefined &&
        s.connectionId === filter.connectionId &&
        (!filter.table || s.table === filter.table),
    );
  }

  /**
   * A summary that cannot be read is set aside, and a failed scan whose error is the sentence
   * takes its place, under the connection and table named in what is left of it (else the
   * list's that found it): the scan list is where the user looks for it.
   */
  private async listedSummary(
    scanId: string,
    filter: { connectionId: string; table?: string },
  ): Promise<ScanSummary | undefined> {
    const read = await readDataFile(await this.scans.file(scanId, SUMMARY), kinds.summary(scanId));
    if (read.state === 'read') return read.value;
    if (read.state === 'missing') return undefined;
    const named = (name: string) => stringInSetAside(read.notice, name);
    const failed: ScanSummary = {
      scanId,
      connectionId: (await named('connectionId')) ?? filter.connectionId,
      table: (await named('table')) ?? filter.table ?? '',
      state: 'failed',
      // When it started is in the file that did not read; when it was found out is what is known.
      startedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      segments: 0,
      itemsScanned: 0,
      tableItemCount: 0,
      consumedReadCapacity: 0,
      error: read.notice.message,
    };
    await this.saveSummary(failed);
    return failed;
  }

  /** JSON lines {i, update}: the requests the run will send, in order (written by the dry run). */
  planFile(planId: string): Promise<string> {
    return this.plans.file(planId, UPDATES);
  }
  /** JSON lines {i, outcome, ...}: appended as writes finish, read back to resume. */
  resultsFile(planId: string): Promise<string> {
    return this.plans.file(planId, RESULTS);
  }
  savePlanSummary(s: FixPlanSummary): Promise<void> {
    return this.plans.write(s);
  }
  loadPlanSummary(planId: string): Promise<FixPlanSummary> {
    return this.plans.load(planId, `There is no fix plan ${planId}.`);
  }
  saveFixResult(r: FixResult): Promise<void> {
    return this.plans.writeSide(r.planId, RESULT, r);
  }
  async loadFixResult(planId: string): Promise<FixResult | null> {
    return (await this.plans.readSide(planId, RESULT, kinds.result(planId))) ?? null;
  }
}
