import type { z } from 'zod';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { formatPath, keyOf, validateItem } from '../../../shared/dynamo/validate-item';
import { ErrorCodes } from '../../../shared/errors';
import type { ImportReport, importInput } from '../../../shared/ipc/transfer';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import type { ItemTarget } from '../items/item-access';
import { toSdkItem } from '../marshal';
import { indexKeyAttributes } from '../table-metadata';
import { putItems, type PutItemsOptions } from '../writes/put-items';
import { replacedPairs } from '../writes/put-journal';
import { keepForUndo } from '../../journal/keep';
import { existingKeys, keyText } from './existing-keys';
import { fileName, readImport, type ImportSource } from './import-source';

/** The source resolved by the handler: an upload is a file by now, a browser-mode path confined. */
type ImportInput = Omit<z.output<typeof importInput>, 'source'> & { source: ImportSource };

const CHUNK = 200;

/** A call, not a property read, so an earlier check does not narrow it (a cancel comes during an await). */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;
const MAX_LISTED = 1000;
const SAMPLE = 5;

interface Row {
  line: number;
  item: Item;
}

/**
 * Reads the source as a stream, validates every item against the table's keys and DynamoDB's
 * rules, then (unless a dry run) writes 200 lines at a time through the one bulk put path
 * (`writes/put-items.ts`, the copy's): create-only is its skip policy, PutItems conditioned on
 * the key being free, so an import never replaces an item (one already there is counted as
 * existing); overwrite replaces whole items. Each refused item comes back with its line. Every
 * put keeps the item it replaced (ALL_OLD; none under create-only), streamed into one undo
 * journal entry per import, so an import can be undone.
 */
export async function runImport(
  t: ItemTarget,
  input: ImportInput,
  run: OperationRun,
  job: {
    /** Told the counts after each chunk is written: the job store's record of the import. */
    note?: (counts: { line: number; written: number; existing: number; problems: number }) => void;
    /** A resumed import: the lines up to this one were written by the run that stopped. */
    after?: number;
  } = {},
): Promise<OperationOutcome<'transfer:import'>> {
  const table = t.info.name;
  const report: ImportReport = {
    dryRun: input.dryRun,
    format: input.format,
    total: 0,
    written: 0,
    existing: 0,
    invalid: 0,
    failed: 0,
    failures: [],
    sample: [],
  };
  const fail = (line: number, code: string, message: string, key?: Item): void => {
    if (report.failures.length < MAX_LISTED)
      report.failures.push({ line, code, message, ...(key ? { key } : {}) });
  };
  const validation = { keys: t.info.keys, indexKeys: indexKeyAttributes(t.info) };
  let lastEmit = 0;
  const progress = (force = false) => {
    const verb = input.dryRun ? 'to write' : 'written';
    const value = {
      items: report.total,
      pages: 0,
      consumedCapacity: 0,
      message: `${report.written} ${verb}, ${report.existing} already exist, ${report.invalid + report.failed} problems`,
    };
    if (force || Date.now() - lastEmit > 250) {
      lastEmit = Date.now();
      run.emit({ type: 'progress', progress: value });
    }
    return value;
  };

  const journal = input.dryRun ? undefined : t.journal('put', importReason(input));
  const writer: PutItemsOptions = {
    client: t.client,
    table,
    keys: t.info.keys,
    policy: { policy: input.mode === 'create-only' ? 'skip' : 'overwrite' },
    signal: run.signal,
    keepReplaced: true,
    ...(journal ? { journal } : {}),
  };

  /** Writes (or dry-runs) the rows; answers how many of them, from the first, have their outcome. */
  const handle = async (rows: Row[]): Promise<number> => {
    if (!input.dryRun) {
      const out = await putItems(writer, rows, (row) => toSdkItem(row.item));
      report.written += out.written.length;
      report.existing += out.skipped;
      report.failed += out.failures.length;
      out.failures.sort((a, b) => a.entry.line - b.entry.line);
      for (const f of out.failures) fail(f.entry.line, f.code, f.message, f.key);
      // Also after a cancel: what was written is shown in the table's open views and kept for undo.
      await t.record(out.written.map((row) => ({ key: keyOf(row.item, t.info.keys), item: row.item })));
      // A failed append shows when the entry is finished, as the report's journalProblem.
      await journal?.add(replacedPairs(out, t.info.keys, (row) => row.item)).catch(() => undefined);
      return out.answered;
    }
    if (input.mode === 'overwrite') {
      report.written += rows.length;
      return rows.length;
    }
    const found = await existingKeys(
      t,
      rows.map((r) => r.item),
      run.signal,
    );
    for (const row of rows) {
      if (found.has(keyText(keyOf(row.item, t.info.keys)))) report.existing++;
      else report.written++;
    }
    return rows.length;
  };

  let rows: Row[] = [];
  let line = 0;
  // The last line up to which every item was written, found there already or refused: where a
  // resume goes on. A cancel cuts a chunk after the puts in flight are answered, so the chunk's
  // answered rows count as reached and the rest (not sent) do not: the record's "written" is then
  // what the table holds up to its line, not lines behind it.
  let reached = job.after ?? 0;
  // Invalid lines read past `reached`: a resume reads them again, so the record does not count them.
  let invalidAhead: number[] = [];
  const reach = (to: number): void => {
    reached = to;
    invalidAhead = invalidAhead.filter((at) => at > to);
  };
  /** After a chunk: every row answered reaches the last line read, else the last answered row's. */
  const reachAfter = (chunk: Row[], answered: number): void => {
    if (answered === chunk.length) reach(line);
    else if (answered > 0) reach(chunk[answered - 1]?.line ?? reached);
  };
  const noted = () =>
    job.note?.({
      line: reached,
      written: report.written,
      existing: report.existing,
      problems: report.invalid - invalidAhead.length + report.failed,
    });
  try {
    for await (const entry of readImport(input.source, input.format)) {
      if (run.signal.aborted) break;
      if (entry.line <= reached) continue;
      report.total++;
      line = entry.line;
      if ('error' in entry) {
        report.invalid++;
        invalidAhead.push(entry.line);
        fail(entry.line, ErrorCodes.invalidInput, entry.error);
        continue;
      }
      const issue = validateItem(entry.item, validation)[0];
      if (issue) {
        report.invalid++;
        invalidAhead.push(entry.line);
        const where = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
        fail(entry.line, ErrorCodes.invalidInput, `${where}${issue.message}`, keyOf(entry.item, t.info.keys));
        continue;
      }
      if (report.sample.length < SAMPLE) report.sample.push(entry.item);
      rows.push({ line: entry.line, item: entry.item });
      if (rows.length >= CHUNK) {
        reachAfter(rows, await handle(rows));
        rows = [];
        progress();
        noted();
      }
    }
    if (!isAborted(run.signal)) reachAfter(rows, await handle(rows));
    noted();
  } finally {
    // Also after a cancel or a failure: what was written can be undone.
    if (journal) Object.assign(report, await keepForUndo(journal));
  }
  return { progress: progress(true), value: report };
}

function importReason(input: ImportInput): string {
  const from = 'path' in input.source ? ` from ${fileName(input.source)}` : '';
  return `Import${from} (${input.mode === 'create-only' ? 'new items only' : 'overwriting'})`;
}
