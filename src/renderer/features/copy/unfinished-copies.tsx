import { useEffect, useState } from 'react';
import type { AppError } from '../../../shared/ipc';
import type { CopyCheckpointSummary } from '../../../shared/ipc/copy';
import type { SetAsideNotice } from '../../../shared/ipc/data-files';
import { call } from '../../ipc/client';
import { Button } from '../../ui/button';
import { ErrorMessage } from '../../ui/error-message';
import { SetAsideNotices } from '../../ui/set-aside-notices';
import { formatCount, formatDate } from '../../ui/format';

export interface UnfinishedCopiesProps {
  connectionId: string;
  table: string;
  /** Hidden while a copy runs in the dialog: Resume would start a second one. */
  isBusy: boolean;
  /** The copy this dialog stopped: it has its own Resume button below. */
  current?: string;
  onResume(copyId: string): void;
}

/**
 * Copies of this table that stopped before the end — cancelled, cut off by expired credentials,
 * or by a crash or quit (main reads their checkpoints from disk) — with Resume and Discard.
 */
export function UnfinishedCopies({ connectionId, table, isBusy, current, onResume }: UnfinishedCopiesProps) {
  const [copies, setCopies] = useState<CopyCheckpointSummary[]>([]);
  const [error, setError] = useState<AppError>();
  // Kept across reloads of the list: a checkpoint is set aside once, by the listing that found it.
  const [setAside, setSetAside] = useState<SetAsideNotice[]>([]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let isCurrent = true;
    void call('copy:list', {}).then((answer) => {
      if (!isCurrent) return;
      if (!answer.ok) {
        setError(answer.error);
        return;
      }
      const found = answer.value.setAside ?? [];
      if (found.length > 0) setSetAside((shown) => [...shown, ...found]);
      setCopies(
        answer.value.copies.filter(
          (c) => c.state === 'stopped' && c.source.connectionId === connectionId && c.source.table === table,
        ),
      );
    });
    return () => {
      isCurrent = false;
    };
  }, [connectionId, table, version, isBusy]);

  const discard = async (copyId: string): Promise<void> => {
    const answer = await call('copy:discard', { copyId });
    if (!answer.ok) setError(answer.error);
    setVersion((v) => v + 1);
  };

  const shown = copies.filter((c) => c.copyId !== current);
  if (isBusy || (shown.length === 0 && !error && setAside.length === 0)) return null;
  return (
    <section className="form-group" aria-labelledby="unfinished-copies">
      <h3 id="unfinished-copies" className="stopped-work-title">
        Unfinished copies of {table}
      </h3>
      {error ? <ErrorMessage compact error={error} /> : null}
      <SetAsideNotices notices={setAside} onDismiss={() => setSetAside([])} />
      <ul className="stopped-work-list">
        {shown.map((c) => (
          <li key={c.copyId}>
            <span>
              To <strong>{c.target.table}</strong>:{' '}
              {c.itemsRead === 0
                ? 'nothing copied yet'
                : `${formatCount(c.itemsWritten)} items written of ${formatCount(c.itemsRead)} read`}
              , stopped {formatDate(c.savedAt)}
            </span>
            <Button size="sm" variant="primary" onClick={() => onResume(c.copyId)}>
              Resume
            </Button>
            <Button
              size="sm"
              onClick={() => void discard(c.copyId)}
              aria-label={`Discard the copy to ${c.target.table}`}
            >
              Discard
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
