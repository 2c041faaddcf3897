import type { MiddlewareStack } from '@smithy/types';
import { isThrottling } from '../core/retry';

/**
 * Calls `onThrottled` for every attempt of this command that DynamoDB throttled, including the
 * ones the SDK's own retry then repeated successfully. Those never reach the caller's catch, so
 * without this a scan (or the fix's writes) kept its full pace through four refusals out of five
 * and its report never knew. It sits in the deserialize step, below the SDK's retry, which is
 * where single attempts (and their parsed errors) pass.
 */
export function watchThrottling<I extends object, O extends object, C extends object>(
  command: C & { middlewareStack: MiddlewareStack<I, O> },
  onThrottled: () => void,
): C {
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
