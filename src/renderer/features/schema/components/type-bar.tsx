import { typeWords } from '../../../../shared/dynamo/attribute-value';
import type { AttributeSchema, SchemaValueType } from '../../../../shared/ipc';

export function typeEntries(attribute: AttributeSchema): [SchemaValueType, number][] {
  return (Object.entries(attribute.types) as [SchemaValueType, number][]).sort((a, b) => b[1] - a[1]);
}

export const percent = (part: number, whole: number): string => {
  if (whole === 0) return '0%';
  const p = (part / whole) * 100;
  return p > 0 && p < 1 ? '<1%' : p < 100 && p > 99 ? '>99%' : `${Math.round(p)}%`;
};

/** The share of each DynamoDB type at a path: a bar to glance at, the same numbers as text. */
export function TypeBar({ attribute }: { attribute: AttributeSchema }) {
  const entries = typeEntries(attribute);
  const total = entries.reduce((n, [, c]) => n + c, 0);
  return (
    <span className="schema-types">
      <span className="schema-type-bar" aria-hidden="true">
        {entries.map(([type, count]) => (
          <span key={type} className={`schema-type-fill t-${type}`} style={{ flexGrow: count }} />
        ))}
      </span>
      <span className="schema-type-text">
        {entries.map(([type, count]) => (
          <span
            key={type}
            className="schema-type-chip"
            title={`${typeWords[type]}: ${count.toLocaleString('en-US')} values`}
          >
            <span className={`schema-swatch t-${type}`} aria-hidden="true" />
            {type} {entries.length > 1 ? percent(count, total) : null}
          </span>
        ))}
      </span>
    </span>
  );
}
