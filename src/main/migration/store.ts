import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { FixPlanSummary, FixResult, MigrationReport, ScanSummary } from '../../shared/ipc/migration';
import { isMissingFile, writeFileAtomic } from '../aws/atomic-file';
import { AcknowledgementStore } from './acknowledgements';
import { OrmModelStore } from './model-store';
import type { MigrationScanCheckpoint } from './scan-migration';

const ID = /^[A-Za-z0-9_-]{6,80}$/;
/** The scan list reads at most this many summaries (newest first by id). */
const MAX_LISTED = 200;

export function newMigrationId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Scans, checkpoints, reports and fix plans under <dataDir>/migration, one JSON file per thing,
 * written atomically so a crash mid-save leaves the previous checkpoint intact.
 */
export class MigrationStore {
  readonly scansDir: string;
  readonly plansDir: string;
  /** The model settings the team acknowledged, per connection and table. */
  readonly acknowledgements: AcknowledgementStore;
  /** The dynotable-orm model file each table's pre-flight uses. */
  readonly models: OrmModelStore;

  constructor(dataDir: string) {
    this.acknowledgements = new AcknowledgementStore(dataDir);
    this.models = new OrmModelStore(dataDir);
    this.scansDir = join(dataDir, 'migration', 'scans');
    this.plansDir = join(dataDir, 'migration', 'plans');
  }

  private file(dir: string, id: string, kind: string): string {
    if (!ID.test(id)) throw new AppFailure(ErrorCodes.invalidInput, `${id} is not a scan or plan id.`);
    return join(dir, `${id}.${kind}.json`);
  }

  private async read<T>(path: string, what: string): Promise<T> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as T;
    } catch (error) {
      if (isMissingFile(error)) throw new AppFailure(ErrorCodes.notFound, `There is no ${what}.`);
      throw error;
    }
  }

  saveCheckpoint(c: MigrationScanCheckpoint): Promise<void> {
    return writeFileAtomic(this.file(this.scansDir, c.scanId, 'checkpoint'), JSON.stringify(c));
  }
  loadCheckpoint(scanId: string): Promise<MigrationScanCheckpoint> {
    return this.read(
      this.file(this.scansDir, scanId, 'checkpoint'),
      `checkpoint for scan ${scanId} (it finished, or was never started)`,
    );
  }
  async dropCheckpoint(scanId: string): Promise<void> {
    await rm(this.file(this.scansDir, scanId, 'checkpoint'), { force: true });
  }

  saveSummary(s: ScanSummary): Promise<void> {
    return writeFileAtomic(this.file(this.scansDir, s.scanId, 'summary'), JSON.stringify(s));
  }
  loadSummary(scanId: string): Promise<ScanSummary> {
    return this.read(this.file(this.scansDir, scanId, 'summary'), `scan ${scanId}`);
  }
  saveReport(r: MigrationReport): Promise<void> {
    return writeFileAtomic(this.file(this.scansDir, r.scanId, 'report'), JSON.stringify(r));
  }
  loadReport(scanId: string): Promise<MigrationReport> {
    return this.read(this.file(this.scansDir, scanId, 'report'), `report for scan ${scanId}`);
  }

  async listSummaries(filter: { connectionId: string; table?: string }): Promise<ScanSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.scansDir);
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const ids = names
      .filter((n) => n.endsWith('.summary.json'))
      .map((n) => n.slice(0, -'.summary.json'.length))
      .sort()
      .reverse()
      .slice(0, MAX_LISTED);
    const summaries = await Promise.all(ids.map((id) => this.loadSummary(id).catch(() => undefined)));
    return summaries.filter(
      (s): s is ScanSummary =>
        s !== undefined &&
        s.connectionId === filter.connectionId &&
        (!filter.table || s.table === filter.table),
    );
  }

  planFile(planId: string): string {
    return this.file(this.plansDir, planId, 'updates').replace(/\.json$/, '.jsonl');
  }
  resultsFile(planId: string): string {
    return this.file(this.plansDir, planId, 'results').replace(/\.json$/, '.jsonl');
  }
  savePlanSummary(s: FixPlanSummary): Promise<void> {
    return writeFileAtomic(this.file(this.plansDir, s.planId, 'plan'), JSON.stringify(s));
  }
  loadPlanSummary(planId: string): Promise<FixPlanSummary> {
    return this.read(this.file(this.plansDir, planId, 'plan'), `fix plan ${planId}`);
  }
  saveFixResult(r: FixResult): Promise<void> {
    return writeFileAtomic(this.file(this.plansDir, r.planId, 'result'), JSON.stringify(r));
  }
  async loadFixResult(planId: string): Promise<FixResult | null> {
    try {
      return await this.read<FixResult>(
        this.file(this.plansDir, planId, 'result'),
        `result for plan ${planId}`,
      );
    } catch (error) {
      if (error instanceof AppFailure && error.code === ErrorCodes.notFound) return null;
      throw error;
    }
  }
}
