import { pathToFileURL } from 'node:url';

/**
 * Where the renderer is loaded from, and the one test for "is this URL our app". The same test
 * guards navigation and IPC senders, so a page that is not ours can neither replace the UI nor
 * call a handler.
 */
export type AppLocation = { kind: 'file'; indexFile: string } | { kind: 'dev-server'; url: string };

export function appEntryUrl(location: AppLocation): string {
  return location.kind === 'file' ? pathToFileURL(location.indexFile).href : location.url;
}

export function isAppUrl(candidate: string, location: AppLocation): boolean {
  let url: URL;
  let entry: URL;
  try {
    url = new URL(candidate);
    entry = new URL(appEntryUrl(location));
  } catch {
    return false;
  }
  if (location.kind === 'file') {
    // Exactly our index.html; the hash and query may change (routing), the file may not.
    return url.protocol === 'file:' && url.host === entry.host && url.pathname === entry.pathname;
  }
  // The dev server serves modules from many paths; its origin is what identifies it.
  return url.origin === entry.origin;
}
