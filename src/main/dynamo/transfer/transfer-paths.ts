import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { confineExportPath, confineImportPath, exportFolder, type TransferScope } from './transfer-folders';

/** Node refuses such paths with a TypeError; the user gets a sentence that shows where it is. */
function checkPathText(given: string): void {
  if (given.includes('\0')) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The path ${JSON.stringify(given)} contains a NUL character (\\u0000), which no file name can hold. Remove it and try again.`,
      false,
      { path: given },
    );
  }
}

/** stat, or undefined when nothing is there; other failures (EACCES…) become sentences upstream. */
async function statOrNothing(target: string): Promise<Stats | undefined> {
  try {
    return await stat(target);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Refuses, before the operation starts, a path that cannot be written or would be overwritten unasked. */
export async function checkExportPath(
  input: { path: string; overwrite?: boolean | undefined },
  scope: TransferScope,
): Promise<string> {
  checkPathText(input.path);
  const target = scope.mode === 'browser' ? await confineExportPath(input.path, scope) : input.path;
  if (!path.isAbsolute(target))
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `"${target}" is not a full path. Choose where to save the export with a full path, such as /home/you/Downloads/items.jsonl.`,
    );
  const dir = path.dirname(target);
  if (!(await statOrNothing(dir))?.isDirectory()) {
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `The folder ${dir} does not exist. Choose an existing folder to save the export in.`,
      false,
      { path: dir },
    );
  }
  const existing = await statOrNothing(target);
  if (existing?.isDirectory()) {
    throw new AppFailure(
      ErrorCodes.notAFile,
      `${target} is a folder, so the export cannot replace it. Add a file name to the path, such as ${path.join(target, 'items.jsonl')}.`,
      false,
      { path: target },
    );
  }
  if (existing && !input.overwrite) {
    throw new AppFailure(
      ErrorCodes.fileExists,
      `${target} already exists. Choose another name, or confirm replacing it.`,
      false,
      { path: target },
    );
  }
  return target;
}

/** A confined path, or the path as given when nothing is there (the caller then says so). */
async function confineOrMissing(given: string, scope: TransferScope): Promise<string> {
  try {
    return await confineImportPath(given, scope);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return path.resolve(exportFolder(scope.dataDir), given);
    throw error;
  }
}

/** Refuses, before the operation starts, an import source that is missing or not a file. */
export async function checkImportPath(requested: string, scope: TransferScope): Promise<string> {
  checkPathText(requested);
  const given = scope.mode === 'browser' ? await confineOrMissing(requested, scope) : requested;
  if (!path.isAbsolute(given))
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `"${given}" is not a full path. Give the file's full path, such as /home/you/Downloads/items.jsonl.`,
    );
  const found = await statOrNothing(given);
  if (!found) {
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `There is no file at ${given}. Check the path, or choose the file again.`,
      false,
      { path: given },
    );
  }
  if (!found.isFile()) {
    throw new AppFailure(
      ErrorCodes.notAFile,
      `${given} is ${found.isDirectory() ? 'a folder' : 'not a regular file'}. Choose a file to import.`,
      false,
      { path: given },
    );
  }
  return given;
}
