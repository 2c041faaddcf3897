import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ItemGrid } from '../../../src/renderer/features/items/components/item-grid';
import { useOperationsStore } from '../../../src/renderer/features/operations/store';
import { startEventForwarding } from '../../../src/renderer/shell/event-routing';
import '../../../src/renderer/styles/theme.css';
import '../../../src/renderer/styles/base.css';
import '../../../src/renderer/styles/controls.css';
import '../../../src/renderer/features/items/items.css';

/**
 * The real ItemGrid, fed the way the Items tab feeds it: page events over browser mode's event
 * stream give the growing total, and the grid pulls its visible window with resultsets:window.
 * The driver (items-grid.bench.ts) streams rows into a result set and measures from outside.
 */
declare global {
  interface Window {
    benchLongTasks: number[];
    benchTotal: number;
    benchReady: boolean;
  }
}

window.benchLongTasks = [];
window.benchTotal = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.benchLongTasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: true });

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};
const noop = (): void => undefined;

function Bench() {
  const [stream, setStream] = useState<{ resultSetId: string; total: number }>();
  useEffect(() => startEventForwarding(), []);
  useEffect(
    () =>
      useOperationsStore.subscribe((state) => {
        for (const operation of Object.values(state.byRequest)) {
          const event = operation.latest;
          if (event.type === 'page') {
            window.benchTotal = event.total;
            setStream({ resultSetId: event.resultSetId, total: event.total });
          }
        }
      }),
    [],
  );
  useEffect(() => {
    window.benchReady = true;
  }, []);
  if (!stream) return <p>Waiting for rows…</p>;
  return (
    <div style={{ height: '100vh', display: 'flex' }}>
      <ItemGrid
        resultSetId={stream.resultSetId}
        version={0}
        total={stream.total}
        keys={keys}
        hiddenColumns={[]}
        sort={[]}
        isGrouped={false}
        selected={new Map()}
        onSort={noop}
        onToggleRow={noop}
        onOpen={noop}
        onColumns={noop}
        onExpand={noop}
      />
    </div>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<Bench />);
