import { typeWords } from '../../../../shared/dynamo/attribute-value';
import type { KeySchema } from '../../../../shared/ipc';
import type { KeyAttributeInfo } from '../../../../shared/ipc/tables';

export function KeyAttribute({ attribute }: { attribute: KeySchema['partitionKey'] | undefined }) {
  if (!attribute) return <span className="muted">—</span>;
  return (
    <span className="key-attribute">
      <span className="mono">{attribute.name}</span>
      <span className="type-chip" title={typeWords[attribute.type]}>
        {attribute.type}
      </span>
    </span>
  );
}

/** A key's partition or sort attributes in order: one, or up to four for a multi-attribute key. */
export function KeyAttributes({ attributes }: { attributes: KeyAttributeInfo[] }) {
  if (attributes.length <= 1) return <KeyAttribute attribute={attributes[0]} />;
  return (
    <span className="key-attributes" aria-label={`${attributes.length} attributes, in key order`}>
      {attributes.map((attribute, i) => (
        <span key={`${i}:${attribute.name}`} className="key-attributes-part">
          {i > 0 ? <span className="muted key-attributes-plus">+</span> : null}
          <KeyAttribute attribute={attribute} />
        </span>
      ))}
    </span>
  );
}
