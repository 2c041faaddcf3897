import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import { ORM_MODEL_MAX_CHARS } from '../../shared/ipc/migration';
import type { CoreContext } from '../core/context';
import { migrationStore, restateVerdicts } from './service';

/**
 * The Pre-flight view's model file: the desktop window chose it in the system's dialog
 * (files:choose {purpose: 'model'}) and main reads it; browser mode sends the text the page read.
 * Either way the text goes through the parser `scan-migration --model` uses, and the scan list's
 * verdicts are restated at once, as for an acknowledgement.
 */
export async function useOrmModel(
  input: ChannelInput<'migration:useModel'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:useModel'>> {
  await ctx.connections.get(input.connectionId);
  const { name, text } =
    'fileId' in input.source
      ? await readChosen(ctx.files.pathOf(input.source.fileId, 'model'))
      : input.source;
  const store = migrationStore(ctx);
  const model = await store.models.use(input.connectionId, input.table, name, text);
  await restateVerdicts(store, input.connectionId, input.table);
  return { model };
}

export async function ormModelOf(
  input: ChannelInput<'migration:model'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:model'>> {
  return { model: await migrationStore(ctx).models.get(input.connectionId, input.table) };
}

export async function removeOrmModel(
  input: ChannelInput<'migration:removeModel'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:removeModel'>> {
  const store = migrationStore(ctx);
  await store.models.remove(input.connectionId, input.table);
  await restateVerdicts(store, input.connectionId, input.table);
  return { model: null };
}

async function readChosen(file: string): Promise<{ name: string; text: string }> {
  const name = path.basename(file);
  try {
    // Bytes ≥ characters in UTF-8: a file within the bound in bytes is within it in characters.
    if ((await stat(file)).size > ORM_MODEL_MAX_CHARS)
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `${name} is larger than 1 MB: a dynotable-orm model file is a few KB. Choose the file the Schema view saved.`,
      );
    return { name, text: await readFile(file, 'utf8') };
  } catch (error) {
    if (error instanceof AppFailure) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `${name} could not be read (${code}). Choose the file again.`,
    );
  }
}
