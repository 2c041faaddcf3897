import { Button } from '../../../ui/button';
import { useOperationsStore } from '../store';

/**
 * Says so when browser mode's event stream missed more than the server could replay: progress,
 * result pages or an assistant reply shown since then may be incomplete until a reload.
 */
export function StreamNotice() {
  const notice = useOperationsStore((state) => state.streamNotice);
  const dismiss = useOperationsStore((state) => state.dismissStreamNotice);
  if (!notice) return null;
  return (
    <div className="notice notice-warning stream-notice" role="status">
      <p>{notice}</p>
      <Button size="sm" onClick={dismiss}>
        Dismiss
      </Button>
    </div>
  );
}
