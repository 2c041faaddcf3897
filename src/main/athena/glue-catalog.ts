import {
  CreateDatabaseCommand,
  CreateTableCommand,
  EntityNotFoundException,
  GetDatabaseCommand,
  GetTableCommand,
  type GlueClient,
  UpdateTableCommand,
} from '@aws-sdk/client-glue';
import type { GlueTableInput } from './glue-table';

export type GlueTableAction = 'created' | 'updated' | 'reused';

/**
 * Makes the Glue table of an export exist as `input` says: creates the database and table the
 * first time, reuses a table that already reads the same export with the same columns, and
 * updates one that reads an older export or an older schema (the query then sees the new one).
 */
export async function ensureGlueTable(
  glue: GlueClient,
  database: string,
  input: GlueTableInput,
  signal?: AbortSignal,
): Promise<GlueTableAction> {
  try {
    await glue.send(new GetDatabaseCommand({ Name: database }), { abortSignal: signal });
  } catch (error) {
    if (!(error instanceof EntityNotFoundException)) throw error;
    await glue.send(
      new CreateDatabaseCommand({
        DatabaseInput: { Name: database, Description: 'DynoTable: tables over DynamoDB exports' },
      }),
      { abortSignal: signal },
    );
  }
  let existing;
  try {
    existing = (
      await glue.send(new GetTableCommand({ DatabaseName: database, Name: input.Name }), {
        abortSignal: signal,
      })
    ).Table;
  } catch (error) {
    if (!(error instanceof EntityNotFoundException)) throw error;
  }
  if (!existing) {
    await glue.send(new CreateTableCommand({ DatabaseName: database, TableInput: input }), {
      abortSignal: signal,
    });
    return 'created';
  }
  const same =
    existing.StorageDescriptor?.Location === input.StorageDescriptor.Location &&
    JSON.stringify(existing.StorageDescriptor.Columns?.map((c) => [c.Name, c.Type])) ===
      JSON.stringify(input.StorageDescriptor.Columns.map((c) => [c.Name, c.Type]));
  if (same) return 'reused';
  await glue.send(new UpdateTableCommand({ DatabaseName: database, TableInput: input }), {
    abortSignal: signal,
  });
  return 'updated';
}
