import type { KeySchema } from '../../../../shared/ipc';

const typeNames = { S: 'String', N: 'Number', B: 'Binary' } as const;

export function KeyAttribute({ attribute }: { attribute: KeySchema['partitionKey'] | undefined }) {
  if (!attribute) return <span className="muted">—</span>;
  return (
    <span className="key-attribute">
      <span className="mono">{attribute.name}</span>
      <span className="type-chip" title={typeNames[attribute.type]}>
        {attribute.type}
      </span>
    </span>
  );
}
