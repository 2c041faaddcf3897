import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startExportServer, type ExportServer } from '../exports/export-server';
import { startLocalS3, type LocalS3 } from '../exports/s3-local';
import { startAthenaGlueServer, type AthenaGlueServer } from './athena-glue-server';
import { readExportData } from './export-reader';

/**
 * "AWS" on one loopback port, as LocalStack serves it, for a connection whose endpoint
 * override points here: DynamoDB (DynamoDB Local behind the export server, so exports and PITR
 * work), S3 (the export files, which the app reads to type the Glue table), Glue and Athena (the local Athena/Glue server over the exports in a local S3). The
 * DescribeTable answer of the tables in `sizes` reports the given size and item count instead
 * of DynamoDB Local's, so a table of 30 items reads as 200 GB to the plan; every other byte
 * is the real servers' answer.
 */
export interface BigTableAws {
  endpoint: string;
  s3: LocalS3;
  athena: AthenaGlueServer;
  /** X-Amz-Target of every call, in order. */
  calls: string[];
  /** Every ExportTableToPointInTime request the export server received, in order. */
  exportRequests: { tableArn: string; bucket: string; format?: string }[];
  close(): Promise<void>;
}

export interface BigTableAwsOptions {
  dynamoEndpoint: string;
  sizes: Map<string, { sizeBytes: number; itemCount: number }>;
  /** Buckets to create in the local S3 (export destination). */
  buckets: string[];
  /** How long an Athena query stays RUNNING (0: it has ended when StartQueryExecution answers). */
  runMs?: number;
  /** How long an export stays IN_PROGRESS. */
  exportHoldMs?: number;
  /** Access keys the local S3 takes besides `local` (a connection signing with a profile's keys). */
  accessKeyIds?: string[];
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startBigTableAws(options: BigTableAwsOptions): Promise<BigTableAws> {
  const s3 = await startLocalS3({ accessKeyIds: options.accessKeyIds ?? [] });
  for (const bucket of options.buckets) await s3.createBucket(bucket);
  const exports: ExportServer = await startExportServer({
    dynamoEndpoint: options.dynamoEndpoint,
    s3Endpoint: s3.endpoint,
    holdMs: options.exportHoldMs ?? 0,
  });
  const athena = await startAthenaGlueServer({
    readExport: (location) => readExportData(s3.client(), location),
    runMs: options.runMs ?? 200,
  });
  const calls: string[] = [];
  const exportRequests: BigTableAws['exportRequests'] = [];

  /** S3's REST calls (no X-Amz-Target): the app reads the export's own files through here. */
  const s3Answer = async (req: IncomingMessage, res: ServerResponse, payload: Buffer): Promise<void> => {
    calls.push(`S3.${req.method ?? 'GET'}`);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    const forwarded = await fetch(`${s3.endpoint}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(payload.length > 0 ? { body: new Uint8Array(payload) } : {}),
    });
    const out = Buffer.from(await forwarded.arrayBuffer());
    res.writeHead(forwarded.status, {
      'content-type': forwarded.headers.get('content-type') ?? 'application/xml',
    });
    res.end(out);
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const payload = await body(req);
    if (req.headers['x-amz-target'] === undefined) return s3Answer(req, res, payload);
    const target = String(req.headers['x-amz-target'] ?? '');
    calls.push(target);
    if (target === 'DynamoDB_20120810.ExportTableToPointInTime') {
      const request = JSON.parse(payload.toString('utf8')) as {
        TableArn: string;
        S3Bucket: string;
        ExportFormat?: string;
      };
      exportRequests.push({
        tableArn: request.TableArn,
        bucket: request.S3Bucket,
        ...(request.ExportFormat ? { format: request.ExportFormat } : {}),
      });
    }
    const upstream = /^(AWSGlue|AmazonAthena)\./.test(target) ? athena.endpoint : exports.endpoint;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
    const forwarded = await fetch(`${upstream}${req.url ?? '/'}`, {
      method: 'POST',
      headers,
      body: new Uint8Array(payload),
    });
    let out = Buffer.from(await forwarded.arrayBuffer());
    if (target === 'DynamoDB_20120810.DescribeTable' && forwarded.ok) {
      const answer = JSON.parse(out.toString('utf8')) as {
        Table: { TableName: string; TableSizeBytes?: number; ItemCount?: number };
      };
      const size = options.sizes.get(answer.Table.TableName);
      if (size) {
        answer.Table.TableSizeBytes = size.sizeBytes;
        answer.Table.ItemCount = size.itemCount;
        out = Buffer.from(JSON.stringify(answer));
      }
    }
    res.writeHead(forwarded.status, {
      'content-type': forwarded.headers.get('content-type') ?? 'application/x-amz-json-1.1',
      ...(forwarded.headers.get('x-amzn-errortype')
        ? { 'x-amzn-errortype': forwarded.headers.get('x-amzn-errortype')! }
        : {}),
    });
    res.end(out);
  };
  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'InternalServerError', message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    s3,
    athena,
    calls,
    exportRequests,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await athena.close();
      await exports.stop();
      await s3.stop();
    },
  };
}
