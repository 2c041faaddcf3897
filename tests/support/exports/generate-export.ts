import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface GeneratedExport {
  /** The export's own folder (…/AWSDynamoDB/<exportId>). */
  root: string;
  exportId: string;
  dataFiles: string[];
  items: number;
}

export const STATUSES = ['NEW', 'PAID', 'SHIPPED', 'RETURNED', 'CANCELLED'] as const;
export const REGIONS = ['eu-west-1', 'us-east-1', 'ap-south-1', 'sa-east-1'] as const;

/** The i-th order: a customer partition, a sort key, a status, an amount with cents, a region. */
export function orderLine(i: number): string {
  const status = STATUSES[i % STATUSES.length]!;
  const region = REGIONS[(i * 7) % REGIONS.length]!;
  const amount = `${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`;
  return (
    `{"Item":{"pk":{"S":"CUSTOMER#${i % 50_000}"},"sk":{"S":"ORDER#${String(i).padStart(8, '0')}"},` +
    `"status":{"S":"${status}"},"amount":{"N":"${amount}"},"region":{"S":"${region}"},` +
    `"items":{"L":[{"M":{"sku":{"S":"SKU-${i % 1000}"},"qty":{"N":"${(i % 5) + 1}"}}}]},` +
    `"gift":{"BOOL":${i % 3 === 0 ? 'true' : 'false'}}}}`
  );
}

/**
 * Writes a full export of `items` orders in the documented layout under
 * <folder>/AWSDynamoDB/<exportId>/ (manifests + gzip JSON lines), in `files` data files.
 */
export async function generateExport(folder: string, items: number, files = 8): Promise<GeneratedExport> {
  const exportId = '01700000000000-0a1b2c3d';
  const root = path.join(folder, 'AWSDynamoDB', exportId);
  await mkdir(path.join(root, 'data'), { recursive: true });
  const dataFiles: string[] = [];
  const manifest: string[] = [];
  let billed = 0;
  for (let f = 0; f < files; f++) {
    const key = `AWSDynamoDB/${exportId}/data/part${f}.json.gz`;
    const file = path.join(folder, key);
    const gzip = createGzip();
    const out = createWriteStream(file);
    gzip.pipe(out);
    let count = 0;
    let chunk = '';
    for (let i = f; i < items; i += files) {
      chunk += `${orderLine(i)}\n`;
      count++;
      if (chunk.length > 1 << 20) {
        billed += Buffer.byteLength(chunk);
        if (!gzip.write(chunk)) await once(gzip, 'drain');
        chunk = '';
      }
    }
    billed += Buffer.byteLength(chunk);
    gzip.end(chunk);
    await once(out, 'finish');
    dataFiles.push(file);
    manifest.push(JSON.stringify({ itemCount: count, md5Checksum: '', etag: '', dataFileS3Key: key }));
  }
  await writeFile(path.join(root, 'manifest-files.json'), `${manifest.join('\n')}\n`);
  await writeFile(
    path.join(root, 'manifest-summary.json'),
    JSON.stringify({
      version: '2020-06-30',
      exportArn: `arn:aws:dynamodb:us-east-1:123456789012:table/Orders/export/${exportId}`,
      startTime: '2026-11-30T00:00:00.000Z',
      endTime: '2026-11-30T00:05:00.000Z',
      tableArn: 'arn:aws:dynamodb:us-east-1:123456789012:table/Orders',
      tableId: '12345a12-abcd-123a-ab12-1234abc12345',
      exportTime: '2026-11-30T00:00:00.000Z',
      s3Bucket: 'orders-exports',
      s3Prefix: null,
      s3SseAlgorithm: 'AES256',
      s3SseKmsKeyId: null,
      manifestFilesS3Key: `AWSDynamoDB/${exportId}/manifest-files.json`,
      billedSizeBytes: billed,
      itemCount: items,
      outputFormat: 'DYNAMODB_JSON',
    }),
  );
  return { root, exportId, dataFiles, items };
}
