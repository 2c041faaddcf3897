import type { DynamoDBClient, ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/client-dynamodb';
import type { InitializeMiddleware } from '@smithy/types';
import { AppFailure, ErrorCodes } from '../../shared/errors';

/**
 * DynamoDB operations that only read. Anything not named here is refused on a read-only
 * connection: a new write operation added to the SDK later is blocked until someone decides
 * it reads (deny by default).
 */
const READ_OPERATIONS = new Set([
  'GetItem',
  'BatchGetItem',
  'TransactGetItems',
  'Query',
  'Scan',
  'DescribeTable',
  'ListTables',
  'DescribeTimeToLive',
  'DescribeContinuousBackups',
  'DescribeLimits',
  'DescribeEndpoints',
  'ListTagsOfResource',
  'DescribeContributorInsights',
  'ListContributorInsights',
  'DescribeKinesisStreamingDestination',
  'DescribeGlobalTable',
  'DescribeGlobalTableSettings',
  'ListGlobalTables',
  'DescribeTableReplicaAutoScaling',
  'ListBackups',
  'DescribeBackup',
  'DescribeExport',
  'ListExports',
  'DescribeImport',
  'ListImports',
  'GetResourcePolicy',
]);

// PartiQL: only SELECT reads. Leading comments or anything else fail closed.
const SELECT = /^\s*select\b/i;

function statementsOf(operation: string, input: unknown): unknown[] | undefined {
  const request = input as { Statement?: unknown; Statements?: unknown } | undefined;
  if (operation === 'ExecuteStatement') return [request?.Statement];
  if (operation === 'BatchExecuteStatement') {
    const list = request?.Statements;
    return Array.isArray(list)
      ? list.map((s) => (s as { Statement?: unknown } | undefined)?.Statement)
      : undefined;
  }
  return undefined;
}

/** Whether a read-only connection may send this operation with this input. */
export function isReadOperation(operation: string, input: unknown): boolean {
  if (READ_OPERATIONS.has(operation)) return true;
  const statements = statementsOf(operation, input);
  // ExecuteTransaction is refused outright: a transaction exists to write.
  if (!statements || statements.length === 0) return false;
  return statements.every((s) => typeof s === 'string' && SELECT.test(s));
}

function operationName(commandName: unknown): string {
  return typeof commandName === 'string' ? commandName.replace(/Command$/, '') : 'this request';
}

export function readOnlyRefusal(operation: string): AppFailure {
  return new AppFailure(
    ErrorCodes.readOnly,
    `This connection is read-only, so DynoTable did not send ${operation}. Edit the connection to allow writes.`,
    false,
    { operation },
  );
}

/** A middleware that refuses every write with `refusal`'s error and lets reads through. */
function writeGuard(
  refusal: (operation: string) => AppFailure,
): InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> {
  return (next, context) => (args) => {
    const operation = operationName(context.commandName);
    if (!isReadOperation(operation, args.input)) return Promise.reject(refusal(operation));
    return next(args);
  };
}

// The first step of every command sent through the client (whoever builds the command), before
// signing or any network traffic.
const installAt = { step: 'initialize', priority: 'high', override: true } as const;

/** Installs the read-only guard on the client of a read-only connection. */
export function addReadOnlyGuard(client: DynamoDBClient): void {
  client.middlewareStack.add(writeGuard(readOnlyRefusal), { ...installAt, name: 'dynotableReadOnlyGuard' });
}

export function retiredRefusal(operation: string): AppFailure {
  return new AppFailure(
    ErrorCodes.connectionChanged,
    `The connection was changed while this request waited, so DynoTable did not send ${operation} with its old settings. Try again: it will use the connection as it is now.`,
    false,
    { operation },
  );
}

/** Closes a replaced client to writes at once; reads already under way (or still sent) may finish. */
export function addRetiredGuard(client: DynamoDBClient): void {
  client.middlewareStack.add(writeGuard(retiredRefusal), { ...installAt, name: 'dynotableRetiredGuard' });
}
