import type { Token } from './lexer';
import type { SourceSpan } from './sql-error';

/**
 * Constructs analysts write that the engine does not run, each with a rewrite that does. They
 * are looked for only once a statement has failed to parse, so a name like `filter` or
 * `lateral` in a statement that parses stays an ordinary attribute name; the first one found
 * replaces the parser's "Expected ..." with a sentence that names the construct.
 */
interface Refusal {
  message: string;
  span: SourceSpan;
}

type Rule = (tokens: Token[], i: number) => string | undefined;

const word = (t: Token | undefined, ...words: string[]): boolean =>
  t?.kind === 'ident' && words.includes(t.upper);
const op = (t: Token | undefined, ...ops: string[]): boolean => t?.kind === 'op' && ops.includes(t.text);
const COMPARISONS = ['=', '<>', '!=', '<', '<=', '>', '>='];

/** Index of the `)` that closes the `(` at `open`, or -1. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (op(tokens[i], '(')) depth += 1;
    else if (op(tokens[i], ')') && --depth === 0) return i;
  }
  return -1;
}

/** `(a, b)` standing for a row value: a top-level comma, not a call's or an IN list's parentheses. */
function isRowValue(tokens: Token[], i: number): boolean {
  if (!op(tokens[i], '(')) return false;
  const before = tokens[i - 1];
  if (before?.kind === 'ident' && !word(before, 'WHERE', 'AND', 'OR', 'NOT', 'ON', 'HAVING', 'WHEN'))
    return false;
  if (op(before, ')', ']')) return false;
  const close = closing(tokens, i);
  if (close < 0 || !(word(tokens[close + 1], 'IN', 'NOT') || op(tokens[close + 1], ...COMPARISONS)))
    return false;
  let depth = 0;
  for (let j = i + 1; j < close; j++) {
    if (op(tokens[j], '(')) depth += 1;
    else if (op(tokens[j], ')')) depth -= 1;
    else if (depth === 0 && op(tokens[j], ',')) return true;
    else if (depth === 0 && word(tokens[j], 'SELECT')) return false;
  }
  return false;
}

