import type { AttributeValue } from '../../../../shared/dynamo/attribute-value';
import { inNameOrder } from '../../../../shared/dynamo/item-order';
import { Button } from '../../../ui/button';
import { Popover } from '../../../ui/popover';

/**
 * A list or map from a grid cell, opened in full (rows keep one fixed height). Its nested maps in
 * name order, as the item editor's JSON views show them (shared/dynamo/item-order.ts).
 */
export function ValuePopover({
  name,
  value,
  onClose,
}: {
  name: string;
  value: AttributeValue;
  onClose(): void;
}) {
  return (
    <Popover className="value-popover" label={`Value of ${name}`} onClose={onClose}>
      <header className="value-popover-header">
        <strong>{name}</strong>
        <span className="toolbar-spacer" />
        <Button size="sm" variant="ghost" aria-label="Close" onClick={onClose}>
          ×
        </Button>
      </header>
      <pre className="code-block">{JSON.stringify(inNameOrder(value), null, 2)}</pre>
    </Popover>
  );
}
