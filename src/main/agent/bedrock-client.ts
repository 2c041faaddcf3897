import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { fromIni } from '@aws-sdk/credential-providers';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { AgentSettings } from '../../shared/ipc/agent';
import type { CoreContext } from '../core/context';

/**
 * A Bedrock Runtime client on the user's own credentials. HTTP/1.1 (NodeHttpHandler) rather than
 * the SDK's default HTTP/2 because corporate proxies prefer it; sigv4 pinned so an
 * AWS_BEARER_TOKEN_BEDROCK in the environment never silently replaces the connection's identity.
 */
export async function createBedrockClient(
  ctx: CoreContext,
  connectionId: string,
  settings: AgentSettings,
): Promise<BedrockRuntimeClient> {
  const credentials = settings.bedrockProfile
    ? fromIni({ profile: settings.bedrockProfile })
    : (await ctx.clients.dynamo(connectionId)).config.credentials;
  return new BedrockRuntimeClient({
    region: settings.bedrockRegion,
    endpoint: settings.bedrockEndpoint,
    credentials,
    authSchemePreference: ['sigv4'],
    maxAttempts: 4,
    requestHandler: new NodeHttpHandler({ connectionTimeout: 5_000, requestTimeout: 120_000 }),
  });
}