const RULES: Rule[] = [
  (t, i) => (t[i + 1] ? refusedJoinKind(t[i]!, t[i + 1]!) : undefined),
  (t, i) =>
    word(t[i], 'LATERAL') && op(t[i + 1], '(')
      ? 'LATERAL is not supported (a subquery in FROM cannot read the other tables of that FROM); write a correlated subquery in SELECT or WHERE, or JOIN a subquery grouped by the key'
      : undefined,
  (t, i) =>
    word(t[i], 'FILTER') && op(t[i + 1], '(') && word(t[i + 2], 'WHERE')
      ? 'An aggregate with FILTER (WHERE ...) is not supported; write SUM(CASE WHEN condition THEN x END) or COUNT(CASE WHEN condition THEN 1 END)'
      : undefined,
  (t, i) =>
    word(t[i], 'WITHIN') && word(t[i + 1], 'GROUP')
      ? 'WITHIN GROUP (ordered-set aggregates such as PERCENTILE_CONT) is not supported; number the rows with ROW_NUMBER() or PERCENT_RANK() OVER (ORDER BY x) in a subquery and pick the row you want'
      : undefined,
  (t, i) =>
    word(t[i], 'DISTINCT') && word(t[i + 1], 'ON') && op(t[i + 2], '(')
      ? 'SELECT DISTINCT ON (...) is not supported; keep one row per group with QUALIFY ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) = 1'
      : undefined,
  (t, i) =>
    word(t[i], 'SELECT') && word(t[i + 1], 'TOP') && t[i + 2]?.kind === 'number'
      ? 'SELECT TOP n is not supported; write LIMIT n at the end of the statement'
      : undefined,
  (t, i) =>
    word(t[i], 'FETCH') && word(t[i + 1], 'FIRST', 'NEXT')
      ? 'FETCH FIRST n ROWS ONLY is not supported; write LIMIT n'
      : undefined,
  (t, i) =>
    word(t[i], 'LIMIT') && word(t[i + 1], 'ALL') ? 'LIMIT ALL is not supported; leave LIMIT out' : undefined,
  (t, i) =>
    word(t[i], 'GROUP') && word(t[i + 1], 'BY') && word(t[i + 2], 'ALL')
      ? 'GROUP BY ALL is not supported; list the columns that are not aggregates after GROUP BY'
      : undefined,
  (t, i) => (op(t[i], '::') ? 'The x::type cast is not supported; write CAST(x AS type)' : undefined),
  (t, i) =>
    op(t[i], '~', '!~') ||
    (word(t[i], 'REGEXP', 'RLIKE') && t[i + 1]?.kind === 'string') ||
    (word(t[i], 'SIMILAR') && word(t[i + 1], 'TO'))
      ? `Regular expressions (${t[i]!.kind === 'op' ? t[i]!.text : t[i]!.upper === 'SIMILAR' ? 'SIMILAR TO' : t[i]!.upper}) are not supported; match with LIKE ('%' any text, '_' one character), BEGINS_WITH or CONTAINS`
      : undefined,
  (t, i) =>
    word(t[i], 'INTERVAL') && t[i + 1]?.kind === 'string'
      ? "INTERVAL literals are not supported; move a date with DATE_ADD('day', -7, x) and measure with DATE_DIFF('day', a, b)"
      : undefined,
  (t, i) =>
    op(t[i], '(') && word(t[i + 1], 'VALUES')
      ? 'A VALUES list is not supported; write the rows as SELECT 1 AS a, 2 AS b UNION ALL SELECT 3, 4'
      : undefined,
  (t, i) =>
    word(t[i], 'PIVOT') && op(t[i + 1], '(')
      ? "PIVOT is not supported; write one SUM(CASE WHEN column = 'value' THEN x END) AS value per value, with GROUP BY"
      : undefined,
  (t, i) =>
    word(t[i], 'UNPIVOT') && op(t[i + 1], '(')
      ? "UNPIVOT is not supported; write one SELECT per column ('name' AS attribute, column AS value) joined with UNION ALL"
      : undefined,
  (t, i) =>
    word(t[i], 'IGNORE', 'RESPECT') && word(t[i + 1], 'NULLS')
      ? `${t[i]!.upper} NULLS is not supported; drop the rows whose value is NULL in a subquery (WHERE x IS NOT NULL) before the window function`
      : undefined,
  (t, i) =>
    word(t[i], 'EXCLUDE') && word(t[i + 1], 'CURRENT', 'TIES', 'GROUP', 'NO')
      ? 'A frame with EXCLUDE is not supported; subtract the current row instead, as in SUM(x) OVER (...) - x'
      : undefined,
  (t, i) =>
    op(t[i], ...COMPARISONS) && word(t[i + 1], 'ANY', 'SOME', 'ALL') && op(t[i + 2], '(')
      ? `A comparison with ${t[i + 1]!.upper} (subquery) is not supported; for ANY write EXISTS (SELECT 1 FROM ... WHERE x ${t[i]!.text} column), for ALL compare with the MIN or MAX of the subquery`
      : undefined,
  (t, i) =>
    isRowValue(t, i)
      ? 'Row values such as (a, b) IN (...) or (a, b) = (x, y) are not supported; compare each column (a = x AND b = y), or write EXISTS (SELECT 1 FROM t WHERE t.a = a AND t.b = b)'
      : undefined,
  (t, i) =>
    word(t[i - 1], 'FROM', 'JOIN') && t[i]?.kind === 'ident' && op(t[i + 1], '(')
      ? `A table function (${t[i].upper}(...) in FROM) is not supported; FROM reads tables, entity views and subqueries, and a list's elements are read with x[0] or CONTAINS(x, v)`
      : undefined,
  (t, i) =>
    word(t[i], 'TABLESAMPLE') && (op(t[i + 1], '(') || t[i + 1]?.kind === 'ident')
      ? 'TABLESAMPLE is not supported; read part of a table with LIMIT or a condition on its key'
      : undefined,
  (t, i) =>
    word(t[i], 'POSITION', 'OVERLAY') &&
    op(t[i + 1], '(') &&
    t.slice(i + 2, closing(t, i + 1)).some((x) => word(x, 'IN', 'PLACING'))
      ? `${t[i]!.upper}(... ${t[i]!.upper === 'POSITION' ? 'IN' : 'PLACING'} ...) is not supported; test for a substring with CONTAINS(s, x) or LIKE, and cut strings with SUBSTRING, LEFT and RIGHT`
      : undefined,
  (t, i) =>
    i === 0 && word(t[i], 'EXPLAIN')
      ? 'EXPLAIN is not supported as a statement; the workbench shows the plan of each statement you run (Plan), and the CLI prints it with --plan'
      : undefined,
  (t, i) =>
    word(t[i], 'INTO') && t.slice(0, i).some((x) => word(x, 'SELECT'))
      ? 'SELECT ... INTO is not supported: the SQL workbench only reads; export the result instead'
      : undefined,
  (t, i) =>
    word(t[i], 'FOR') && word(t[i + 1], 'UPDATE', 'SHARE')
      ? `FOR ${t[i + 1]!.upper} is not supported (the workbench only reads and takes no locks); leave it out`
      : undefined,
];

/** The first construct of `tokens` the engine refuses, with a rewrite, or undefined. */
export function findUnsupported(tokens: Token[]): Refusal | undefined {
  for (let i = 0; i < tokens.length; i++) {
    for (const rule of RULES) {
      const message = rule(tokens, i);
      if (message) return { message, span: tokens[i]! };
    }
  }
  return undefined;
}

const REFUSED_JOINS: Record<string, string> = {
  SEMI: 'SEMI JOIN is not supported; write WHERE EXISTS (SELECT 1 FROM b WHERE b.x = a.x)',
  ANTI: 'ANTI JOIN is not supported; write WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.x = a.x)',
  ASOF: 'ASOF JOIN is not supported; read the latest earlier row with a correlated subquery: (SELECT MAX(b.t) FROM b WHERE b.k = a.k AND b.t <= a.t)',
  POSITIONAL:
    'POSITIONAL JOIN is not supported (items have no order); number both sides with ROW_NUMBER() OVER (ORDER BY ...) and join on that number',
  LATERAL: 'LATERAL is not supported; write a correlated subquery in SELECT or WHERE',
};

