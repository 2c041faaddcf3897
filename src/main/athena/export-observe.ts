import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { forEachLineBatch } from '../exports/export-open';
import { ExportObserver } from './export-schema';
import { ionExportItems } from './ion-export';

/** Exports never change once written: what one holds is read once per session. */
const observed = new Map<string, Promise<ExportObserver>>();
const KEPT = 8;

/** A data/ folder holds one file per export worker; a million keys is far past any real export. */
const MAX_LIST_PAGES = 1000;

function bucketAndPrefix(location: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(location);
  if (!match) throw new AppFailure(ErrorCodes.invalidInput, `${location} is not an S3 location.`);
  return { bucket: match[1]!, prefix: match[2]! };
}

async function readAll(s3: S3Client, location: string, signal?: AbortSignal): Promise<ExportObserver> {
  const { bucket, prefix } = bucketAndPrefix(location);
  const observer = new ExportObserver();
  let token: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const listed = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      { abortSignal: signal },
    );
    for (const object of listed.Contents ?? []) {
      const ion = object.Key?.endsWith('.ion.gz') ?? false;
      if (!ion && !object.Key?.endsWith('.json.gz')) continue;
      const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }), {
        abortSignal: signal,
      });
      if (!body.Body) continue;
      await forEachLineBatch(
        body.Body as Readable,
        (lines) => {
          const text = Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength).toString('utf8');
          if (ion) for (const item of ionExportItems(text)) observer.see(item);
          else
            for (const line of text.split('\n'))
              if (line.trim() !== '') observer.see((JSON.parse(line) as { Item: Item }).Item);
          return Promise.resolve();
        },
        signal,
      );
    }
    token = listed.NextContinuationToken;
    if (!token) return observer;
  }
  throw new AppFailure(
    ErrorCodes.invalidInput,
    `${location} holds more than ${MAX_LIST_PAGES * 1000} files; DynoTable stops listing there.`,
  );
}

/**
 * Every attribute and every number's digits in an export, DynamoDB JSON (`*.json.gz`) or Amazon
 * Ion (`*.ion.gz`), from its own data files (S3 reads: no read capacity). A sample can miss the one item holding an attribute, and only
 * every number tells which DECIMAL holds them all, so the Glue table and the translation are
 * written from this.
 */
export function observeExport(s3: S3Client, location: string, signal?: AbortSignal): Promise<ExportObserver> {
  const known = observed.get(location);
  if (known) return known;
  const reading = readAll(s3, location, signal);
  observed.set(location, reading);
  reading.catch(() => observed.delete(location));
  while (observed.size > KEPT) observed.delete(observed.keys().next().value!);
  return reading;
}
