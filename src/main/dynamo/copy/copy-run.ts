import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { compileMapping, mappingProblem } from '../../../shared/dynamo/copy-mapping';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopyReport, CopyVerification } from '../../../shared/ipc/copy';
import type { Progress } from '../../../shared/ipc/operations';
import type { ResultSetStore, WrittenItem } from '../../resultsets/types';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { RateMeter } from '../../core/rate-meter';
import { abortFanOut } from '../../core/retry';
import { initialCursors, segmentedScan } from '../read/segmented-read';
import { fromSdkItem } from '../marshal';
import { keyAttributesOf, tableDetails, tableSummary } from '../table-metadata';
import { copyLimit } from './copy-capacity';
import { type CopyCheckpoint, type CopyStore, snapshotOf } from './copy-checkpoint';
import { sourceReader } from './copy-source';
import { prepareTarget } from './copy-target';
import { Verifier } from './copy-verify';
import { putItems, sdkKeyOf, type SdkItem } from '../writes/put-items';
import { replacedPairs } from '../writes/put-journal';
import type { JournalWriter } from '../../journal/journal-files';
import { keepForUndo, type Kept } from '../../journal/keep';

export interface CopyEnd {
  client: DynamoDBClient;
  /** For sentences. */
  label: string;
}

export interface CopyContext {
  source: CopyEnd;
  target: CopyEnd;
  store: CopyStore;
  /** The app's result sets: a result-set source, and the target's open views hearing of the writes. */
  resultSets?: ResultSetStore;
  record?(writes: WrittenItem[]): Promise<void>;
  /** An undo journal entry of the target table, for a copy into a table that existed before it. */
  startJournal?(reason: string): JournalWriter;
}

const MAX_FAILURES = 1000;
const PROGRESS_EVERY_MS = 250;
const CHECKPOINT_EVERY_MS = 2000;

/**
 * A copy from its checkpoint to its end: the target made ready (created or checked) before the
 * first write, then the source read page by page (Scan segments in parallel), each page mapped
 * and written by the conflict policy before its segment moves on, the checkpoint saved every
 * two seconds and whenever the copy stops; at the end an optional verification pass.
 */
