import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { runCheckpointedScan, type ScanRunOptions } from '../migration/checkpointed-scan';
import { tableSummary } from '../dynamo/table-metadata';
import type { Progress } from '../../shared/ipc/operations';
import type { SchemaReport } from '../../shared/ipc/schema';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { pacingFor } from '../migration/limits';
import { RateMeter } from '../core/rate-meter';
import { initialCursors, type SegmentCursor } from '../dynamo/read/segmented-read';
import { type MigrationTableInfo, tableInfoOf } from '../migration/table-info';
import { type EntitySource, SchemaAccumulator, type SchemaState, emptySchemaState } from './accumulator';
import { buildSchemaReport } from './report';
import { planSample } from './sample-plan';

export interface SchemaTableInfo extends MigrationTableInfo {
  index?: string;
  /** ItemCount of the index when one is read, else of the table. */
  readItemCount: number;
}

export interface SchemaCheckpoint {
  version: 1;
  scanId: string;
  table: string;
  index?: string;
  mode: 'sample' | 'full';
  startedAt: string;
  totalSegments: number;
  pageLimit?: number;
  info: SchemaTableInfo;
  entities: EntitySource;
  consumed: number;
  pages: number;
  throttledRequests: number;
  /** Random segments a sample found empty before it fell back to the table's first page. */
  emptySegmentsRead?: number;
  segments: (SegmentCursor & { state: SchemaState })[];
}

export interface SchemaAnalysisOptions extends ScanRunOptions<SchemaCheckpoint> {
  index?: string;
  mode: 'sample' | 'full';
  /** Items a sample aims at (default 1,000). */
  sampleSize?: number;
  /** Segments a sample reads (default 40), or a full scan's parallel segments (default 4). */
  segments?: number;
  entities?: EntitySource;
  resume?: SchemaCheckpoint;
  random?: () => number;
}

export interface SchemaAnalysis {
  complete: boolean;
  report: SchemaReport;
  checkpoint: SchemaCheckpoint;
}

export async function describeForSchema(
  client: DynamoDBClient,
  table: string,
  index: string | undefined,
  signal?: AbortSignal,
): Promise<SchemaTableInfo> {
  const summary = await tableSummary(client, table, signal);
  const info = tableInfoOf(summary);
  if (index === undefined) return { ...info, readItemCount: info.itemCount };
  const found = summary.indexes.find((i) => i.name === index);
  if (!found) throw new AppFailure(ErrorCodes.notFound, `The table ${table} has no index named ${index}.`);
  return { ...info, index, readItemCount: found.itemCount ?? 0 };
}

/** Table keys first, then index keys: the order paths are listed in. */
export function keyNamesOf(info: MigrationTableInfo): string[] {
  const names = [info.keys.partitionKey.name, ...(info.keys.sortKey ? [info.keys.sortKey.name] : [])];
  for (const name of Object.keys(info.indexKeys)) if (!names.includes(name)) names.push(name);
  return names;
}

const num = (v: number) => v.toLocaleString('en-US');

function drawText(c: SchemaCheckpoint, items: number, complete: boolean): string {
  const rcu = `${Math.round(c.consumed * 10) / 10} RCU`;
  const source = c.index ? `index ${c.index}` : 'the table';
  if (c.mode === 'sample' && c.emptySegmentsRead)
    return `${num(items)} items from the first page (up to ${num(c.pageLimit ?? 0)} items) of ${source}: the ${num(c.emptySegmentsRead)} random Scan segments read first were empty (its items sit in few partitions), ${rcu}.`;
  if (c.mode === 'sample') {
    const segments = c.segments.length;
    const all = segments === c.totalSegments;
    return `${num(items)} items from the first page (up to ${num(c.pageLimit ?? 0)} items) of ${all ? 'every one' : `${num(segments)} random segments`} of ${num(c.totalSegments)} Scan segments of ${source}, ${rcu}.`;
  }
  return `${complete ? 'Full scan' : 'Stopped full scan'} of ${source}: ${num(items)} items in ${num(c.totalSegments)} parallel segments, ${rcu}${c.throttledRequests ? `, throttled ${num(c.throttledRequests)}×` : ''}.`;
}

/** The report of a checkpoint: all segments merged (a full scan is partial unless every segment is done). */
export function reportOfSchemaCheckpoint(c: SchemaCheckpoint, finishedAt: string): SchemaReport {
  const merged = new SchemaAccumulator({ keys: c.info.keys, entities: c.entities, indexes: c.info.indexes });
  for (const segment of c.segments) merged.merge(segment.state);
  const complete = c.mode === 'full' && c.segments.every((s) => s.done);
  return buildSchemaReport(
    merged,
    {
      scanId: c.scanId,
      table: c.table,
      ...(c.index ? { index: c.index } : {}),
      keys: c.info.keys,
      ...(c.info.indexes ? { indexes: c.info.indexes } : {}),
      startedAt: c.startedAt,
      finishedAt,
      sampled: c.mode === 'sample',
      complete,
      tableItemCount: c.info.readItemCount,
      draw: {
        mode: c.mode,
        totalSegments: c.totalSegments,
        segments: c.segments.map((s) => s.segment),
        ...(c.pageLimit !== undefined && c.mode === 'sample' ? { pageLimit: c.pageLimit } : {}),
        pages: c.pages,
        consumedReadCapacity: Math.round(c.consumed * 10) / 10,
        throttledRequests: c.throttledRequests,
        description: drawText(c, merged.itemCount, complete),
      },
      entitySource: c.entities,
    },
    keyNamesOf(c.info),
  );
}