/** `a SEMI JOIN b` would otherwise read SEMI as a's alias; the message for such a join kind. */
export function refusedJoinKind(kind: Token, next: Token): string | undefined {
  return kind.kind === 'ident' && next.kind === 'ident' && next.upper === 'JOIN'
    ? REFUSED_JOINS[kind.upper]
    : undefined;
}

const REFUSED_FUNCTIONS: Record<string, string> = {
  STRING_AGG:
    'join the strings in your own code from the rows of a GROUP BY, or count them with COUNT(DISTINCT x)',
  LISTAGG: 'join the strings from the rows of a GROUP BY, or count them with COUNT(DISTINCT x)',
  GROUP_CONCAT: 'join the strings from the rows of a GROUP BY, or count them with COUNT(DISTINCT x)',
  ARRAY_AGG: 'select the rows with GROUP BY or ORDER BY instead of gathering them in a list',
  MEDIAN:
    'number the rows with ROW_NUMBER() OVER (PARTITION BY g ORDER BY x) and COUNT(*) OVER (PARTITION BY g) in a subquery and keep the middle one',
  PERCENTILE_CONT:
    'number the rows with PERCENT_RANK() OVER (ORDER BY x) in a subquery and keep the row you want',
  PERCENTILE_DISC:
    'number the rows with CUME_DIST() OVER (ORDER BY x) in a subquery and keep the first row at or past the fraction',
  MODE: 'count per value with GROUP BY x ORDER BY COUNT(*) DESC LIMIT 1',
  STDDEV: 'compute it from SUM(x * x), SUM(x) and COUNT(x)',
  STDDEV_POP: 'compute it from SUM(x * x), SUM(x) and COUNT(x)',
  STDDEV_SAMP: 'compute it from SUM(x * x), SUM(x) and COUNT(x)',
  VARIANCE: 'compute it as (SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / (COUNT(x) - 1)',
  VAR_POP: 'compute it as SUM(x * x) / COUNT(x) - AVG(x) * AVG(x)',
  VAR_SAMP: 'compute it as (SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / (COUNT(x) - 1)',
  BOOL_AND: 'write MIN(CASE WHEN x THEN 1 ELSE 0 END) = 1',
  BOOL_OR: 'write MAX(CASE WHEN x THEN 1 ELSE 0 END) = 1',
  EVERY: 'write MIN(CASE WHEN x THEN 1 ELSE 0 END) = 1',
  ANY_VALUE: 'write MIN(x) or MAX(x)',
  REGEXP_LIKE: "match with LIKE ('%' any text, '_' one character), BEGINS_WITH or CONTAINS",
  REGEXP_REPLACE: 'replace fixed text with REPLACE(s, from, to)',
  REGEXP_EXTRACT: 'cut the string with SPLIT_PART, SUBSTRING, LEFT or RIGHT',
  STRPOS: 'test for a substring with CONTAINS(s, x) or LIKE',
  INSTR: 'test for a substring with CONTAINS(s, x) or LIKE',
  CHARINDEX: 'test for a substring with CONTAINS(s, x) or LIKE',
  TO_CHAR: 'format dates with TO_ISO(x), DATE_TRUNC and EXTRACT',
  TO_DATE: 'read dates with CAST(x AS DATE) or CAST(x AS TIMESTAMP)',
  TO_TIMESTAMP: 'read dates with CAST(x AS TIMESTAMP) (ISO strings and epoch milliseconds)',
  DATEADD: "write DATE_ADD('day', n, x)",
  DATEDIFF: "write DATE_DIFF('day', from, to)",
};

/** "X() is not supported" with a rewrite for a function analysts know from other engines. */
export function refusedFunction(name: string): string {
  const rewrite = REFUSED_FUNCTIONS[name.toUpperCase()];
  return rewrite
    ? `${name}() is not supported; ${rewrite}`
    : `${name}() is not supported: it is no function DynoTable knows; docs/SQL.md lists the functions`;
}

/** CURRENT_DATE and friends are keywords elsewhere; unquoted they would read a missing attribute. */
const DATE_KEYWORDS: Record<string, string> = {
  CURRENT_TIMESTAMP: 'NOW()',
  LOCALTIMESTAMP: 'NOW()',
  CURRENT_DATE: "DATE_TRUNC('day', NOW())",
  CURRENT_TIME: 'NOW()',
};

export function refusedDateKeyword(token: Token): string | undefined {
  const rewrite = token.kind === 'ident' ? DATE_KEYWORDS[token.upper] : undefined;
  return rewrite
    ? `${token.upper} is not supported; write ${rewrite} (one instant for the whole statement), or quote the name ("${token.text}") to read an attribute called that`
    : undefined;
}
