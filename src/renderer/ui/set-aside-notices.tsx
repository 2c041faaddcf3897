import type { SetAsideNotice } from '../../shared/ipc/data-files';
import { Button } from './button';

export interface SetAsideNoticesProps {
  notices: readonly SetAsideNotice[];
  onDismiss?: () => void;
}

/** Files of the data folder that could not be read and were set aside: main's sentence, one line each. */
export function SetAsideNotices({ notices, onDismiss }: SetAsideNoticesProps) {
  if (notices.length === 0) return null;
  return (
    <div className="notice notice-warning set-aside-notice" role="status">
      {notices.map((notice) => (
        <p key={notice.keptAs}>{notice.message}</p>
      ))}
      {onDismiss ? (
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      ) : null}
    </div>
  );
}
