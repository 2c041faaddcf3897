import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { AppFailure, ErrorCodes } from '../../shared/errors';

/**
 * Where an export's files are: a local folder or an S3 bucket/prefix, holding one export
 * (manifest-summary.json at its root) or an export prefix (AWSDynamoDB/<exportId>/… below it).
 * Keys in the manifests are S3 keys written at export time; a copied folder no longer has that
 * prefix, so a key is also tried relative to the export's own folder (…/<exportId>/data/x.gz).
 */
export interface ExportFiles {
  /** Each export's folder (relative to the location), by export id. */
  exports(): Promise<string[]>;
  readText(key: string): Promise<string>;
  open(key: string): Promise<Readable>;
  /** The stored key or path for a manifest's key, given the export folder it belongs to. */
  resolve(exportRoot: string, manifestKey: string): string;
  describe(): string;
}

function relativeToExport(exportRoot: string, manifestKey: string): string {
  if (exportRoot === '') {
    // The export's own folder was copied: its keys still begin <prefix>/AWSDynamoDB/<id>/.
    const own = /(?:^|\/)AWSDynamoDB\/[^/]+\/(.+)$/.exec(manifestKey);
    return own ? own[1]! : manifestKey;
  }
  const id = path.posix.basename(exportRoot);
  const at = manifestKey.indexOf(`/${id}/`);
  const tail = at >= 0 ? manifestKey.slice(at + id.length + 2) : manifestKey;
  return `${exportRoot}/${tail}`;
}

/** A data file the manifest names but the folder lacks: named as the manifest has it, no path. */
async function openLocal(folder: string, key: string): Promise<Readable> {
  const file = path.join(folder, ...key.split('/'));
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile())
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `The export folder has no ${key}, which its manifest-files.json names. Copy the whole export folder (manifest-summary.json, manifest-files.json and every file in data/) and open it again.`,
      false,
      { key },
    );
  return createReadStream(file, { highWaterMark: 1 << 20 });
}

export function folderFiles(folder: string): ExportFiles {
  const full = (key: string): string => path.join(folder, ...key.split('/'));
  return {
    async exports() {
      const roots: string[] = [];
      try {
        await stat(full('manifest-summary.json'));
        roots.push('');
      } catch {
        // Not an export itself; look for an export prefix below it.
      }
      const base = full('AWSDynamoDB');
      const ids = await readdir(base).catch(() => [] as string[]);
      for (const id of ids.sort()) {
        const ok = await stat(path.join(base, id, 'manifest-summary.json')).then(
          () => true,
          () => false,
        );
        if (ok) roots.push(`AWSDynamoDB/${id}`);
      }
      return roots;
    },
    readText: (key) => readFile(full(key), 'utf8'),
    open: (key) => openLocal(folder, key),
    resolve: relativeToExport,
    describe: () => folder,
  };
}

export function s3Files(client: S3Client, bucket: string, prefix: string, signal?: AbortSignal): ExportFiles {
  const base = prefix.replace(/^\/+|\/+$/g, '');
  const full = (key: string): string => (base && key ? `${base}/${key}` : base || key);
  const get = async (key: string): Promise<Readable> => {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key) }), {
      abortSignal: signal,
    });
    if (!answer.Body) throw new AppFailure(ErrorCodes.notFound, `s3://${bucket}/${full(key)} is empty.`);
    return answer.Body as Readable;
  };
  return {
    async exports() {
      const roots: string[] = [];
      let token: string | undefined;
      // Bounded: an export prefix holds one folder per export, and 100 pages is 100,000 keys.
      for (let page = 0; page < 100; page++) {
        const listed = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: base ? `${base}/` : '',
            ContinuationToken: token,
          }),
          { abortSignal: signal },
        );
        for (const object of listed.Contents ?? []) {
          const key = object.Key ?? '';
          if (!key.endsWith('manifest-summary.json')) continue;
          const relative = base ? key.slice(base.length + 1) : key;
          roots.push(path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative));
        }
        token = listed.NextContinuationToken;
        if (!token) break;
      }
      return roots.sort();
    },
    async readText(key) {
      const body = await get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    open: get,
    resolve(exportRoot, manifestKey) {
      // The manifest holds full keys; read them under the given prefix only when they are not.
      if (base && manifestKey.startsWith(`${base}/`)) return manifestKey.slice(base.length + 1);
      return relativeToExport(exportRoot, manifestKey);
    },
    describe: () => `s3://${bucket}/${base}`,
  };
}
