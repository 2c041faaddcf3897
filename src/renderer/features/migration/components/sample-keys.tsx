import type { PlainKey } from '../../../../shared/ipc';
import { keyLabel } from '../keys';

/** Sample item keys: a click opens the item in the editor; { } shows its JSON beside the report. */
export function SampleKeys(props: {
  keys: PlainKey[];
  onOpen(key: PlainKey): void;
  onPeek(key: PlainKey): void;
}) {
  const { keys, onOpen, onPeek } = props;
  if (keys.length === 0) return null;
  return (
    <div className="mig-samples">
      <span className="muted">Samples:</span>
      {keys.map((key) => (
        <span key={JSON.stringify(key)} className="mig-sample-group">
          <button
            type="button"
            className="mig-sample"
            onClick={() => onOpen(key)}
            title="Open in the item editor"
          >
            {keyLabel(key)}
          </button>
          <button
            type="button"
            className="mig-sample-peek"
            onClick={() => onPeek(key)}
            aria-label={`Show the JSON of ${keyLabel(key)}`}
            title="Show the stored JSON here"
          >
            {'{ }'}
          </button>
        </span>
      ))}
    </div>
  );
}
