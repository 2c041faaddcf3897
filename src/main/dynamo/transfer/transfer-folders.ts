import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { dataFolder } from '../../files/data-folder';

/**
 * Where browser mode may touch files on the server. The page's user may be on another machine
 * (an SSH tunnel), so a path they type must not reach the rest of the server's disk: exports
 * are written only in the export folder, import files are read only from the data folder
 * (which holds the export folder). Desktop mode has no such limit: the user owns the machine.
 */
export interface TransferScope {
  mode: 'desktop' | 'browser';
  dataDir: string;
}

export const exportFolder = dataFolder.exports;
export const uploadFolder = dataFolder.uploads;

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/** The folder's real path, created on first use so that a fresh install has somewhere to write. */
async function realFolder(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  return realpath(folder);
}

function refuse(given: string, purpose: 'export' | 'import', scope: TransferScope): never {
  const exports = exportFolder(scope.dataDir);
  throw new AppFailure(
    ErrorCodes.pathNotAllowed,
    purpose === 'export'
      ? `Browser mode saves exports only inside DynoTable's export folder, ${exports}; "${given}" is outside it. Give a file name inside that folder, or use Download to save it in your browser.`
      : `Browser mode reads import files only inside DynoTable's data folder, ${scope.dataDir} (exports are saved in ${exports}); "${given}" is outside it. Upload the file from the import dialog instead.`,
    false,
    { path: given, allowed: purpose === 'export' ? [exports] : [scope.dataDir] },
  );
}

/**
 * A browser-mode import path, resolved (relative to the export folder, through `..` and every
 * symbolic link) and kept inside the data folder. Missing files fail upstream with their sentence.
 */
export async function confineImportPath(given: string, scope: TransferScope): Promise<string> {
  const folder = await realFolder(scope.dataDir);
  const resolved = path.resolve(exportFolder(scope.dataDir), given);
  let real: string;
  try {
    real = await realpath(resolved);
  } catch (error) {
    // Nothing there: still refuse a path outside, so that probing cannot map the server's disk.
    if (!isInside(path.resolve(scope.dataDir), resolved)) refuse(given, 'import', scope);
    throw error;
  }
  if (!isInside(folder, real)) refuse(given, 'import', scope);
  return real;
}

/**
 * A browser-mode export path: its folder resolved through `..` and symbolic links must be the
 * export folder or inside it; the file itself may not be a link (that would write elsewhere).
 */
export async function confineExportPath(given: string, scope: TransferScope): Promise<string> {
  const folder = await realFolder(exportFolder(scope.dataDir));
  const resolved = path.resolve(exportFolder(scope.dataDir), given);
  let dir: string;
  try {
    dir = await realpath(path.dirname(resolved));
  } catch (error) {
    if (!isInside(exportFolder(scope.dataDir), resolved)) refuse(given, 'export', scope);
    throw error;
  }
  const target = path.join(dir, path.basename(resolved));
  if (!isInside(folder, dir) || target === folder) refuse(given, 'export', scope);
  try {
    if ((await realpath(target)) !== target) refuse(given, 'export', scope);
  } catch (error) {
    if (error instanceof AppFailure) throw error;
  }
  return target;
}
