import { Button } from '../../../ui/button';

export interface KeyTakenProps {
  /** The key as the user typed it, e.g. `USER#u999 · PROFILE`. */
  keyLabel: string;
  /** DynamoDB's name for it, shown small like every error code. */
  code: string;
  onOpen(): void;
}

/**
 * A create whose key is already used: nothing was written and nobody changed anything, so this
 * is not a conflict. The user either opens the stored item or gives theirs another key.
 */
export function KeyTaken({ keyLabel, code, onOpen }: KeyTakenProps) {
  return (
    <section className="error-message is-compact key-taken" role="alert" aria-label="Key exists">
      <span className="error-icon" aria-hidden="true">
        !
      </span>
      <div className="error-text">
        <p className="error-sentence">
          An item with the key <code>{keyLabel}</code> already exists, so nothing was created. Open that item
          to edit it, or change the key of this one.
        </p>
        <code className="error-code">{code}</code>
      </div>
      <div className="error-actions">
        <Button size="sm" variant="primary" onClick={onOpen}>
          Open that item
        </Button>
      </div>
    </section>
  );
}
