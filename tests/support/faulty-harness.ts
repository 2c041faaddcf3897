import type { HandlerTable } from '../../src/main/ipc/dispatcher';
import { localClient } from './dynamo-local';
import { startFaultyDynamo, type FaultyDynamo } from './faulty-dynamo';
import { itemsHarness, useAppClients, type ItemsHarness } from './items-context';

export interface FaultyHarness extends ItemsHarness {
  faulty: FaultyDynamo;
}

/**
 * The items harness with the app's own client factory (its timeouts, adaptive retry and five
 * attempts) on connections whose endpoint override is the faulty server, so every throttle the
 * script plays meets the SDK retries a user's session would. `client` talks to DynamoDB Local
 * directly: the test's own eyes, never counted or faulted.
 */
export async function faultyHarness(
  upstream: string,
  extraHandlers: Partial<HandlerTable> = {},
): Promise<FaultyHarness> {
  const faulty = await startFaultyDynamo(upstream);
  const h = itemsHarness(faulty.endpoint, extraHandlers);
  h.client.destroy();
  useAppClients(h);
  const client = localClient(upstream);
  return {
    ...h,
    client,
    faulty,
    async close() {
      await h.close();
      client.destroy();
      await faulty.close();
    },
  };
}
