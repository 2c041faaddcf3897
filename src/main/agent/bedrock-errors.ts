import { AppFailure } from '../../shared/errors';
import { toAppError } from '../core/to-app-error';
import type { AgentSettings } from '../../shared/ipc/agent';

/**
 * Bedrock failures in words that say what to do. The AWS error name stays the code, so the UI
 * can still tell access from throttling from an expired credential.
 */
export function explainBedrockError(error: unknown, settings: AgentSettings): unknown {
  if (error instanceof AppFailure) return error;
  const base = toAppError(error);
  // Backticks: the UI shows ids and IAM actions as code, so they read as things to copy.
  const model = `\`${settings.modelId}\``;
  const region = settings.bedrockRegion;
  const where = `${model} in ${region}`;
  const endpoint = settings.bedrockEndpoint ? ` at ${settings.bedrockEndpoint}` : ` in ${region}`;
  const unreachable = `Could not reach Bedrock${endpoint}: check the network (or proxy), then ask again.`;
  const messages: Record<string, string> = {
    AccessDeniedException: `Bedrock refused ${where} for your AWS identity. To fix it, enable access to this model in the Bedrock console (Model access) for ${region}, and allow \`bedrock:InvokeModelWithResponseStream\` in IAM — or choose another model in the assistant's Settings.`,
    ResourceNotFoundException: `Bedrock does not know the model ${where}. Check the model id, or use an inference profile id (like us.anthropic…) for models that need one.`,
    ThrottlingException: `Bedrock is throttling requests for ${where}. DynoTable retried with backoff; wait a moment and ask again, or raise the quota in Service Quotas.`,
    ServiceUnavailableException: `Bedrock is unavailable right now for ${where}. Try again shortly.`,
    ModelNotReadyException: `The model ${where} is not ready yet. Try again in a minute.`,
    ValidationException: `Bedrock rejected the request: ${typeof base.details?.awsMessage === 'string' ? base.details.awsMessage : base.message}`,
    ECONNREFUSED: `Could not reach Bedrock${endpoint}: the connection was refused.`,
    ENOTFOUND: `Could not reach Bedrock${endpoint}: the address does not resolve (no network, or no Bedrock endpoint in that region).`,
    EAI_AGAIN: unreachable,
    ETIMEDOUT: unreachable,
    ECONNRESET: unreachable,
    EHOSTUNREACH: unreachable,
  };
  const message = messages[base.code];
  if (!message) return error;
  const details =
    base.code === 'AccessDeniedException'
      ? {
          ...base.details,
          modelAccessUrl: `https://${region}.console.aws.amazon.com/bedrock/home?region=${region}#/modelaccess`,
        }
      : base.details;
  return new AppFailure(base.code, message, base.retryable, details);
}
