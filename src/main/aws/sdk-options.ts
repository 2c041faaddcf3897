import { NodeHttpHandler } from '@smithy/node-http-handler';

/**
 * Network and retry settings every AWS client of DynoTable shares. Without timeouts a dead
 * endpoint hangs a request forever; adaptive retry backs off (and rate-limits the client)
 * when DynamoDB throttles, instead of failing on the first ProvisionedThroughputExceeded.
 */
export function sdkTransport() {
  return {
    requestHandler: new NodeHttpHandler({
      connectionTimeout: 5_000,
      // A 1 MB Scan page over a slow link still fits; a silent server does not hang the UI.
      requestTimeout: 60_000,
      throwOnRequestTimeout: true,
    }),
    maxAttempts: 5,
    retryMode: 'adaptive' as const,
  };
}
