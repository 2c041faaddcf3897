/**
 * A toast's countdown that stops while the user is on it (pointer over it, focus in it) and
 * starts again with the time that was left, so a sentence being read or an Undo being reached
 * for does not vanish.
 */
export interface DismissTimer {
  pause(): void;
  resume(): void;
  cancel(): void;
}

export function dismissTimer(ms: number, onDone: () => void): DismissTimer {
  let left = ms;
  let isCancelled = false;
  let startedAt = Date.now();
  let handle: ReturnType<typeof setTimeout> | undefined = setTimeout(onDone, left);
  return {
    pause() {
      if (handle === undefined) return;
      clearTimeout(handle);
      handle = undefined;
      left -= Date.now() - startedAt;
    },
    resume() {
      if (handle !== undefined || isCancelled) return;
      startedAt = Date.now();
      handle = setTimeout(onDone, Math.max(0, left));
    },
    cancel() {
      if (handle !== undefined) clearTimeout(handle);
      handle = undefined;
      isCancelled = true;
    },
  };
}
