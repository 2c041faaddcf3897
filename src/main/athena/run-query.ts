import {
  type AthenaClient,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import type { AttributeValue } from '../../shared/dynamo/attribute-value';
import { sleep } from '../core/retry';
import { decimalToString, parseDecimalText } from '../sql/values/decimal';
import { athenaCostUsd } from './pricing';

export interface AthenaProgress {
  state: string;
  dataScannedBytes: number;
  costUsd: number;
  elapsedMs: number;
}

export interface AthenaRunInput {
  sql: string;
  database: string;
  workGroup: string;
  /** s3://bucket/prefix/ for Athena's result files. */
  outputLocation: string;
  signal?: AbortSignal;
  onProgress?: (p: AthenaProgress) => void;
  /** Between GetQueryExecution calls. */
  pollMs?: number;
  /** Rows at most (each GetQueryResults page holds up to 1,000). */
  maxRows?: number;
  /** Per column: numbers the statement returns as canonical text (translate/number-text.ts). */
  numberText?: boolean[];
}

export type AthenaRunOutcome =
  | {
      status: 'done';
      queryExecutionId: string;
      columns: string[];
      /**
       * One array per row, a cell per column in `columns`' order, in DynamoDB's tagged form; by
       * position, since a statement may name two columns alike (`SELECT a AS n, b AS n`).
       */
      rows: (AttributeValue | null)[][];
      dataScannedBytes: number;
      costUsd: number;
      truncated: boolean;
    }
  | { status: 'failed'; queryExecutionId: string; reason: string; dataScannedBytes: number; costUsd: number }
  | { status: 'cancelled'; queryExecutionId: string; dataScannedBytes: number; costUsd: number };

/** An Athena cell as a DynamoDB value: its column type says number, boolean or text. */
function cell(value: string | undefined, type: string | undefined, numberText = false): AttributeValue {
  if (value === undefined) return { NULL: true };
  // A number no DECIMAL holds comes back as its canonical text (-0.123e5): DynamoDB's spelling again.
  const exact = numberText ? parseDecimalText(value) : undefined;
  if (exact) return { N: decimalToString(exact) };
  const t = (type ?? 'varchar').toLowerCase();
  if (['decimal', 'bigint', 'integer', 'smallint', 'tinyint', 'double', 'real'].includes(t)) {
    // DECIMAL(38, 9) prints every scale digit; DynamoDB numbers carry none of the trailing zeros.
    return {
      N: value.includes('.') && !/e/i.test(value) ? value.replace(/0+$/, '').replace(/\.$/, '') : value,
    };
  }
  if (t === 'boolean') return { BOOL: value === 'true' };
  return { S: value };
}

/**
 * One statement on Athena: start it in the chosen workgroup and result location, poll it with
 * progress (state, data scanned, cost at Athena's price), stop it when `signal` aborts
 * (StopQueryExecution), and read every result page (NextToken) into items.
 */
export async function runAthenaQuery(athena: AthenaClient, input: AthenaRunInput): Promise<AthenaRunOutcome> {
  const started = Date.now();
  const { QueryExecutionId: id } = await athena.send(
    new StartQueryExecutionCommand({
      QueryString: input.sql,
      QueryExecutionContext: { Database: input.database },
      WorkGroup: input.workGroup,
      ResultConfiguration: { OutputLocation: input.outputLocation },
    }),
  );
  if (!id) throw new Error('Athena started no query (no QueryExecutionId)');
  let scanned = 0;
  for (;;) {
    if (input.signal?.aborted) {
      await athena.send(new StopQueryExecutionCommand({ QueryExecutionId: id }));
      const after = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }));
      scanned = after.QueryExecution?.Statistics?.DataScannedInBytes ?? scanned;
      return {
        status: 'cancelled',
        queryExecutionId: id,
        dataScannedBytes: scanned,
        costUsd: athenaCostUsd(scanned),
      };
    }
    const { QueryExecution: q } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }));
    const state = q?.Status?.State ?? 'QUEUED';
    scanned = q?.Statistics?.DataScannedInBytes ?? scanned;
    input.onProgress?.({
      state,
      dataScannedBytes: scanned,
      costUsd: athenaCostUsd(scanned),
      elapsedMs: Date.now() - started,
    });
    if (state === 'SUCCEEDED') break;
    if (state === 'FAILED')
      return {
        status: 'failed',
        queryExecutionId: id,
        reason: q?.Status?.StateChangeReason ?? 'Athena gave no reason',
        dataScannedBytes: scanned,
        costUsd: athenaCostUsd(scanned),
      };
    if (state === 'CANCELLED')
      return {
        status: 'cancelled',
        queryExecutionId: id,
        dataScannedBytes: scanned,
        costUsd: athenaCostUsd(scanned),
      };
    // A cancel ends the wait early; the loop's first check then stops the query in Athena.
    await sleep(input.pollMs ?? 1000, input.signal).catch(() => undefined);
  }
  const maxRows = input.maxRows ?? 1_000_000;
  const rows: (AttributeValue | null)[][] = [];
  let columns: string[] = [];
  let types: (string | undefined)[] = [];
  let token: string | undefined;
  let first = true;
  do {
    const page = await athena.send(
      new GetQueryResultsCommand({ QueryExecutionId: id, NextToken: token, MaxResults: 1000 }),
      { abortSignal: input.signal },
    );
    const info = page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
    if (first) {
      columns = info.map((c) => c.Name ?? '');
      types = info.map((c) => c.Type);
    }
    const data = page.ResultSet?.Rows ?? [];
    // The first page's first row is the header (column names), not data.
    for (const row of first ? data.slice(1) : data) {
      if (rows.length >= maxRows) break;
      const data = row.Data ?? [];
      rows.push(
        columns.map((_, i) =>
          data[i] ? cell(data[i].VarCharValue, types[i], input.numberText?.[i] ?? false) : null,
        ),
      );
    }
    first = false;
    token = page.NextToken;
  } while (token && rows.length < maxRows);
  return {
    status: 'done',
    queryExecutionId: id,
    columns,
    rows,
    dataScannedBytes: scanned,
    costUsd: athenaCostUsd(scanned),
    truncated: token !== undefined,
  };
}
