import { patternCap } from './access-pattern-tools';
import type { AccessPattern } from './access-patterns';
import { toolAnnotations } from './tool-annotations';
import type { McpToolSession } from './tool-session';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * What `dynotable mcp --dry-run` prints: the tools a client would be offered with their
 * annotations, and the budgets, allow-list and rules the server would hold them to.
 */
export function dryRunReport(session: McpToolSession, patterns: AccessPattern[] = []): string {
  const { connection, tables, maxItems, maxRcu, allowScans } = session.options;
  const writes = session.allowed.includes('propose_changes')
    ? 'proposed, each confirmed by you'
    : connection.readOnly
      ? 'refused (read-only connection)'
      : 'refused (no --allow-writes)';
  const width = Math.max(...session.allowed.map((t) => t.length));
  const lines = [
    'dynotable mcp --dry-run: nothing is served and nothing is read.',
    `connection   ${connection.label}${connection.endpoint ? ` (${connection.endpoint})` : ''}, ${connection.region}`,
    `tables       ${tables.length > 0 ? tables.join(', ') : 'every table of the connection'}`,
    `per call     at most ${maxItems} items and ${maxRcu} RCU`,
    `scans        ${allowScans ? 'allowed (bounded by the budgets)' : 'refused, with the key condition that would serve'}`,
    `writes       ${writes}`,
    '',
    `tools (${session.allowed.length})`,
    ...session.allowed.map((name) => {
      const a = toolAnnotations[name];
      const hints = HINTS.map((h) => `${h}=${String(a[h])}`).join(' ');
      return `  ${name.padEnd(width)}  ${hints}`;
    }),
    ...(patterns.length > 0
      ? [
          '',
          `access patterns (${patterns.length}), read-only like the tools above, each at most ${patternCap(session).maxItems} items and ${patternCap(session).maxRcu} RCU per call`,
          ...patterns.map((p) => `  ${p.name}  ${p.source === 'schema' ? p.template : 'saved query'}`),
        ]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}
