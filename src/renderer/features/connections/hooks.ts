import { useEffect } from 'react';
import { useConnectionsStore } from './store';

/** While DynamoDB Local starts, ask main for its status so the card can show what it is doing. */
export function usePlaygroundProgress(): void {
  const isStarting = useConnectionsStore((state) => state.isPlaygroundStarting);
  const refresh = useConnectionsStore((state) => state.refreshPlayground);
  useEffect(() => {
    if (!isStarting) return;
    // Polling an in-memory status is cheap; playground:start itself answers when the database does.
    const timer = window.setInterval(() => {
      if (useConnectionsStore.getState().isPlaygroundStarting) void refresh();
    }, 600);
    return () => window.clearInterval(timer);
  }, [isStarting, refresh]);
}
