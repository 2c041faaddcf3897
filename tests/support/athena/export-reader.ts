import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { type dom, loadAll } from 'ion-js';
import type { AttributeValue, Item } from '../../../src/shared/dynamo/attribute-value';

/**
 * The items of an export as Athena reads them: every object under the Glue table's LOCATION
 * (s3://bucket/prefix/AWSDynamoDB/<id>/data/), gunzipped, one {"Item": ...} a line in DynamoDB
 * JSON or `$ion_1_0 {Item: ...}` in Ion (parsed by ion-js, not by the writer's own rules).
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
        for (const value of loadAll(text)) items.push(ionItem(value.get('Item')!));
        continue;
      }
      for (const line of text.split('\n'))
        if (line.trim()) items.push((JSON.parse(line) as { Item: Item }).Item);
    }
    token = page.NextContinuationToken;
  } while (token);
  return { items, bytes };
}

const SETS: Record<string, 'SS' | 'NS' | 'BS'> = {
  $dynamodb_SS: 'SS',
  $dynamodb_NS: 'NS',
  $dynamodb_BS: 'BS',
};

function ionItem(struct: dom.Value): Item {
  const out: Item = Object.create(null) as Item;
  for (const name of struct.fieldNames()) out[name] = ionAttribute(struct.get(name)!);
  return out;
}

function ionNumber(v: dom.Value): string {
  return v.getType().name === 'int' ? String(v.bigIntValue()) : v.decimalValue()!.toString();
}

/** One Ion value of a DynamoDB Ion export → its DynamoDB JSON (AWS's documented type mapping). */
function ionAttribute(v: dom.Value): AttributeValue {
  const type = v.getType().name;
  if (type === 'null') return { NULL: true };
  if (type === 'string') return { S: v.stringValue()! };
  if (type === 'decimal' || type === 'int') return { N: ionNumber(v) };
  if (type === 'bool') return { BOOL: v.booleanValue()! };
  if (type === 'blob') return { B: Buffer.from(v.uInt8ArrayValue()!).toString('base64') };
  if (type === 'struct') return { M: ionItem(v) };
  if (type === 'list') {
    const elements = [...v.elements()];
    const set = SETS[v.getAnnotations()[0] ?? ''];
    if (set === 'SS') return { SS: elements.map((e) => e.stringValue()!) };
    if (set === 'NS') return { NS: elements.map(ionNumber) };
    if (set === 'BS')
      return { BS: elements.map((e) => Buffer.from(e.uInt8ArrayValue()!).toString('base64')) };
    return { L: elements.map(ionAttribute) };
  }
  throw new Error(`an Ion ${type} is not in DynamoDB's Ion export format`);
}
