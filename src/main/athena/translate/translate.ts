import type { SqlCatalog } from '../../../shared/sql/catalog';
import { bindStatement } from '../../sql/binder/bind-query';
import { resolveTable } from '../../sql/catalog/resolve-table';
import { parseStatement } from '../../sql/parser/parser';
import { isGrouped } from '../../sql/session';
import { AthenaMappingError } from '../glue-names';
import { type GlueTarget, translateQuery } from './query';

export type { GlueTarget } from './query';

export interface AthenaTranslation {
  /** Athena (Trino) SQL over the Glue tables of the exports. */
  sql: string;
  /** What differs from running the statement locally, for the user to read before it runs. */
  notes: string[];
  columns: string[];
  /** The binder's answer, as the local engine gives it: the results suggest a chart. */
  grouped: boolean;
  /**
   * Per column: a number Athena returns as canonical text (a number no DECIMAL holds,
   * number-text.ts), which the results read back as the number.
   */
  numberText: boolean[];
}

export type TranslationResult =
  { ok: true; translation: AthenaTranslation } | { ok: false; construct: string; message: string };

const NUMBER_NOTE =
  "Text read as a number and numbers whose digits the export did not tell are Athena's DECIMAL(38, 9) here: digits past the 9th decimal place are rounded and a value of 10^29 or more fails the query (locally: 38 significant digits).";

/**
 * DynoTable SQL → Athena SQL over a DynamoDB JSON export. The statement is first bound exactly
 * as the local engine binds it, so a statement the workbench refuses is refused with the same
 * sentence; then anything Athena cannot do the same way is refused with the construct named,
 * before a query is started or a byte is scanned.
 */
export function translateToAthena(
  text: string,
  catalog: Pick<SqlCatalog, 'tables' | 'views'>,
  target: GlueTarget,
): TranslationResult {
  const statement = parseStatement(text);
  const bound = bindStatement(statement, {
    text,
    resolveTable: (name, schema, span) => resolveTable(catalog, name, schema, span, text),
  });
  const notes: string[] = [];
  try {
    const t = translateQuery(
      statement.query,
      {
        text,
        notes,
        target,
        resolveTable: (name, schema) => {
          const source = resolveTable(catalog, name, schema, { start: 0, end: 0 }, text);
          if (source.kind !== 'base') throw new Error('a FROM name resolved to a derived table');
          return { table: source.table, view: source.view };
        },
      },
      undefined,
      new Map(),
      false,
    );
    if (/DECIMAL\(38, 9\)/.test(t.sql)) notes.push(NUMBER_NOTE);
    return {
      ok: true,
      translation: {
        sql: t.sql,
        notes: [...new Set(notes)],
        columns: t.names,
        grouped: isGrouped(bound),
        numberText: t.columns.map((c) => c.kind === 'val' && c.text !== undefined),
      },
    };
  } catch (error) {
    if (error instanceof AthenaMappingError)
      return { ok: false, construct: error.construct, message: error.message };
    throw error;
  }
}