export async function runCopy(
  c: CopyContext,
  checkpoint: CopyCheckpoint,
  run: OperationRun,
): Promise<OperationOutcome<'copy:start'>> {
  const { input } = checkpoint;
  const meter = new RateMeter();
  let phase: 'preparing' | 'copying' | 'verifying' = 'preparing';
  let lastEmit = 0;
  const progress = (): Progress => {
    const { read, written, skipped, failed } = checkpoint.counts;
    const rate = meter.rate(written + skipped + failed);
    const left = checkpoint.sourceCount - read;
    const etaSeconds = phase === 'copying' && rate > 0 && left > 0 ? Math.ceil(left / rate) : undefined;
    return {
      items: read,
      pages: 0,
      consumedCapacity: 0,
      ...(checkpoint.sourceCount > 0 ? { fraction: Math.min(1, read / checkpoint.sourceCount) } : {}),
      message: `${read.toLocaleString('en-US')} read · ${written.toLocaleString('en-US')} written · ${skipped.toLocaleString('en-US')} skipped · ${failed.toLocaleString('en-US')} failed · ${Math.round(rate).toLocaleString('en-US')} items/s`,
      failed,
      perSecond: rate,
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
      copy: { read, written, skipped, phase },
    };
  };
  const emit = (force = false): void => {
    const now = performance.now();
    if (!force && now - lastEmit < PROGRESS_EVERY_MS) return;
    lastEmit = now;
    run.emit({ type: 'progress', progress: progress() });
  };

  let saving: Promise<void> | undefined;
  let lastSave = performance.now();
  const save = (): Promise<void> => c.store.save(snapshotOf(checkpoint));
  // Items put into a table that held items before the copy may replace them: each put keeps
  // what it replaced (ALL_OLD), streamed into one journal entry per run, finished however it ends.
  let journal: JournalWriter | undefined;
  let kept: Promise<Kept> | undefined;
  const finishJournal = (): Promise<Kept> => (kept ??= journal ? keepForUndo(journal) : Promise.resolve({}));

  try {
    const details = await tableDetails(c.source.client, input.source.table, run.signal);
    const { summary } = details;
    const problem = mappingProblem(input.mapping, summary.keys);
    if (problem) throw new AppFailure(ErrorCodes.invalidInput, problem);
    const allKeys = [
      ...new Set([
        ...keyAttributesOf(summary),
        ...summary.indexes.flatMap((i) => keyAttributesOf(summary, i.name)),
      ]),
    ];
    const mapper = compileMapping(input.mapping, allKeys);
    // Before the target is made: an on-demand source refuses a share before anything is created.
    const read = copyLimit('read', summary, input.readRate, input.readShare);
    const reader = sourceReader(c.source.client, summary, input.source, c.resultSets);
    if (!checkpoint.target) {
      emit(true);
      const ready = await prepareTarget(
        { client: c.source.client, details },
        {
          client: c.target.client,
          table: input.target.table,
          label: c.target.label,
          create: input.target.create,
          includeTags: input.target.includeTags,
        },
        mapper,
        run,
      );
      checkpoint.target = { keys: ready.keys, created: ready.created };
      checkpoint.notes.push(...ready.notes, ...reader.notes);
      checkpoint.sourceCount =
        'resultSetId' in input.source
          ? ((await c.resultSets?.window(input.source.resultSetId, 0, 0))?.total ?? 0)
          : summary.itemCount;
      checkpoint.segments ??=
        'resultSetId' in input.source ? undefined : initialCursors(reader.segments(input.segments));
      await save();
    }
    const keys = checkpoint.target.keys;
    if (!checkpoint.target.created)
      journal = c.startJournal?.(`Copy from ${input.source.table} (${policyWords(input.conflict.policy)})`);
    phase = 'copying';
    emit(true);
    const write = copyLimit(
      'write',
      input.writeShare === undefined
        ? summary
        : await tableSummary(c.target.client, input.target.table, run.signal),
      input.writeRate,
      input.writeShare,
    );
    for (const note of [read?.note, write?.note])
      if (note && !checkpoint.notes.includes(note)) checkpoint.notes.push(note);
    const writer = {
      client: c.target.client,
      table: input.target.table,
      keys,
      policy: input.conflict,
      signal: run.signal,
      limiter: write?.limiter,
      limiterUnit: write?.unit,
      keepReplaced: journal !== undefined,
      journal,
    };

    // Each segment's writes on a signal of their own: up to 64 writers at once under one cancel.
    const writers = abortFanOut(run.signal);
    await reader
      .read(
        { cursors: checkpoint.segments, offset: checkpoint.offset },
        {
          signal: run.signal,
          limiter: read?.limiter,
          limiterUnit: read?.unit,
          readAhead: true,
          async onPage(page) {
            const mapped = page.items.map((item) => mapper.map(item));
            const out = await writers.run((signal) =>
              putItems({ ...writer, signal }, mapped, (item) => item),
            );
            // Kept also when a cancel cut the page short: these items are in the table.
            await journal?.add(replacedPairs(out, keys, fromSdkItem)).catch(() => undefined);
            // A page cut short by a cancel is not counted and its segment does not move: a resume
            // writes it again (puts are idempotent), so nothing is lost or counted twice.
            if (run.signal.aborted) return;
            const counts = checkpoint.counts;
            counts.read += page.items.length;
            counts.written += out.written.length;
            counts.skipped += out.skipped;
            counts.failed += out.failures.length;
            for (const { key, code, message } of out.failures.slice(
              0,
              MAX_FAILURES - checkpoint.failures.length,
            ))
              checkpoint.failures.push({ key, code, message });
            if (page.offset !== undefined) checkpoint.offset = page.offset;
            else if (checkpoint.segments)
              checkpoint.segments[page.segment] = {
                segment: page.segment,
                startKey: page.nextKey,
                done: !page.nextKey,
              };
            if (c.record && out.written.length > 0)
              await c.record(
                out.written.map((item) => ({ key: sdkKeyOf(item, keys), item: fromSdkItem(item) })),
              );
            emit();
            if (!saving && performance.now() - lastSave >= CHECKPOINT_EVERY_MS) {
              lastSave = performance.now();
              const taken = snapshotOf(checkpoint);
              saving = c.store.save(taken).finally(() => (saving = undefined));
            }
          },
        },
      )
      .finally(() => writers.close());
    if (run.signal.aborted) throw new AppFailure(ErrorCodes.cancelled, 'The copy was cancelled.');
    await saving;
    let verified: CopyVerification | undefined;
    if (input.verify) {
      phase = 'verifying';
      emit(true);
      verified = await verify(c, checkpoint, mapper.map.bind(mapper), reader, run);
    }
    checkpoint.state = 'complete';
    await save();
    const undo = await finishJournal();
    emit(true);
    const report: CopyReport = {
      copyId: checkpoint.copyId,
      source: { connectionId: input.source.connectionId, table: input.source.table },
      target: { connectionId: input.target.connectionId, table: input.target.table },
      created: checkpoint.target.created,
      complete: true,
      itemsRead: checkpoint.counts.read,
      itemsWritten: checkpoint.counts.written,
      itemsSkipped: checkpoint.counts.skipped,
      itemsFailed: checkpoint.counts.failed,
      failures: checkpoint.failures,
      ...(verified ? { verified } : {}),
      notes: checkpoint.notes,
      ...undo,
    };
    return { progress: progress(), value: report, cursor: checkpoint.copyId };
  } catch (error) {
    await finishJournal();
    await saving;
    checkpoint.state = 'stopped';
    await save().catch(() => undefined);
    emit(true);
    throw error;
  }
}

