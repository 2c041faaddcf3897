import { useCallback, useEffect, useState } from 'react';
import type { AppError, AttributeValue, Item } from '../../../../shared/ipc';
import type { KeySchema } from '../../../../shared/ipc/tables';
import { call } from '../../../ipc/client';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';
import { ItemGrid, ROW_HEIGHT } from '../../items/components/item-grid';
import { ValuePopover } from '../../../ui/value-popover';
import type { GridSort } from '../../items/store';
import type { Selection } from '../../items/selection';
import '../../items/items.css';
import './result-set-dialog.css';

export interface OpenResultSet {
  resultSetId: string;
  title: string;
  keys: KeySchema;
}

export interface ResultSetDialogProps extends OpenResultSet {
  onClose(): void;
}

const noSelection: Selection = new Map();

/**
 * What one agent step read, in the items grid: every row stays in main's result-set worker and
 * the grid fetches only the windows in view. Read-only here; sorting happens in the worker.
 */
export function ResultSetDialog({ resultSetId, title, keys, onClose }: ResultSetDialogProps) {
  const [total, setTotal] = useState<number>();
  const [error, setError] = useState<AppError>();
  const [sort, setSort] = useState<GridSort[]>([]);
  const [view, setView] = useState<{ viewId?: string; version: number }>({ version: 0 });
  const [expanded, setExpanded] = useState<{ name: string; value: AttributeValue }>();
  const [opened, setOpened] = useState<Item>();

  useEffect(() => {
    void call('resultsets:window', { resultSetId, offset: 0, limit: 1 }).then((result) => {
      if (result.ok) setTotal(result.value.total);
      else setError(result.error);
    });
  }, [resultSetId]);

  const onSort = async (column: string) => {
    const current = sort[0]?.column === column ? sort[0] : undefined;
    const next = current?.descending ? [] : [{ column, descending: current !== undefined }];
    setSort(next);
    if (next.length === 0) {
      setView((v) => ({ version: v.version + 1 }));
      return;
    }
    const result = await call('resultsets:view', { resultSetId, spec: { sort: next, keys } });
    if (result.ok) setView((v) => ({ viewId: result.value.viewId, version: v.version + 1 }));
    else setError(result.error);
  };
  const onColumns = useCallback(() => undefined, []);

  return (
    <Dialog title={title} width="xl" onClose={onClose}>
      <div className="agent-grid-dialog">
        {error ? <ErrorMessage error={error} compact /> : null}
        {total === undefined ? (
          error ? null : (
            <p className="agent-thinking">Loading…</p>
          )
        ) : (
          <>
            <p className="agent-grid-count">
              {total.toLocaleString('en-US')} row{total === 1 ? '' : 's'} · double-click a row to see it as
              JSON
            </p>
            {/* As tall as the rows need (a header and a scrollbar more), up to a screenful. */}
            <div className="agent-grid-host" style={{ height: Math.min(520, (total + 1) * ROW_HEIGHT + 24) }}>
              <ItemGrid
                resultSetId={resultSetId}
                viewId={view.viewId}
                version={view.version}
                total={total}
                keys={keys}
                hiddenColumns={[]}
                sort={sort}
                isGrouped={false}
                selected={noSelection}
                onSort={(column) => void onSort(column)}
                onToggleRow={() => undefined}
                onOpen={(item) => setOpened(item)}
                onColumns={onColumns}
                onExpand={(name, value) => setExpanded({ name, value })}
              />
            </div>
          </>
        )}
        {opened ? <pre className="agent-grid-item">{JSON.stringify(opened, null, 2)}</pre> : null}
      </div>
      {expanded ? (
        <ValuePopover name={expanded.name} value={expanded.value} onClose={() => setExpanded(undefined)} />
      ) : null}
    </Dialog>
  );
}
