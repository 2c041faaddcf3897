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
  const where = `${settings.modelId} in ${settings.bedrockRegion}`;
  const messages: Record<string, string> = {
    AccessDeniedException: `Your AWS identity may not use ${where}. Enable access to this model in the Bedrock console (Model access) for ${settings.bedrockRegion}, and allow bedrock:InvokeModelWithResponseStream in IAM — or choose another model.`,
    ResourceNotFoundException: `Bedrock does not know the model ${where}. Check the model id, or use an inference profile id (like us.anthropic…) for models that need one.`,
    ThrottlingException: `Bedrock is throttling requests for ${where}. DynoTable retried with backoff; wait a moment and ask again, or raise the quota in Service Quotas.`,
    ServiceUnavailableException: `Bedrock is unavailable right now for ${where}. Try again shortly.`,
    ModelNotReadyException: `The model ${where} is not ready yet. Try again in a minute.`,
    ValidationException: `Bedrock rejected the request: ${typeof base.details?.awsMessage === 'string' ? base.details.awsMessage : base.message}`,
    ECONNREFUSED: `Could not reach Bedrock${settings.bedrockEndpoint ? ` at ${settings.bedrockEndpoint}` : ''}: the connection was refused.`,
    ENOTFOUND: 'Could not reach Bedrock: no network, or the region has no Bedrock endpoint.',
  };
  const message = messages[base.code];
  if (!message) return error;
  return new AppFailure(base.code, message, base.retryable, base.details);
}
