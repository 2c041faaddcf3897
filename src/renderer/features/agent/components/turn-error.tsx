import type { AppError } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { ErrorMessage } from '../../../ui/error-message';
import { openExternal } from '../../app-info/store';

/** Failures that a change in the assistant's settings (model, region, endpoint) fixes. */
const settingsCodes = new Set([
  'AccessDeniedException',
  'ResourceNotFoundException',
  'ValidationException',
  'ECONNREFUSED',
  'ENOTFOUND',
]);

export interface TurnErrorProps {
  error: AppError;
  connectionId: string;
  onOpenSettings?: () => void;
}

/** Main's sentence, plus the buttons that lead to its fix: the Bedrock console or Settings. */
export function TurnError({ error, connectionId, onOpenSettings }: TurnErrorProps) {
  const modelAccessUrl =
    typeof error.details?.modelAccessUrl === 'string' ? error.details.modelAccessUrl : undefined;
  const canFixInSettings = onOpenSettings !== undefined && settingsCodes.has(error.code);
  return (
    <div className="agent-error">
      <ErrorMessage error={error} connectionId={connectionId} compact />
      {modelAccessUrl || canFixInSettings ? (
        <div className="agent-error-actions">
          {modelAccessUrl ? (
            <Button size="sm" onClick={() => void openExternal(modelAccessUrl)}>
              Open Model access
            </Button>
          ) : null}
          {canFixInSettings ? (
            <Button size="sm" onClick={onOpenSettings}>
              Assistant settings
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
