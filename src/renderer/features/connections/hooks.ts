import { useEffect } from 'react';
import { useConnectionsStore } from './store';

/** While DynamoDB Local starts, ask main for its status so the card can show what it is doing. */
export function usePlaygroundProgress(): void {
  // Starting here (Open playground) or in main before this page loaded (`serve --playground`):
  // either way the card follows the start until it ends, without a reload.
  const isStarting = useConnectionsStore(
    (state) => state.isPlaygroundStarting || state.playground.state === 'starting',
  );
  const refresh = useConnectionsStore((state) => state.refreshPlayground);
  useEffect(() => {
    if (!isStarting) return;
    // Polling an in-memory status is cheap; playground:start itself answers when the database does.
    const timer = window.setInterval(() => void refresh(), 600);
    return () => window.clearInterval(timer);
  }, [isStarting, refresh]);
}
