import type { MigrationReport } from '../../shared/ipc/migration';
import type { DynamooseModel } from '../../shared/ipc/migration-dynamoose';
import { declaredOf } from './declared-checks';
import { dynamooseReview } from './dynamoose-review';
import type { Progress } from '../../shared/ipc/operations';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { emptyFindings, type FindingsState } from '../schema/findings';
import { emptySchemaState, SchemaAccumulator } from '../schema/accumulator';
import { pacingFor, type ScanPacing } from './limits';
import { RateMeter } from '../core/rate-meter';
import { buildReport, tableKeyAttributes } from './report';
import { initialCursors, type SegmentCursor } from '../dynamo/read/segmented-read';
import { runCheckpointedScan, type ScanRunOptions } from './checkpointed-scan';
import { describeForMigration, type MigrationTableInfo } from './table-info';

export interface MigrationScanCheckpoint {
  version: 1;
  scanId: string;
  table: string;
  startedAt: string;
  totalSegments: number;
  info: MigrationTableInfo;
  consumed: number;
  pages: number;
  scanned: number;
  /** Absent in checkpoints saved before throttling was counted. */
  throttledRequests?: number;
  segments: (SegmentCursor & { state: FindingsState })[];
  /** The dynamoose schema file the scan checks the items against (`--dynamoose-model`). */
  dynamoose?: DynamooseFile;
}

export interface DynamooseFile {
  file: string;
  models: DynamooseModel[];
}

export interface MigrationScanOptions extends ScanRunOptions<MigrationScanCheckpoint> {
  /** Continue from here (a cancelled or failed scan of the same table). */
  resume?: MigrationScanCheckpoint;
  /** Stop resumably after this many items in this run. */
  maxItems?: number;
  sampleLimit?: number;
  /** A dynamoose schema file, read: its declarations are checked in the same walk. */
  dynamoose?: DynamooseFile;
}

export interface MigrationScanResult {
  complete: boolean;
  report: MigrationReport;
  checkpoint: MigrationScanCheckpoint;
}

/** The report of a checkpoint: all segments merged (partial unless every segment is done). */
export function reportOfCheckpoint(
  c: MigrationScanCheckpoint,
  finishedAt: string,
  sampleLimit?: number,
): MigrationReport {
  const declared = c.dynamoose ? { declared: declaredOf(c.dynamoose.models) } : {};
  const merged = SchemaAccumulator.findingsOnly({
    keyAttributes: tableKeyAttributes(c.info),
    sampleLimit,
    ...declared,
  });
  for (const segment of c.segments) merged.merge({ ...emptySchemaState(), findings: segment.state });
  const report = buildReport(merged.findings, c.info, {
    scanId: c.scanId,
    table: c.table,
    startedAt: c.startedAt,
    finishedAt,
    complete: c.segments.every((s) => s.done),
    segments: c.totalSegments,
    tableItemCount: c.info.itemCount,
    consumedReadCapacity: Math.round(c.consumed * 10) / 10,
    throttledRequests: c.throttledRequests ?? 0,
  });
  if (!c.dynamoose) return report;
  return {
    ...report,
    dynamoose: dynamooseReview(c.dynamoose.file, c.dynamoose.models, merged.findings.traps?.declared),
  };
}

/**
 * The pre-flight scan: a segmented parallel Scan whose pages feed one accumulator per segment
 * (merged at the end), paced by the user's read limit, checkpointed so that cancel or failure
 * loses nothing but the pages in flight.
 */
