import type { AttributeValue, Item } from './attribute-value';
import type { PathSegment } from './validate-item';

/** DynamoDB refuses expression strings over 4 KB and more than 300 operators or functions. */
export const MAX_EXPRESSION_LENGTH = 4096;
export const MAX_EXPRESSION_OPERATORS = 300;

/**
 * Placeholders for one request. Every attribute name goes through ExpressionAttributeNames,
 * always: reserved words (`status`, `name`), dots (`a.b` is one name, not a path), spaces and
 * unicode then need no special case, and no name is ever parsed as syntax.
 */
export class ExpressionContext {
  readonly names: Record<string, string> = {};
  readonly values: Item = {};
  private readonly nameIds = new Map<string, string>();
  private valueCount = 0;

  name(attribute: string): string {
    let placeholder = this.nameIds.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.nameIds.size}`;
      this.nameIds.set(attribute, placeholder);
      this.names[placeholder] = attribute;
    }
    return placeholder;
  }

  /** A document path: names become placeholders, numbers become list indexes. */
  path(segments: readonly PathSegment[]): string {
    return segments
      .map((segment, i) =>
        typeof segment === 'number' ? `[${segment}]` : (i === 0 ? '' : '.') + this.name(segment),
      )
      .join('');
  }

  value(value: AttributeValue): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The request fields, leaving out empty maps (DynamoDB refuses an empty ExpressionAttributeValues). */
  fields(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Item } {
    return {
      ...(Object.keys(this.names).length > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}
