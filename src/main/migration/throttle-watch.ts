import type { ScanCommand } from '@aws-sdk/client-dynamodb';
import { isThrottling } from './rate-limiter';

/**
 * Calls `onThrottled` for every attempt of this command that DynamoDB throttled, including the
 * ones the SDK's own retry then repeated successfully. Those never reach the caller's catch, so
 * without this a scan kept its full pace through four refusals out of five and its report never
 * knew. It sits in the deserialize step, below the SDK's retry, which is where single attempts
 * (and their parsed errors) pass.
 */
export function watchThrottling(command: ScanCommand, onThrottled: () => void): ScanCommand {
  command.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isThrottling(error)) onThrottled();
        throw error;
      }
    },
    { step: 'deserialize', priority: 'high', name: 'migrationThrottleWatch' },
  );
  return command;
}
