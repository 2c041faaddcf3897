import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type {
  FixPolicy,
  PlannedChange,
  PlannedUpdate,
  ReadLimit,
  ReviewEntry,
} from '../../shared/ipc/migration';
import type { Progress } from '../../shared/ipc/operations';
import { fromSdkItem } from '../dynamo/marshal';
import { planItem, type PlanOptions } from './fix-plan';
import { pacingFor } from './limits';
import { tableKeyAttributes } from './report';
import { toPlainKey } from './samples';
import { initialCursors, segmentedScan } from '../dynamo/read/segmented-read';
import { describeForMigration } from './table-info';
import { AppFailure, ErrorCodes } from '../../shared/errors';

export interface BuildPlanOptions {
  client: DynamoDBClient;
  table: string;
  policy: FixPolicy;
  convertDates: boolean;
  datePaths?: string[];
  /** Rewrite "true"/"false" strings as BOOL at these paths. */
  booleanPaths?: string[];
  /** Rewrite JSON text as maps and lists at these paths. */
  documentPaths?: string[];
  /** Rewrite TTL values in epoch ms as epoch seconds (the TTL attribute DescribeTimeToLive names). */
  ttlToSeconds?: boolean;
  /** Only the TTL rewrite (implies ttlToSeconds): nothing else of any item is planned. */
  ttlOnly?: boolean;
  /** Rewrite string and number sets at these paths as lists. */
  setToListPaths?: string[];
  /** Rewrite lists of strings or of numbers at these paths as sets. */
  listToSetPaths?: string[];
  segments?: number;
  limit?: ReadLimit;
  signal: AbortSignal;
  /** JSON lines {i, update}: the requests the run will send, in order. */
  planFile: string;
  onProgress?(progress: Progress): void;
  sampleLimit?: number;
}

export interface BuiltPlan {
  itemsScanned: number;
  updates: number;
  moves: number;
  removals: number;
  dateConversions: number;
  /** Booleans and TTL values rewritten (absent from callers that ask for none). */
  rewrites: number;
  review: number;
  /** Values rewritten per path (booleans, JSON text, sets and lists, TTL values). */
  rewritesByPath: { path: string; values: number }[];
  /** The first few rewrites, with the value before and after. */
  sampleChanges: PlannedChange[];
  sampleRequests: PlannedUpdate[];
  reviewSamples: ReviewEntry[];
}

/** Enough rewrites to see each path's before and after, not a second copy of the plan. */
const SAMPLE_CHANGES_PER_PATH = 3;

/**
 * The dry run: a fresh scan (the data may have changed since the report) that writes every
 * planned UpdateItem to a file and keeps a few as samples. Nothing is written to the table.
 */
export async function buildFixPlan(options: BuildPlanOptions): Promise<BuiltPlan> {
  const info = await describeForMigration(options.client, options.table, options.signal);
  const ttlToSeconds = options.ttlToSeconds === true || options.ttlOnly === true;
  if (ttlToSeconds && !info.ttlAttribute)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `TTL is off for ${options.table}, so there is no TTL attribute to rewrite in epoch seconds.`,
    );
  const segments = options.segments ?? 4;
  const planOptions: PlanOptions = {
    keyAttributes: tableKeyAttributes(info),
    policy: options.policy,
    convertDates: options.convertDates,
    datePaths: options.datePaths && options.datePaths.length > 0 ? new Set(options.datePaths) : undefined,
    protectedAttributes: new Set([...tableKeyAttributes(info), ...Object.keys(info.indexKeys)]),
    ...(options.booleanPaths && options.booleanPaths.length > 0
      ? { booleanPaths: new Set(options.booleanPaths) }
      : {}),
    ...(options.documentPaths?.length ? { documentPaths: new Set(options.documentPaths) } : {}),
    ...(ttlToSeconds && info.ttlAttribute ? { ttlMillisAttribute: info.ttlAttribute } : {}),
    ...(options.ttlOnly ? { ttlOnly: true } : {}),
    ...(options.setToListPaths?.length ? { setToListPaths: new Set(options.setToListPaths) } : {}),
    ...(options.listToSetPaths?.length ? { listToSetPaths: new Set(options.listToSetPaths) } : {}),
  };
  const pacing = pacingFor(options.limit, info, segments);
  const sampleLimit = options.sampleLimit ?? 5;
  const built: BuiltPlan = {
    itemsScanned: 0,
    updates: 0,
    moves: 0,
    removals: 0,
    dateConversions: 0,
    rewrites: 0,
    review: 0,
    rewritesByPath: [],
    sampleChanges: [],
    sampleRequests: [],
    reviewSamples: [],
  };
  // Paths are data (`__proto__` is a name): counted in a Map.
  const byPath = new Map<string, number>();
  let consumed = 0;
  let pages = 0;
  await mkdir(dirname(options.planFile), { recursive: true });
  const out = createWriteStream(options.planFile, { encoding: 'utf8', mode: 0o600 });
  let backlog: Promise<unknown> | undefined;
  let lastProgress = 0;
  try {
    await segmentedScan({
      client: options.client,
      table: options.table,
      cursors: initialCursors(segments),
      totalSegments: segments,
      signal: options.signal,
      limiter: pacing.limiter,
      limiterUnit: pacing.unit,
      pageLimit: pacing.pageLimit,
      onPage(page) {
        pages += 1;
        consumed += page.consumed;
        let lines = '';
        for (const raw of page.items) {
          built.itemsScanned += 1;
          const plan = planItem(fromSdkItem(raw), planOptions);
          built.review += plan.review.length;
          for (const entry of plan.review)
            if (built.reviewSamples.length < 50) built.reviewSamples.push(entry);
          if (!plan.update) continue;
          lines += `${JSON.stringify({ i: built.updates, update: plan.update })}\n`;
          built.updates += 1;
          built.moves += plan.moves;
          built.removals += plan.removals;
          built.dateConversions += plan.conversions;
          built.rewrites += plan.rewrites;
          for (const change of plan.changes ?? []) {
            const seen = byPath.get(change.path) ?? 0;
            byPath.set(change.path, seen + 1);
            if (seen < SAMPLE_CHANGES_PER_PATH)
              built.sampleChanges.push({ key: toPlainKey(plan.update.Key), ...change });
          }
          if (built.sampleRequests.length < sampleLimit) built.sampleRequests.push(plan.update);
        }
        if (lines && !out.write(lines)) backlog ??= once(out, 'drain').finally(() => (backlog = undefined));
        const now = performance.now();
        if (now - lastProgress < 250) return;
        lastProgress = now;
        options.onProgress?.({
          items: built.itemsScanned,
          pages,
          consumedCapacity: Math.round(consumed * 10) / 10,
          ...(info.itemCount > 0 ? { fraction: Math.min(1, built.itemsScanned / info.itemCount) } : {}),
          message: `${built.itemsScanned.toLocaleString('en-US')} items read · ${built.updates.toLocaleString('en-US')} updates planned`,
        });
      },
    });
    await backlog;
    built.rewritesByPath = [...byPath].map(([path, values]) => ({ path, values }));
  } finally {
    out.end();
    await once(out, 'close');
  }
  return built;
}
