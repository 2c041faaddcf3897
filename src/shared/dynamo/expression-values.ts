import type { AttributeValue, Item } from './attribute-value';
import { fromPlain, tagged } from './item-json';
import { failAt, parseJsonText, type JsonNode } from './json-text';
import { defineOwn } from './proto-keys';

/**
 * The raw-expression boxes' names and values. Values come as people write them: plain JSON
 * ("PAID", 42, true, null, [..], {..}), typed as the form would type them, or DynamoDB JSON
 * ({"S": "PAID"}, {"N": "42"}, {"SS": [..]}) for what plain JSON cannot say.
 */
const TYPE_TAGS = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS']);

function isTagged(node: JsonNode): boolean {
  return node.kind === 'object' && node.entries.length === 1 && TYPE_TAGS.has(node.entries[0]?.key ?? '');
}

function entriesOf(text: string, what: string) {
  if (text.trim() === '') return [];
  const root = parseJsonText(text);
  if (root.kind !== 'object') return failAt(text, root.at, `${what} are a JSON object`);
  return root.entries;
}

/** `{":paid": "PAID", ":n": 3, ":set": {"SS": ["a"]}}` → tagged values; throws JsonTextError at the spot. */
export function parseExpressionValues(text: string): Item {
  const out: Item = {};
  for (const entry of entriesOf(text, 'Values')) {
    if (!entry.key.startsWith(':'))
      failAt(text, entry.at, `"${entry.key}" must start with a colon, like ":${entry.key}"`);
    const value: AttributeValue = isTagged(entry.value)
      ? tagged(text, entry.value)
      : fromPlain(text, entry.value);
    defineOwn(out, entry.key, value);
  }
  return out;
}

/** `{"#status": "status"}`; throws JsonTextError at the spot. */
export function parseExpressionNames(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entriesOf(text, 'Names')) {
    if (!entry.key.startsWith('#'))
      failAt(text, entry.at, `"${entry.key}" must start with #, like "#${entry.key}"`);
    if (entry.value.kind !== 'string') failAt(text, entry.value.at, 'An attribute name is a string');
    defineOwn(out, entry.key, entry.value.value);
  }
  return out;
}
