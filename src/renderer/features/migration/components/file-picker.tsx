import { useRef } from 'react';
import { type AppError, ErrorCodes } from '../../../../shared/ipc';
import type { FileChoiceInput } from '../../../../shared/ipc/transfer';
import { call } from '../../../ipc/client';
import { Button } from '../../../ui/button';
import { useAppInfoStore } from '../../app-info/store';

/** A model file as main gets it: the desktop dialog's handle, or the text the page read. */
export type PickedFile = { fileId: string } | { name: string; text: string };

const refusal = (message: string): AppError => ({ code: ErrorCodes.invalidInput, message, retryable: false });

interface FilePickerProps {
  label: string;
  purpose: Extract<FileChoiceInput['purpose'], 'model' | 'dynamoose'>;
  /** What the file is, for the sentence when it is too large ("a dynamoose schema file is a few KB"). */
  what: string;
  maxChars: number;
  accept: string;
  isBusy: boolean;
  onPicked(file: PickedFile): Promise<void>;
  onRefused(error: AppError): void;
}

/**
 * Picks a model file the pre-flight reads as text, never runs. The desktop window asks main for
 * the system's open dialog (main reads the file, the page never sends a path); browser mode
 * reads the file in the page and sends its text, small and bounded, so no upload route is needed.
 */
export function FilePicker({
  label,
  purpose,
  what,
  maxChars,
  accept,
  isBusy,
  onPicked,
  onRefused,
}: FilePickerProps) {
  const isBrowser = useAppInfoStore((s) => s.info?.mode) === 'browser';
  const input = useRef<HTMLInputElement>(null);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    // Cleared, so picking the same file again after editing it is a change again.
    if (input.current) input.current.value = '';
    if (file.size > maxChars) {
      onRefused(refusal(`${file.name} is larger than 1 MB: ${what} is a few KB.`));
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      onRefused(refusal(`${file.name} could not be read. Choose it again.`));
      return;
    }
    await onPicked({ name: file.name, text });
  };
  const choose = async () => {
    const chosen = await call('files:choose', { purpose });
    if (!chosen.ok) onRefused(chosen.error);
    else if ('fileId' in chosen.value) await onPicked({ fileId: chosen.value.fileId });
  };
  return isBrowser ? (
    <label className={`btn btn-secondary btn-md mig-model-pick${isBusy ? ' is-busy' : ''}`}>
      {label}
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        accept={accept}
        aria-label={label}
        disabled={isBusy}
        onChange={(event) => void pick(event.target.files?.[0])}
      />
    </label>
  ) : (
    <Button isBusy={isBusy} onClick={() => void choose()}>
      {label}
    </Button>
  );
}
