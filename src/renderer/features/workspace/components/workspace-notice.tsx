import { Button } from '../../../ui/button';
import { useWorkspaceStore } from '../store';

/**
 * What just happened to the workspace that no view shows any longer ("Table Orders deleted."),
 * under the tabs until the user moves on or dismisses it. The status region is always there,
 * so a screen reader hears the sentence when it appears, whatever view took the table's place.
 */
export function WorkspaceNotice({ connectionId }: { connectionId: string }) {
  const notice = useWorkspaceStore((state) =>
    state.notice?.connectionId === connectionId ? state.notice.text : undefined,
  );
  const dismiss = useWorkspaceStore((state) => state.dismissNotice);
  return (
    <div className={notice ? 'workspace-notice' : undefined}>
      <p role="status">{notice}</p>
      {notice ? (
        <Button size="sm" variant="ghost" aria-label="Dismiss the notice" onClick={dismiss}>
          ×
        </Button>
      ) : null}
    </div>
  );
}
