/**
 * One lane per Items tab for the calls that build, collapse or measure its view: each starts
 * when the one before it has answered, and reads the tab's state only then. Sent side by side
 * (in browser mode each is its own HTTP request) they reached the worker in any order, and the
 * worker keeps one view per result set: a "Collapse all" that named a view replaced meanwhile
 * (by the view rebuilt when the read ended) failed and was dropped, a view id answered late
 * overwrote the newer one, and sizes read before a collapse landed after it.
 */
const lanes = new Map<string, Promise<unknown>>();

export function inLane<T>(key: string, work: () => Promise<T>): Promise<T> {
  const run = (lanes.get(key) ?? Promise.resolve()).then(work);
  // A call that failed must not stop the ones behind it.
  const tail = run.catch(() => undefined);
  lanes.set(key, tail);
  void tail.then(() => {
    if (lanes.get(key) === tail) lanes.delete(key);
  });
  return run;
}
