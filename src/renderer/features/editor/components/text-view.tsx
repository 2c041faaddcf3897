import { useState, type RefObject } from 'react';
import type { Item } from '../../../../shared/dynamo/attribute-value';
import { JsonTextError } from '../../../../shared/dynamo/json-text';
import { JsonEditor } from './json-editor';

export interface TextViewProps {
  label: string;
  /** The item as text, when the item changed elsewhere (the form, another view). */
  format(item: Item): string;
  parse(text: string): Item;
  item: Item;
  onChange(item: Item): void;
  /** The JSON editor takes focus when made, once (see JsonEditor). */
  refocusRef?: RefObject<boolean>;
}

/**
 * A JSON view of the item. What the user types is kept as typed, even while it does not parse:
 * the mistake is shown with its line and column, and the item only changes once the text is valid.
 */
export function TextView({ label, format, parse, item, onChange, refocusRef }: TextViewProps) {
  const [text, setText] = useState(() => format(item));
  const [error, setError] = useState<JsonTextError | Error>();
  return (
    <div className="text-view">
      <JsonEditor
        label={label}
        refocusRef={refocusRef}
        value={text}
        error={
          error
            ? { offset: error instanceof JsonTextError ? error.offset : 0, message: error.message }
            : undefined
        }
        onChange={(next) => {
          setText(next);
          try {
            onChange(parse(next));
            setError(undefined);
          } catch (problem) {
            setError(problem instanceof Error ? problem : new Error(String(problem)));
          }
        }}
      />
      {error ? (
        <p className="field-error" role="alert">
          {error instanceof JsonTextError ? error.sentence : error.message} Nothing is saved until it parses.
        </p>
      ) : null}
    </div>
  );
}
