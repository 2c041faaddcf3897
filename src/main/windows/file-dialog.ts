import { dialog, type BrowserWindow } from 'electron';
import type { FileDialog } from '../files/file-chooser';

/**
 * Electron's open, save and folder dialogs as the FileChooser's FileDialog: a thin adapter with no
 * decisions of its own (those live in files/file-chooser.ts, which is unit-tested). Modal to the
 * main window when there is one.
 */
export function electronFileDialog(getWindow: () => BrowserWindow | undefined): FileDialog {
  return {
    async open({ title, filters }) {
      const options = { title, filters, properties: ['openFile' as const] };
      const window = getWindow();
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? undefined : result.filePaths[0];
    },
    async save({ title, defaultName, filters }) {
      const options = {
        title,
        defaultPath: defaultName,
        filters,
        properties: ['showOverwriteConfirmation' as const],
      };
      const window = getWindow();
      const result = window
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options);
      return result.canceled ? undefined : result.filePath;
    },
    async openFolder({ title }) {
      const options = { title, properties: ['openDirectory' as const] };
      const window = getWindow();
      const result = window
        ? await dialog.showOpenDialog(window, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? undefined : result.filePaths[0];
    },
  };
}
