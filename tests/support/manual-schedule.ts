/**
 * A schedule for step-at-a-time idle work (the SQL worker's and the schema analysis' warm-ups)
 * that runs a step only when the test turns it, as the event loop would.
 */
export function manualSchedule(): { schedule: (step: () => void) => void; turn: () => boolean } {
  const queue: (() => void)[] = [];
  return {
    schedule: (step) => queue.push(step),
    turn: () => {
      const step = queue.shift();
      step?.();
      return step !== undefined;
    },
  };
}
