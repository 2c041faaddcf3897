import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { readBody } from '../aws/http-json';
import { athenaOnDuck, trinoAverages } from './duck-athena';

/**
 * Amazon Athena and AWS Glue on 127.0.0.1, speaking their JSON 1.1 wire protocols
 * (`X-Amz-Target: AmazonAthena.StartQueryExecution`, `AWSGlue.CreateTable`), so main's real SDK
 * clients run against it. A query runs on DuckDB over the items of the export each Glue table
 * points at (`readExport(location)`, e.g. the export files in a local S3), with Athena's states, statistics and result pages
 * (a header row first, at most 1,000 rows a page, NextToken), StopQueryExecution, and failures
 * as Athena reports them (state FAILED with a reason, not an HTTP error).
 */
export interface AthenaGlueServer {
  endpoint: string;
  /** Every call received, `Service.Operation`, for assertions. */
  calls: string[];
  glueTables: Map<string, Record<string, unknown>>;
  /** How long queries started from now on stay RUNNING (to cancel one from a browser). */
  setRunMs(ms: number): void;
  close(): Promise<void>;
}

interface Execution {
  id: string;
  sql: string;
  database: string;
  workGroup: string;
  outputLocation: string;
  state: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  reason?: string;
  scanned: number;
  startedAt: number;
  finishedAt?: number;
  columns: { Name: string; Type: string }[];
  rows: (string | null)[][];
}

export interface AthenaGlueOptions {
  /** The export's items at a Glue table's LOCATION and the bytes a scan of them reads. */
  readExport: (location: string) => Promise<{ items: readonly Item[]; bytes: number }>;
  /**
   * How long a query stays RUNNING before it finishes (to poll and cancel it). 0: the query has
   * finished by the time StartQueryExecution answers, like one shorter than a round trip, so the
   * first GetQueryExecution sees it ended and the client never waits out its poll interval.
   */
  runMs?: number;
}

/** StopQueryExecution may have changed the state while the query ran. */
const stopped = (e: Execution): boolean => e.state !== 'RUNNING';

function athenaType(duck: string): string {
  if (duck.startsWith('DECIMAL')) return 'decimal';
  const map: Record<string, string> = {
    VARCHAR: 'varchar',
    BIGINT: 'bigint',
    INTEGER: 'integer',
    BOOLEAN: 'boolean',
    DOUBLE: 'double',
  };
  return map[duck] ?? 'varchar';
}

