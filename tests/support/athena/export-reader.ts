import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { ionExportItems } from '../../../src/main/athena/ion-export';

/**
 * The items of an export as Athena reads them: every object under the Glue table's LOCATION
 * (s3://bucket/prefix/AWSDynamoDB/<id>/data/), gunzipped, one {"Item": ...} a line in DynamoDB
 * JSON or `$ion_1_0 {Item: ...}` in Ion (parsed by ion-js through main's reader, not by the writer's
 * own rules; the local engine over DynamoDB Local is the oracle that would catch a reader's slip).
 * Returns the bytes read too: Athena bills the compressed bytes it scans.
 */
export async function readExportData(
  s3: S3Client,
  location: string,
): Promise<{ items: Item[]; bytes: number }> {
  const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(location);
  if (!match) throw new Error(`not an S3 location: ${location}`);
  const [, bucket, prefix] = match;
  const items: Item[] = [];
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
      const raw = Buffer.from(await body.Body!.transformToByteArray());
      bytes += raw.length;
      const text = object.Key!.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      if (object.Key!.endsWith('.ion.gz')) {
        items.push(...ionExportItems(text));
        continue;
      }
      for (const line of text.split('\n'))
        if (line.trim()) items.push((JSON.parse(line) as { Item: Item }).Item);
    }
    token = page.NextContinuationToken;
  } while (token);
  return { items, bytes };
}
