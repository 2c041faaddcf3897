import type { AttributeValue } from '../../shared/dynamo/attribute-value';
import { inNameOrder } from '../../shared/dynamo/item-order';
import { Button } from './button';
import { valueText } from './cell-text';
import { Popover } from './popover';

/**
 * A value from a result grid's cell, opened in full (rows keep one fixed height): the item grid's
 * lists and maps as DynamoDB JSON, nested maps in name order as the item editor's JSON views show
 * them (shared/dynamo/item-order.ts); a SQL result's cell `isPlain`, as the results show values
 * (a string as itself, nested values as plain JSON).
 */
export function ValuePopover({
  name,
  value,
  isPlain,
  onClose,
}: {
  name: string;
  value: AttributeValue | null | undefined;
  isPlain?: boolean;
  onClose(): void;
}) {
  const text =
    isPlain || !value ? valueText(value, 2) || '(missing)' : JSON.stringify(inNameOrder(value), null, 2);
  return (
    <Popover className="value-popover" label={`Value of ${name}`} onClose={onClose}>
      <header className="value-popover-header">
        <strong>{name}</strong>
        <span className="toolbar-spacer" />
        <Button size="sm" variant="ghost" aria-label="Close" onClick={onClose}>
          ×
        </Button>
      </header>
      <pre className="code-block">{text}</pre>
    </Popover>
  );
}
