import type { PlainKey } from '../../../../shared/ipc';
import { keyLabel } from '../keys';

/** Sample item keys; one click opens the item beside the report. */
export function SampleKeys({ keys, onOpen }: { keys: PlainKey[]; onOpen(key: PlainKey): void }) {
  if (keys.length === 0) return null;
  return (
    <div className="mig-samples">
      <span className="muted">Samples:</span>
      {keys.map((key) => (
        <button
          type="button"
          key={JSON.stringify(key)}
          className="mig-sample"
          onClick={() => onOpen(key)}
          title="Show this item"
        >
          {keyLabel(key)}
        </button>
      ))}
    </div>
  );
}