/**
 * The schema of a table or index, callable without any UI (the handler, the CLI and an MCP tool
 * all use this): a sample spread over Scan segments, or a full parallel scan paced by the
 * pre-flight's read limit, checkpointed so a cancelled scan resumes where it stopped.
 */
export async function analyzeSchema(options: SchemaAnalysisOptions): Promise<SchemaAnalysis> {
  const resume = options.resume;
  if (resume && (resume.table !== options.table || resume.index !== options.index))
    throw new AppFailure(ErrorCodes.invalidInput, `That checkpoint belongs to another table or index.`);
  const info =
    resume?.info ?? (await describeForSchema(options.client, options.table, options.index, options.signal));
  const entities = resume?.entities ?? options.entities ?? { kind: 'keys' };
  let checkpoint: SchemaCheckpoint;
  if (resume) checkpoint = resume;
  else {
    const base = {
      version: 1 as const,
      scanId: options.scanId,
      table: options.table,
      ...(options.index ? { index: options.index } : {}),
      mode: options.mode,
      startedAt: new Date().toISOString(),
      info,
      entities,
      consumed: 0,
      pages: 0,
      throttledRequests: 0,
    };
    if (options.mode === 'sample') {
      const plan = planSample(info.readItemCount, options.sampleSize, options.segments, options.random);
      checkpoint = {
        ...base,
        totalSegments: plan.totalSegments,
        pageLimit: plan.pageLimit,
        segments: plan.segments.map((segment) => ({ segment, done: false, state: emptySchemaState() })),
      };
    } else {
      const total = options.segments ?? 4;
      checkpoint = {
        ...base,
        totalSegments: total,
        segments: initialCursors(total).map((c) => ({ ...c, state: emptySchemaState() })),
      };
    }
  }
  const accumulators = new Map(
    checkpoint.segments.map((s) => [
      s.segment,
      new SchemaAccumulator({ keys: info.keys, entities, indexes: info.indexes }, s.state),
    ]),
  );
  const pacing = pacingFor(
    options.limit,
    { ...info, itemCount: info.readItemCount },
    checkpoint.segments.length,
  );
  const meter = new RateMeter();
  const itemsSoFar = () => {
    let n = 0;
    for (const a of accumulators.values()) n += a.itemCount;
    return n;
  };
  const expected =
    checkpoint.mode === 'sample'
      ? Math.min(info.readItemCount || Infinity, (checkpoint.pageLimit ?? 0) * checkpoint.segments.length)
      : info.readItemCount;
  const progress = (): Progress => {
    const items = itemsSoFar();
    return {
      items,
      pages: checkpoint.pages,
      consumedCapacity: Math.round(checkpoint.consumed * 10) / 10,
      ...(expected > 0 ? { fraction: Math.min(1, items / expected) } : {}),
      message: `${num(items)} items · ${num(Math.round(meter.rate(items)))} items/s · ${pacing.description}`,
    };
  };
  const save = () => {
    for (const s of checkpoint.segments)
      s.state = (accumulators.get(s.segment) as SchemaAccumulator).toJSON();
    return JSON.parse(JSON.stringify(checkpoint)) as SchemaCheckpoint;
  };
  const scanPass = () =>
    runCheckpointedScan({
      options,
      checkpoint,
      scan: {
        index: options.index,
        cursors: checkpoint.segments,
        totalSegments: checkpoint.totalSegments,
        limiter: pacing.limiter,
        limiterUnit: pacing.unit,
        pageLimit:
          checkpoint.mode === 'sample' ? checkpoint.pageLimit : (options.pageSize ?? pacing.pageLimit),
        ...(checkpoint.mode === 'sample' ? { pagesPerSegment: 1 } : {}),
        // Unpaced, a segment's next page is read while this one is analysed; paced, the limiter
        // decides when to read, and reading ahead would only move that moment.
        readAhead: checkpoint.mode === 'full' && !pacing.limiter,
        // The accumulator takes the tagged form: the SDK need not build every value first.
        items: 'wire',
      },
      add(page) {
        (accumulators.get(page.segment) as SchemaAccumulator).addWire(page.items);
      },
      progress,
      save,
    });
  let status = await scanPass();
  if (
    checkpoint.mode === 'sample' &&
    itemsSoFar() === 0 &&
    checkpoint.segments.length < checkpoint.totalSegments
  ) {
    // A table whose items sit in a few partitions fills a few segments: random segments can all
    // come back empty while the table is not. Then the sample is the table's first page instead.
    checkpoint.emptySegmentsRead = checkpoint.segments.length;
    checkpoint.pageLimit = Math.min(1000, (checkpoint.pageLimit ?? 1) * checkpoint.segments.length);
    checkpoint.totalSegments = 1;
    checkpoint.segments = initialCursors(1).map((c) => ({ ...c, state: emptySchemaState() }));
    accumulators.clear();
    accumulators.set(
      0,
      new SchemaAccumulator(
        { keys: info.keys, entities, indexes: info.indexes },
        checkpoint.segments[0]!.state,
      ),
    );
    status = await scanPass();
  }
  // A sample reads one page per segment: each segment is done with its share once that page is in.
  if (checkpoint.mode === 'sample') for (const s of checkpoint.segments) s.done = true;
  const final = save();
  const complete = checkpoint.mode === 'sample' || status === 'done';
  if (!complete) await options.onCheckpoint?.(final);
  options.onProgress?.(progress());
  return { complete, checkpoint: final, report: reportOfSchemaCheckpoint(final, new Date().toISOString()) };
}
