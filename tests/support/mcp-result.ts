import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A DynoTable MCP tool result read as an agent would: the text must hold exactly one
 * <untrusted-data-UUID> boundary, closed by the same name, with the result's JSON inside.
 */
export function resultJson(result: CallToolResult): Record<string, unknown> {
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  const opened = [...text.matchAll(/<(untrusted-data-[0-9a-f-]{36})>/g)];
  if (opened.length !== 1) throw new Error(`Expected one untrusted-data boundary, found ${opened.length}.`);
  const tag = opened[0]![1]!;
  const start = text.indexOf(`<${tag}>\n`) + tag.length + 3;
  const end = text.indexOf(`\n</${tag}>`);
  if (end < start || !text.endsWith(`</${tag}>`)) throw new Error('The boundary is not closed at the end.');
  return JSON.parse(text.slice(start, end)) as Record<string, unknown>;
}
