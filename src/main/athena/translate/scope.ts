import type { PathPart } from '../../sql/parser/ast';
import { ionUnreadable } from '../glue-table';
import type { AttrNode } from '../export-schema';
import { glueChildren, glueFieldName, q } from '../glue-names';
import { refuse } from './refuse';
import { renamed, type Typed } from './typed';

/** A FROM entry as the translation sees it: a Glue table's row or a derived table's columns. */
export type Source =
  | { kind: 'base'; alias: string; root: AttrNode; table: string; ion: boolean; complete: boolean }
  | { kind: 'derived'; alias: string; columns: Map<string, Typed> };

export { refuse, TranslateError } from './refuse';

export class Scope {
  readonly sources: Source[] = [];
  constructor(readonly parent?: Scope) {}

  find(alias: string): Source | undefined {
    return (
      this.sources.find((s) => s.alias === alias) ??
      this.sources.find((s) => s.alias.toLowerCase() === alias.toLowerCase()) ??
      this.parent?.find(alias)
    );
  }

  /** The alias names a source here or in an enclosing query (a correlated reference). */
  has(alias: string): boolean {
    return this.find(alias) !== undefined;
  }
}

function label(parts: PathPart[]): string {
  return parts
    .map((p) => (p.kind === 'index' ? `[${p.index}]` : p.name))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** `a`, `t.a`, `a.b[0].c`: the struct (or derived value) the name reads, by the dot rule of docs/SQL.md. */
export function resolveRef(scope: Scope, parts: PathPart[]): Typed {
  const [first, second] = parts;
  let source: Source | undefined;
  let rest = parts;
  if (first?.kind === 'name' && second && scope.find(first.name)) {
    source = scope.find(first.name);
    rest = parts.slice(1);
  } else {
    if (scope.sources.length !== 1)
      refuse(`the name ${label(parts)}`, 'name its table (t.name) when FROM has several');
    source = scope.sources[0];
  }
  if (!source) return refuse(`the name ${label(parts)}`, 'it names no table');
  const head = rest[0];
  if (head?.kind !== 'name') return refuse(`the name ${label(parts)}`, 'it does not start with a name');
  if (source.kind === 'derived') {
    const entry =
      [...source.columns].find(([n]) => n === head.name) ??
      [...source.columns].find(([n]) => n.toLowerCase() === head.name.toLowerCase());
    if (!entry) return refuse(`the column ${head.name}`, `${source.alias} has no such column`);
    const [name, column] = entry;
    const sql = `${q(source.alias)}.${q(name)}`;
    const here: Typed =
      column.kind === 'attr' ? { ...column, sql: column.node ? sql : 'NULL' } : renamed(column, sql);
    if (rest.length === 1) return here;
    if (here.kind !== 'attr') return refuse(`the path ${label(parts)}`, 'it goes into a computed value');
    return walk(here, rest.slice(1), label(parts));
  }
  const start: Typed = {
    kind: 'attr',
    sql: `${q(source.alias)}.${q('item')}`,
    node: source.root,
    label: label(rest),
    ion: source.ion,
    complete: source.complete,
  };
  return walk(start, rest, label(rest), true);
}

function walk(t: Typed, steps: PathPart[], text: string, topLevel = false): Typed {
  if (t.kind !== 'attr') return refuse(`the path ${text}`, 'it goes into a computed value');
  let sql = t.sql;
  let node = t.node;
  steps.forEach((step, i) => {
    const top = topLevel && i === 0;
    if (step.kind === 'name') {
      if (t.ion && step.name.includes('.'))
        refuse(`the attribute "${step.name}"`, "a dot in a name is something Athena's Ion SerDe cannot read");
      const child = node ? glueChildren(node, '').get(glueFieldName(step.name)) : undefined;
      sql =
        top || t.ion
          ? `${sql}.${q(glueFieldName(step.name))}`
          : `${sql}.${q('m')}.${q(glueFieldName(step.name))}`;
      node = child?.name === step.name ? child.node : undefined;
    } else {
      if (node?.types.has('SS') || node?.types.has('NS'))
        refuse(
          `the set element ${text}`,
          "Athena's arrays keep a set's members in the export's order, not DynamoDB's",
        );
      sql = `element_at(${t.ion ? sql : `${sql}.${q('l')}`}, ${step.index + 1})`;
      node = node?.element;
    }
  });
  const why = t.ion && node ? ionUnreadable(node, text) : undefined;
  if (why) refuse(`the path ${text}`, why);
  // A path the export's schema never saw has no field in the Glue table: it is missing everywhere.
  return {
    kind: 'attr',
    sql: node ? sql : 'NULL',
    node,
    label: text,
    ...(t.ion ? { ion: true } : {}),
    ...(t.complete ? { complete: true } : {}),
  };
}
