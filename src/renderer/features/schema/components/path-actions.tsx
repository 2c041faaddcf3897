import { useState } from 'react';
import type { AttributeSchema, SchemaStringFormat } from '../../../../shared/ipc';
import {
  describePick,
  expectedCount,
  itemFilter,
  type PickScope,
  type SchemaPick,
  sqlStatement,
} from '../../../../shared/schema/click-through';
import { Button } from '../../../ui/button';
import { FORMAT_NAMES } from './describe';
import { typeEntries } from './type-bar';

export interface PathActionHandlers {
  /** Shows the items the filter picks in the Items tab; a sentence when it could not. */
  onItems(filter: Exclude<ReturnType<typeof itemFilter>, string>): string | undefined;
  onSql(text: string): void;
}

interface Choice {
  id: string;
  label: string;
  pick: SchemaPick;
}

function choicesOf(path: string, a: AttributeSchema): Choice[] {
  const choices: Choice[] = [
    { id: 'present', label: `Has ${path}`, pick: { kind: 'present' } },
    { id: 'missing', label: `Lacks ${path}`, pick: { kind: 'missing' } },
  ];
  for (const [type] of typeEntries(a))
    choices.push({ id: `type:${type}`, label: `${path} is ${type}`, pick: { kind: 'type', type } });
  for (const format of Object.keys(a.formats) as SchemaStringFormat[])
    choices.push({
      id: `format:${format}`,
      label: `${path} looks like ${FORMAT_NAMES[format]}`,
      pick: { kind: 'format', format },
    });
  for (const v of a.topValues ?? [])
    choices.push({
      id: `value:${v.type}:${v.value}`,
      label: describePick(path, { kind: 'value', type: v.type, value: v.value }),
      pick: { kind: 'value', type: v.type, value: v.value },
    });
  return choices;
}

/** From a path to its items: which ones, then the grid filtered on them or a SQL statement. */
export function PathActions({
  scope,
  attribute,
  handlers,
}: {
  scope: PickScope;
  attribute: AttributeSchema;
  handlers: PathActionHandlers;
}) {
  const choices = choicesOf(attribute.path, attribute);
  const [chosenId, setChosenId] = useState('present');
  const [problem, setProblem] = useState<string>();
  const chosen = choices.find((c) => c.id === chosenId) ?? choices[0];
  if (!chosen) return null;
  const filter = itemFilter(scope, chosen.pick);
  const sql = sqlStatement(scope, chosen.pick);
  const count = expectedCount(scope, attribute, chosen.pick);
  const why = [typeof filter === 'string' ? filter : '', 'problem' in sql ? sql.problem : '']
    .filter(Boolean)
    .filter((s, i, all) => all.indexOf(s) === i);
  return (
    <div className="schema-actions" role="group" aria-label="Look at the items">
      <label className="mig-control">
        <span className="field-label">Which items</span>
        <select
          className="input"
          value={chosen.id}
          onChange={(e) => {
            setChosenId(e.target.value);
            setProblem(undefined);
          }}
        >
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {count !== undefined ? (
        <p className="muted schema-fact">{count.toLocaleString('en-US')} of the items read</p>
      ) : null}
      <div className="schema-actions-buttons">
        <Button
          size="sm"
          disabled={typeof filter === 'string'}
          onClick={() => {
            if (typeof filter !== 'string') setProblem(handlers.onItems(filter));
          }}
        >
          Show in Items
        </Button>
        <Button
          size="sm"
          disabled={'problem' in sql}
          onClick={() => {
            if ('text' in sql) handlers.onSql(sql.text);
          }}
        >
          Open in SQL
        </Button>
      </div>
      {why.map((s) => (
        <p key={s} className="muted schema-fact">
          {s}
        </p>
      ))}
      {problem ? (
        <p role="alert" className="schema-fact">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
