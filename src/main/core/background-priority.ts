import os from 'node:os';

/**
 * Lowers the calling worker thread's CPU priority, so bulk work (encoding a million scanned
 * items, loading them into the SQL engine) gives way to the window the user is scrolling when
 * the two compete for cores. Only on Linux, where a nice value belongs to one thread; on macOS
 * and Windows the same call would lower the whole app, so there it is left alone.
 */
export function lowerThisThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(0, os.constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // A sandbox or container may refuse; the work then simply runs at normal priority.
  }
}
