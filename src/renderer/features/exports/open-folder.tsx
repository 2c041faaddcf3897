import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { AppError, Envelope } from '../../../shared/ipc';
import { call } from '../../ipc/client';
import { ProgressView } from '../../ui/progress';
import { formatBytes } from '../../ui/format';
import { pickedFromDrop } from './folder-drop';
import { pickedFromInput, planFolderUpload, type PickedFile } from './folder-layout';
import { useFolderUpload, type FolderUploadState } from './use-folder-upload';

type StartOpening = (
  title: string,
  from: string,
  send: (requestId: string) => Promise<Envelope<{ started: boolean }>>,
) => Promise<void>;

interface OpenFolderOptions {
  connectionId: string;
  isDesktop: boolean;
  startOpening: StartOpening;
  onError: (error: AppError | undefined) => void;
}

const invalid = (message: string): AppError => ({ code: 'InvalidInput', message, retryable: false });

/**
 * "Open export folder…" in both front doors: the desktop window asks main for the system's
 * folder dialog (main keeps the path); browser mode picks the folder in the page (or takes one
 * dropped on the tab), checks its layout, uploads its files and opens the uploaded copy. Either
 * way exports:openFolder opens it, so the grid and SQL see one kind of opened export.
 */
export function useOpenFolder({ connectionId, isDesktop, startOpening, onError }: OpenFolderOptions) {
  const input = useRef<HTMLInputElement>(null);
  const { state, upload, cancel } = useFolderUpload();
  const [isDragging, setDragging] = useState(false);
  const [notice, setNotice] = useState<string>();

  const openPicked = async (picked: PickedFile[]) => {
    onError(undefined);
    setNotice(undefined);
    const plan = await planFolderUpload(picked);
    if (!plan.ok) {
      onError(invalid(plan.message));
      return;
    }
    const outcome = await upload(plan);
    if ('error' in outcome) onError(outcome.error);
    else if ('cancelled' in outcome)
      setNotice(
        `Upload of ${plan.folder} cancelled: what was sent is removed from the server, and nothing was opened.`,
      );
    else {
      const { uploadId } = outcome;
      await startOpening(`Opening export folder ${plan.folder}`, `from ${plan.folder}`, (requestId) =>
        call('exports:openFolder', { connectionId, requestId, uploadId }),
      );
    }
  };

  const openDesktop = async () => {
    onError(undefined);
    const chosen = await call('files:choose', { purpose: 'openExport' });
    if (!chosen.ok) onError(chosen.error);
    else if ('fileId' in chosen.value) {
      const { fileId, name } = chosen.value;
      await startOpening(`Opening export folder ${name}`, `from ${name}`, (requestId) =>
        call('exports:openFolder', { connectionId, requestId, folderId: fileId }),
      );
    }
  };

  const open = () => {
    if (isDesktop) void openDesktop();
    else input.current?.click();
  };

  const picker: ReactNode = isDesktop ? null : (
    <input
      ref={input}
      type="file"
      webkitdirectory=""
      multiple
      hidden
      aria-label="Export folder to upload"
      onChange={(event) => {
        const picked = pickedFromInput(event.currentTarget.files);
        // The same folder picked again must still fire change.
        event.currentTarget.value = '';
        if (picked.length > 0) void openPicked(picked);
        else onError(invalid('The folder you picked is empty. Pick the folder holding the export.'));
      }}
    />
  );

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const dropTarget = isDesktop
    ? {}
    : {
        onDragOver: (event: DragEvent) => {
          if (!hasFiles(event) || state) return;
          event.preventDefault();
          setDragging(true);
        },
        onDragLeave: (event: DragEvent) => {
          if (event.currentTarget === event.target) setDragging(false);
        },
        onDrop: (event: DragEvent) => {
          if (!hasFiles(event)) return;
          event.preventDefault();
          setDragging(false);
          void pickedFromDrop(event.dataTransfer).then((picked) =>
            picked
              ? openPicked(picked)
              : onError(
                  invalid('Drop one folder, the one holding the export (manifest-summary.json and data/).'),
                ),
          );
        },
      };

  return { open, picker, upload: state, cancel, dropTarget, isDragging, notice };
}

/** The upload's progress line, with its cancel. */
export function FolderUploadProgress({
  state,
  onCancel,
}: {
  state: FolderUploadState;
  onCancel: () => void;
}) {
  return (
    <ProgressView
      label={`Uploading export folder ${state.folder}`}
      fraction={state.bytes > 0 ? state.bytesSent / state.bytes : 0}
      text={`${state.filesSent.toLocaleString('en-US')} of ${state.files.toLocaleString('en-US')} files · ${formatBytes(state.bytesSent)} of ${formatBytes(state.bytes)}`}
      cancelLabel="Cancel upload"
      onCancel={onCancel}
    />
  );
}
