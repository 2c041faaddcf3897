import { useEffect } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { useAppInfoStore } from '../../app-info/store';
import { editorKey, hasUnsavedEdits, useEditorStore } from '../store';

/**
 * Asks before a step would drop what was typed in an item editor: Save (then go on), Discard
 * (then go on) or Cancel (stay). A reload or a closed window asks through the browser's own
 * prompt, the only one a page may show then.
 */
export function UnsavedDialog() {
  const leaving = useEditorStore((s) => s.leaving);
  const open = useEditorStore((s) =>
    s.leaving ? s.tables[editorKey(s.leaving.connectionId, s.leaving.table)]?.open : undefined,
  );
  const hasUnsaved = useEditorStore((s) => Object.values(s.tables).some((t) => hasUnsavedEdits(t.open)));
  const leave = useEditorStore((s) => s.leave);

  // Electron shows no prompt for a cancelled unload (it would only refuse to close, without a
  // word), so the desktop window is not held this way; in a browser tab, the browser asks.
  const isBrowser = useAppInfoStore((s) => s.info?.mode === 'browser');
  useEffect(() => {
    if (!hasUnsaved || !isBrowser) return;
    const ask = (event: BeforeUnloadEvent): void => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [hasUnsaved, isBrowser]);

  if (!leaving) return null;
  const isConflict = open?.conflict !== undefined;
  return (
    <Dialog
      title="Save your changes?"
      width="sm"
      onClose={() => void leave('cancel')}
      footer={
        <>
          <Button onClick={() => void leave('cancel')}>Cancel</Button>
          <Button variant="danger" onClick={() => void leave('discard')}>
            Discard
          </Button>
          <Button
            variant="primary"
            disabled={isConflict}
            title={isConflict ? 'Choose how to resolve the conflict in the editor first.' : undefined}
            onClick={() => void leave('save')}
          >
            Save
          </Button>
        </>
      }
    >
      <p>
        The item editor of {leaving.table} has changes that are not saved. Save them, discard them, or stay
        where you are.
      </p>
    </Dialog>
  );
}
