import type { ReactNode } from 'react';
import type { AppError } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { ErrorMessage } from '../../../ui/error-message';

export interface ConnectionDialogProps {
  title: string;
  width: 'md' | 'lg';
  saveLabel: string;
  isSaving: boolean;
  saveError?: AppError;
  onSave(): void;
  onClose(): void;
  children: ReactNode;
}

/** The frame both connection forms share: the fields, Enter or the button to save, and why a save failed. */
export function ConnectionDialog({
  title,
  width,
  saveLabel,
  isSaving,
  saveError,
  onSave,
  onClose,
  children,
}: ConnectionDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onClose}
      width={width}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" isBusy={isSaving} onClick={onSave}>
            {saveLabel}
          </Button>
        </>
      }
    >
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        {children}
        {saveError ? <ErrorMessage error={saveError} /> : null}
        {/* Lets Enter in any field submit, though the visible button sits in the dialog's footer. */}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