export async function startAthenaGlueServer(options: AthenaGlueOptions): Promise<AthenaGlueServer> {
  const databases = new Map<string, Record<string, unknown>>();
  const glueTables = new Map<string, Record<string, unknown>>();
  const executions = new Map<string, Execution>();
  const calls: string[] = [];
  let serial = 0;
  let runMs = options.runMs ?? 50;

  async function duckFor(database: string, e: Execution): Promise<DuckDBConnection> {
    const tables = [];
    for (const [key, t] of glueTables) {
      if (!key.startsWith(`${database}.`)) continue;
      const sd = t.StorageDescriptor as {
        Columns: { Type: string }[];
        Location: string;
        SerdeInfo?: { SerializationLibrary?: string };
      };
      // A table the query names is scanned whole: JSON has no columns to skip.
      const data = await options.readExport(sd.Location);
      if (new RegExp(`"${String(t.Name)}"`).test(e.sql)) e.scanned += data.bytes;
      tables.push({
        glueTable: String(t.Name),
        itemType: sd.Columns[0]!.Type,
        items: data.items,
        ion: sd.SerdeInfo?.SerializationLibrary === 'com.amazon.ionhiveserde.IonHiveSerDe',
      });
    }
    return athenaOnDuck(database, tables);
  }

  async function run(e: Execution): Promise<void> {
    e.state = 'RUNNING';
    const wait = new Promise((resolve) => setTimeout(resolve, runMs));
    try {
      const duck = await duckFor(e.database, e);
      const reader = await duck.runAndReadAll(trinoAverages(e.sql));
      await wait;
      if (stopped(e)) return;
      e.columns = reader
        .columnNames()
        .map((name, i) => ({ Name: name, Type: athenaType(reader.columnType(i).toString()) }));
      e.rows = reader
        .getRowsJson()
        .map((row) => row.map((v) => (v === null ? null : typeof v === 'string' ? v : JSON.stringify(v))));
      duck.closeSync();
      e.state = 'SUCCEEDED';
    } catch (error) {
      await wait;
      if (stopped(e)) return;
      e.state = 'FAILED';
      e.reason = (error as Error).message.split('\n')[0];
    }
    e.finishedAt = Date.now();
  }

  function describe(e: Execution): unknown {
    return {
      QueryExecutionId: e.id,
      Query: e.sql,
      StatementType: 'DML',
      WorkGroup: e.workGroup,
      QueryExecutionContext: { Database: e.database },
      ResultConfiguration: { OutputLocation: `${e.outputLocation.replace(/\/$/, '')}/${e.id}.csv` },
      Status: {
        State: e.state,
        StateChangeReason: e.reason,
        SubmissionDateTime: e.startedAt / 1000,
        CompletionDateTime: e.finishedAt ? e.finishedAt / 1000 : undefined,
      },
      Statistics: {
        DataScannedInBytes: e.state === 'QUEUED' ? 0 : e.scanned,
        EngineExecutionTimeInMillis: (e.finishedAt ?? Date.now()) - e.startedAt,
        TotalExecutionTimeInMillis: (e.finishedAt ?? Date.now()) - e.startedAt,
      },
    };
  }

  const handlers: Record<string, (body: Record<string, unknown>) => unknown> = {
    'AWSGlue.CreateDatabase': (b) => {
      const input = b.DatabaseInput as { Name: string };
      if (databases.has(input.Name))
        throw Object.assign(new Error(`Database ${input.Name} already exists.`), {
          type: 'AlreadyExistsException',
        });
      databases.set(input.Name, input);
      return {};
    },
    'AWSGlue.GetDatabase': (b) => {
      const db = databases.get(String(b.Name));
      if (!db)
        throw Object.assign(new Error(`Database ${String(b.Name)} not found.`), {
          type: 'EntityNotFoundException',
        });
      return { Database: db };
    },
    'AWSGlue.CreateTable': (b) => {
      const input = b.TableInput as { Name: string };
      const key = `${String(b.DatabaseName)}.${input.Name}`;
      if (!databases.has(String(b.DatabaseName)))
        throw Object.assign(new Error(`Database ${String(b.DatabaseName)} not found.`), {
          type: 'EntityNotFoundException',
        });
      if (glueTables.has(key))
        throw Object.assign(new Error(`Table ${input.Name} already exists.`), {
          type: 'AlreadyExistsException',
        });
      glueTables.set(key, { ...input, DatabaseName: b.DatabaseName });
      return {};
    },
    'AWSGlue.UpdateTable': (b) => {
      const input = b.TableInput as { Name: string };
      const key = `${String(b.DatabaseName)}.${input.Name}`;
      if (!glueTables.has(key))
        throw Object.assign(new Error(`Table ${input.Name} not found.`), { type: 'EntityNotFoundException' });
      glueTables.set(key, { ...input, DatabaseName: b.DatabaseName });
      return {};
    },
    'AWSGlue.GetTable': (b) => {
      const t = glueTables.get(`${String(b.DatabaseName)}.${String(b.Name)}`);
      if (!t)
        throw Object.assign(new Error(`Table ${String(b.Name)} not found.`), {
          type: 'EntityNotFoundException',
        });
      return { Table: t };
    },
    'AmazonAthena.StartQueryExecution': (b) => {
      serial += 1;
      const id = `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`;
      const ctx = b.QueryExecutionContext as { Database?: string } | undefined;
      const out = b.ResultConfiguration as { OutputLocation?: string } | undefined;
      if (!out?.OutputLocation)
        throw Object.assign(
          new Error(
            'No output location provided. An output location is required either through the Workgroup result configuration setting or as an API input.',
          ),
          { type: 'InvalidRequestException' },
        );
      const e: Execution = {
        id,
        sql: String(b.QueryString),
        database: ctx?.Database ?? 'default',
        workGroup: typeof b.WorkGroup === 'string' ? b.WorkGroup : 'primary',
        outputLocation: out.OutputLocation,
        state: 'QUEUED',
        scanned: 0,
        startedAt: Date.now(),
        columns: [],
        rows: [],
      };
      executions.set(id, e);
      const running = run(e);
      if (runMs === 0) return running.then(() => ({ QueryExecutionId: id }));
      void running;
      return { QueryExecutionId: id };
    },
    'AmazonAthena.GetQueryExecution': (b) => {
      const e = executions.get(String(b.QueryExecutionId));
      if (!e)
        throw Object.assign(new Error(`QueryExecution ${String(b.QueryExecutionId)} was not found`), {
          type: 'InvalidRequestException',
        });
      return { QueryExecution: describe(e) };
    },
    'AmazonAthena.StopQueryExecution': (b) => {
      const e = executions.get(String(b.QueryExecutionId));
      if (e && (e.state === 'QUEUED' || e.state === 'RUNNING')) {
        e.state = 'CANCELLED';
        e.reason = 'Query cancelled by user';
        e.finishedAt = Date.now();
      }
      return {};
    },
    'AmazonAthena.GetQueryResults': (b) => {
      const e = executions.get(String(b.QueryExecutionId));
      if (!e) throw Object.assign(new Error('Query not found'), { type: 'InvalidRequestException' });
      if (e.state !== 'SUCCEEDED')
        throw Object.assign(new Error(`Query has not yet finished. Current state: ${e.state}`), {
          type: 'InvalidRequestException',
        });
      const max = Math.min(Number(b.MaxResults ?? 1000), 1000);
      // Like Athena, the first page starts with a row of the column names.
      const all = [e.columns.map((c) => c.Name), ...e.rows];
      const start = b.NextToken ? Number(b.NextToken) : 0;
      const page = all.slice(start, start + max);
      const next = start + max < all.length ? String(start + max) : undefined;
      return {
        ResultSet: {
          Rows: page.map((row) => ({ Data: row.map((v) => (v === null ? {} : { VarCharValue: v })) })),
          ResultSetMetadata: {
            ColumnInfo: e.columns.map((c) => ({
              Name: c.Name,
              Label: c.Name,
              Type: c.Type,
              CatalogName: 'hive',
              Nullable: 'UNKNOWN',
            })),
          },
        },
        NextToken: next,
        UpdateCount: 0,
      };
    },
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      calls.push(target);
      const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
      const handler = handlers[target];
      const reply = (status: number, payload: unknown): void => {
        res.writeHead(status, {
          'content-type': 'application/x-amz-json-1.1',
          'x-amzn-requestid': `req-${calls.length}`,
        });
        res.end(JSON.stringify(payload));
      };
      if (!handler) {
        reply(400, { __type: 'UnknownOperationException', message: `${target} is not served here` });
        return;
      }
      try {
        reply(200, await handler(body));
      } catch (error) {
        const type = (error as { type?: string }).type ?? 'InternalServerException';
        reply(type === 'InternalServerException' ? 500 : 400, {
          __type: type,
          Message: (error as Error).message,
          message: (error as Error).message,
        });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    glueTables,
    setRunMs: (ms) => (runMs = ms),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