function policyWords(policy: CopyCheckpoint['input']['conflict']['policy']): string {
  if (policy === 'skip') return 'new items only';
  return policy === 'newer' ? 'newer items overwrite' : 'overwriting';
}

/** Reads both sides again: the source as it was copied (filtered, mapped), the target whole. */
async function verify(
  c: CopyContext,
  checkpoint: CopyCheckpoint,
  map: (item: SdkItem) => SdkItem,
  reader: ReturnType<typeof sourceReader>,
  run: OperationRun,
): Promise<CopyVerification> {
  const keys = checkpoint.target?.keys;
  if (!keys) throw new AppFailure(ErrorCodes.internal, 'The copy has no target keys to verify with.');
  const verifier = new Verifier(keys);
  const segments = reader.segments(checkpoint.input.segments);
  // Two databases, two reads at once: the pass takes the longer of the two, not their sum.
  // One failing read stops the other, which would otherwise go on unheard.
  const both = new AbortController();
  const stop = () => both.abort();
  run.signal.addEventListener('abort', stop, { once: true });
  const stopping = <T>(read: Promise<T>) =>
    read.catch((error: unknown) => {
      stop();
      throw error;
    });
  try {
    await Promise.all([
      stopping(
        reader.read(
          { cursors: initialCursors(segments), offset: 0 },
          {
            signal: both.signal,
            onPage: (page) => {
              for (const item of page.items) verifier.addSource(map(item));
              return Promise.resolve();
            },
          },
        ),
      ),
      stopping(
        segmentedScan({
          client: c.target.client,
          table: checkpoint.input.target.table,
          cursors: initialCursors(checkpoint.input.segments),
          totalSegments: checkpoint.input.segments,
          signal: both.signal,
          onPage: (page) => {
            for (const item of page.items) verifier.addTarget(item);
          },
        }),
      ),
    ]);
  } finally {
    run.signal.removeEventListener('abort', stop);
  }
  return verifier.result();
}
