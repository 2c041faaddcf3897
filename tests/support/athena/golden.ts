import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Golden files of the Athena translation (tests/athena/*.golden), written to be read:
 *
 *   === where on a number {ordered} {no-compare: why}
 *   SELECT orderId FROM orders WHERE total > 100       -- DynoTable SQL
 *   --- athena
 *   SELECT ...                                          -- the translation, one clause a line
 *   --- notes
 *   - what differs from the local engine
 *   --- refused
 *   the sentence the user reads, naming the construct
 *
 * `{ordered}` compares rows in order; `{as-text}` compares values as text; `{no-compare}` skips the DuckDB run (and says why);
 */
export interface GoldenCase {
  title: string;
  sql: string;
  ordered: boolean;
  noCompare?: string;
  /** Rows compared as text: a column of several types is text in Athena. */
  asText: boolean;
  expected: string;
}

export const GOLDEN_DIR = join(__dirname, '..', '..', 'athena');

export function goldenFiles(): string[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.golden'))
    .sort();
}

export function readGolden(file: string): GoldenCase[] {
  const text = readFileSync(join(GOLDEN_DIR, file), 'utf8');
  return text
    .split(/^=== /m)
    .slice(1)
    .map((block) => {
      const [head, ...rest] = block.split('\n');
      const body = rest.join('\n');
      const cut = body.search(/^--- /m);
      const sql = (cut < 0 ? body : body.slice(0, cut)).trim();
      const expected = cut < 0 ? '' : body.slice(cut).trim();
      const noCompare = /\{no-compare: ([^}]*)\}/.exec(head!)?.[1];
      return {
        title: head!.replace(/\{[^}]*\}/g, '').trim(),
        sql,
        ordered: head!.includes('{ordered}'),
        asText: head!.includes('{as-text}'),
        noCompare,
        expected,
        head: head!,
      };
    });
}

export function writeGolden(file: string, cases: (GoldenCase & { head?: string })[], actual: string[]): void {
  const text = cases.map((c, i) => `=== ${c.head ?? c.title}\n${c.sql}\n${actual[i]}\n`).join('\n');
  writeFileSync(join(GOLDEN_DIR, file), text);
}

/** One clause a line, at the statement's own level; nested queries stay on their line. */
export function pretty(sql: string): string {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  const breaks = [
    ' FROM ',
    ' WHERE ',
    ' GROUP BY ',
    ' HAVING ',
    ' ORDER BY ',
    ' OFFSET ',
    ' LIMIT ',
    ' JOIN ',
    ' LEFT JOIN ',
    ' RIGHT JOIN ',
    ' FULL JOIN ',
    ' CROSS JOIN ',
    ' UNION ',
    ' INTERSECT ',
    ' EXCEPT ',
  ];
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'") quote = !quote;
    if (quote) continue;
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (depth !== 0) continue;
    const b = breaks.find(
      (k) => sql.startsWith(k, i) && !(k === ' JOIN ' && /(LEFT|RIGHT|FULL|CROSS)$/.test(sql.slice(0, i))),
    );
    if (b && i > start) {
      out.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  out.push(sql.slice(start));
  return out.join('\n');
}
