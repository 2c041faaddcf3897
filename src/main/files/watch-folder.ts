import { watch, type FSWatcher } from 'node:fs';

/**
 * Calls `changed` when something in a folder may have changed: fs.watch where the platform
 * gives it, and a poll every `pollMs` whatever happens, since fs.watch misses events on network
 * and some virtual filesystems and gives none for a folder that was removed and made again.
 * The folder must exist. Returns the stop.
 */
export function watchFolder(dir: string, changed: () => void, pollMs = 1_000): () => void {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { persistent: false }, () => changed());
    // An error (the folder removed) leaves the poll to notice.
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  const timer = setInterval(changed, pollMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