export async function runMigrationScan(options: MigrationScanOptions): Promise<MigrationScanResult> {
  const resume = options.resume;
  if (resume && resume.table !== options.table) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `That checkpoint belongs to ${resume.table}, not ${options.table}.`,
    );
  }
  const info = resume?.info ?? (await describeForMigration(options.client, options.table, options.signal));
  const totalSegments = resume?.totalSegments ?? options.segments ?? 4;
  const checkpoint: MigrationScanCheckpoint = resume ?? {
    version: 1,
    scanId: options.scanId,
    table: options.table,
    startedAt: new Date().toISOString(),
    totalSegments,
    info,
    consumed: 0,
    pages: 0,
    scanned: 0,
    throttledRequests: 0,
    segments: initialCursors(totalSegments).map((c) => ({ ...c, state: emptyFindings() })),
    ...(options.dynamoose ? { dynamoose: options.dynamoose } : {}),
  };
  const keyAttributes = tableKeyAttributes(info);
  const ttl = {
    ttlAttribute: info.ttlAttribute,
    nowSeconds: nowSecondsOf(checkpoint),
    ...(checkpoint.dynamoose ? { declared: declaredOf(checkpoint.dynamoose.models) } : {}),
  };
  const accumulators = checkpoint.segments.map((s) =>
    SchemaAccumulator.findingsOnly({ keyAttributes, sampleLimit: options.sampleLimit, ...ttl }, s.state),
  );
  const pacing = pacingFor(options.limit, info, totalSegments);
  const meter = new RateMeter();
  const itemsSoFar = () => checkpoint.segments.reduce((n, s) => n + s.state.items, 0);
  const progress = (): Progress => {
    const items = itemsSoFar();
    const rate = meter.rate(items);
    return {
      items,
      pages: checkpoint.pages,
      consumedCapacity: Math.round(checkpoint.consumed * 10) / 10,
      scanned: checkpoint.scanned,
      ...(info.itemCount > 0 ? { fraction: Math.min(1, items / info.itemCount) } : {}),
      message: `${items.toLocaleString('en-US')} items · ${Math.round(rate).toLocaleString('en-US')} items/s · ${Math.round(meter.rate(checkpoint.consumed, 'rcu'))} RCU/s · ${pacingText(pacing, checkpoint.throttledRequests ?? 0)}`,
    };
  };
  const status = await runCheckpointedScan({
    options,
    checkpoint,
    scan: {
      cursors: checkpoint.segments,
      totalSegments,
      limiter: pacing.limiter,
      limiterUnit: pacing.unit,
      pageLimit: options.pageSize ?? pacing.pageLimit,
      maxItems: options.maxItems,
      // The tagged form straight from the response: the SDK need not build every value first.
      items: 'wire',
    },
    add(page) {
      (accumulators[page.segment] as SchemaAccumulator).addAll(page.items);
    },
    progress,
    save: () => snapshot(checkpoint),
  });
  const complete = status === 'done';
  if (!complete) await options.onCheckpoint?.(snapshot(checkpoint));
  options.onProgress?.(progress());
  return {
    complete,
    checkpoint,
    report: reportOfCheckpoint(checkpoint, new Date().toISOString(), options.sampleLimit),
  };
}

/** Expired TTL values are those before the scan started, so a resumed scan counts as the first run did. */
function nowSecondsOf(c: MigrationScanCheckpoint): number {
  return Math.floor(Date.parse(c.startedAt) / 1000);
}

/** The read limit for people, and whether throttling has lowered it for now. */
function pacingText(pacing: ScanPacing, throttled: number): string {
  if (throttled === 0) return pacing.description;
  const limiter = pacing.limiter;
  const unit = pacing.unit === 'items' ? 'items/s' : 'RCU/s';
  const slowed =
    limiter && limiter.currentRate < limiter.targetPerSecond
      ? `, slowed to ${Math.round(limiter.currentRate * 10) / 10} ${unit}`
      : '';
  return `${pacing.description}${slowed} · throttled ${throttled.toLocaleString('en-US')}×`;
}

/** A deep copy, so a save in progress never sees a page half-applied. */
function snapshot(c: MigrationScanCheckpoint): MigrationScanCheckpoint {
  return JSON.parse(JSON.stringify(c)) as MigrationScanCheckpoint;
}
