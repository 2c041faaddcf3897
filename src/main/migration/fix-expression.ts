import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import type { PlannedUpdate } from '../../shared/ipc/migration';
import type { PathStep } from './paths';

/**
 * Builds one UpdateItem in tagged form. Every name goes through ExpressionAttributeNames: a
 * dotted name like "a.b" written inline would be read as the path a → b, which is the exact
 * confusion this fix exists to undo.
 */
export class UpdateBuilder {
  private readonly names = new Map<string, string>();
  private readonly values: Item = {};
  private valueCount = 0;
  private readonly sets: string[] = [];
  private readonly removes: string[] = [];
  private readonly conditions: string[] = [];

  path(steps: readonly PathStep[]): string {
    let out = '';
    for (const step of steps) {
      if (typeof step === 'number') out += `[${step}]`;
      else out += `${out ? '.' : ''}${this.name(step)}`;
    }
    return out;
  }

  private name(name: string): string {
    let placeholder = this.names.get(name);
    if (!placeholder) {
      placeholder = `#n${this.names.size}`;
      this.names.set(name, placeholder);
    }
    return placeholder;
  }

  value(value: AttributeValue): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  set(steps: readonly PathStep[], value: AttributeValue): void {
    this.sets.push(`${this.path(steps)} = ${this.value(value)}`);
  }

  remove(steps: readonly PathStep[]): void {
    this.removes.push(this.path(steps));
  }

  /** The value at the path is still exactly what the scan saw. */
  expectValue(steps: readonly PathStep[], value: AttributeValue): void {
    this.conditions.push(`${this.path(steps)} = ${this.value(value)}`);
  }

  expectAbsent(steps: readonly PathStep[]): void {
    this.conditions.push(`attribute_not_exists(${this.path(steps)})`);
  }

  expectMap(steps: readonly PathStep[]): void {
    this.conditions.push(`attribute_type(${this.path(steps)}, ${this.value({ S: 'M' })})`);
  }

  get isEmpty(): boolean {
    return this.sets.length === 0 && this.removes.length === 0;
  }

  build(key: Item): PlannedUpdate {
    const clauses: string[] = [];
    if (this.sets.length > 0) clauses.push(`SET ${this.sets.join(', ')}`);
    if (this.removes.length > 0) clauses.push(`REMOVE ${this.removes.join(', ')}`);
    const update: PlannedUpdate = {
      Key: key,
      UpdateExpression: clauses.join(' '),
      ConditionExpression: this.conditions.join(' AND '),
      ExpressionAttributeNames: Object.fromEntries(
        [...this.names].map(([name, placeholder]) => [placeholder, name]),
      ),
    };
    if (this.valueCount > 0) update.ExpressionAttributeValues = this.values;
    return update;
  }
}
