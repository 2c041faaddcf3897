import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import { ORM_MODEL_MAX_CHARS } from '../../shared/ipc/migration';
import { DYNAMOOSE_FILE_MAX_CHARS } from '../../shared/ipc/migration-dynamoose';
import type { CoreContext } from '../core/context';
import { migrationStore, restateVerdicts } from './service';

/**
 * The Pre-flight view's model files: the desktop window chose one in the system's dialog
 * (files:choose) and main reads it; browser mode sends the text the page read. Either way the
 * text goes through the parser the CLI uses for the same file (`--model`, `--dynamoose-model`),
 * as text, never run.
 */
export async function useOrmModel(
  input: ChannelInput<'migration:useModel'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:useModel'>> {
  await ctx.connections.get(input.connectionId);
  const { name, text } =
    'fileId' in input.source
      ? await readChosen(ctx.files.pathOf(input.source.fileId, 'model'), ORM_MODEL_LIMIT)
      : input.source;
  const store = migrationStore(ctx);
  const model = await store.models.use(input.connectionId, input.table, name, text);
  // The verdicts count its date storage: restated at once, as for an acknowledgement.
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

/**
 * The dynamoose schema file: its settings, behaviours and generated dynotable-orm model show at
 * once; what the data holds against it (conformance, stale Combine values) needs a scan, and
 * every scan of the table started from then on checks it.
 */
export async function useDynamooseFile(
  input: ChannelInput<'migration:useDynamoose'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:useDynamoose'>> {
  await ctx.connections.get(input.connectionId);
  const { name, text } =
    'fileId' in input.source
      ? await readChosen(ctx.files.pathOf(input.source.fileId, 'dynamoose'), DYNAMOOSE_LIMIT)
      : input.source;
  const dynamoose = await migrationStore(ctx).dynamoose.use(input.connectionId, input.table, name, text);
  return { dynamoose };
}

export async function dynamooseFileOf(
  input: ChannelInput<'migration:dynamoose'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:dynamoose'>> {
  return { dynamoose: await migrationStore(ctx).dynamoose.get(input.connectionId, input.table) };
}

export async function removeDynamooseFile(
  input: ChannelInput<'migration:removeDynamoose'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:removeDynamoose'>> {
  await migrationStore(ctx).dynamoose.remove(input.connectionId, input.table);
  return { dynamoose: null };
}

interface FileLimit {
  chars: number;
  tooLarge: string;
}

const ORM_MODEL_LIMIT: FileLimit = {
  chars: ORM_MODEL_MAX_CHARS,
  tooLarge: 'a dynotable-orm model file is a few KB. Choose the file the Schema view saved.',
};
const DYNAMOOSE_LIMIT: FileLimit = {
  chars: DYNAMOOSE_FILE_MAX_CHARS,
  tooLarge: 'a dynamoose schema file is a few KB. Choose the file that defines the models.',
};

async function readChosen(file: string, limit: FileLimit): Promise<{ name: string; text: string }> {
  const name = path.basename(file);
  try {
    // Bytes ≥ characters in UTF-8: a file within the bound in bytes is within it in characters.
    if ((await stat(file)).size > limit.chars)
      throw new AppFailure(ErrorCodes.invalidInput, `${name} is larger than 1 MB: ${limit.tooLarge}`);
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
