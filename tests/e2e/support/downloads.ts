import type { Download } from 'playwright-core';

/** A download's bytes, streamed from the browser (the run's shared Chromium keeps no local path). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
