import {
  confirmationPrompt,
  needsTypedConfirmation,
  type DestructiveWrite,
} from '../../../shared/dynamo/confirmation';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { Connection } from '../../../shared/ipc/connection';

export const CONFIRMATION_REQUIRED = 'ConfirmationRequired';

/**
 * Refuses writes on a read-only connection before any work starts. The SDK middleware on the
 * connection's client refuses them too; this check just says so before a long job begins.
 */
export function assertWritable(connection: Connection): void {
  if (connection.readOnly) {
    throw new AppFailure(
      ErrorCodes.readOnly,
      `The connection "${connection.label}" is read-only, so DynoTable writes nothing through it. Edit the connection to allow writes.`,
    );
  }
}

/** The typed table name, enforced in main with the renderer's rule. */
export function assertConfirmed(
  connection: Connection,
  table: string,
  write: DestructiveWrite,
  count: number,
  typed: string | undefined,
): void {
  if (!needsTypedConfirmation(write, count, connection.isProduction)) return;
  if (typed === table) return;
  const where = connection.isProduction ? ` on the production connection "${connection.label}"` : '';
  throw new AppFailure(
    CONFIRMATION_REQUIRED,
    `${confirmationPrompt(write, count, table).replace(/\.$/, '')}${where}.`,
    false,
    {
      write,
      count,
    },
  );
}
