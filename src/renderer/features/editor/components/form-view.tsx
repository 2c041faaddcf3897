import { useState } from 'react';
import type { AttributeValue, Item } from '../../../../shared/dynamo/attribute-value';
import type { ValidationIssue } from '../../../../shared/dynamo/validate-item';
import type { IndexInfo, KeySchema } from '../../../../shared/ipc/tables';
import { indexKeyRoles, roleText } from '../../../../shared/dynamo/key-model';
import { Button } from '../../../ui/button';
import { TextInput } from '../../../ui/text-input';
import { ValueEditor } from './value-editor';
import { defineOwn, ownValue } from '../../../../shared/dynamo/proto-keys';

export interface FormViewProps {
  item: Item;
  keys: KeySchema;
  /** The table's indexes: every attribute of each index's key is marked as an index key. */
  indexes: readonly IndexInfo[];
  issues: ValidationIssue[];
  onChange(item: Item): void;
}

/** The item as a form: key attributes first (their types fixed by the table), then the rest. */
export function FormView({ item, keys, indexes, issues, onChange }: FormViewProps) {
  const [newName, setNewName] = useState('');
  const keyNames = [keys.partitionKey.name, ...(keys.sortKey ? [keys.sortKey.name] : [])];
  const keyTypes: Record<string, 'S' | 'N' | 'B'> = { [keys.partitionKey.name]: keys.partitionKey.type };
  if (keys.sortKey) defineOwn(keyTypes, keys.sortKey.name, keys.sortKey.type);
  const indexRoles = indexKeyRoles(indexes);
  const names = [...keyNames, ...Object.keys(item).filter((n) => !keyNames.includes(n))];
  const replace = (name: string, value: AttributeValue | undefined): void => {
    const next: [string, AttributeValue][] = [];
    let isFound = false;
    for (const [n, v] of Object.entries(item)) {
      if (n !== name) next.push([n, v]);
      else {
        isFound = true;
        if (value) next.push([n, value]);
      }
    }
    if (!isFound && value) next.push([name, value]);
    onChange(Object.fromEntries(next));
  };
  const itemIssues = issues.filter((i) => i.path.length === 0);
  return (
    <div className="form-view">
      {itemIssues.map((issue) => (
        <p key={issue.message} className="field-error" role="alert">
          {issue.message}
        </p>
      ))}
      {names.map((name) => {
        const isKey = keyNames.includes(name);
        const roles = indexRoles.get(name);
        const indexText = roles?.map(roleText).join('; ');
        const value = ownValue(item, name) ?? ({ [ownValue(keyTypes, name) ?? 'S']: '' } as AttributeValue);
        return (
          <div
            className={`form-attr${isKey ? ' is-key' : ''}${indexText ? ' is-index-key' : ''}${'L' in value || 'M' in value ? ' is-nested' : ''}`}
            key={name}
          >
            <div className="form-attr-name" title={name}>
              {name}
              {isKey ? <span className="cell-type">key</span> : null}
              {indexText ? (
                <span className="cell-type is-index-key" title={indexText}>
                  index key<span className="visually-hidden">: {indexText}</span>
                </span>
              ) : null}
            </div>
            <ValueEditor
              label={name}
              value={value}
              path={[name]}
              issues={issues}
              fixedType={ownValue(keyTypes, name)}
              depth={0}
              onChange={(next) => replace(name, next)}
            />
            {isKey ? (
              <span className="form-attr-spacer" />
            ) : (
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${name}`}
                onClick={() => replace(name, undefined)}
              >
                ×
              </Button>
            )}
          </div>
        );
      })}
      <div className="form-attr form-add">
        <TextInput
          label="New attribute name"
          placeholder="new attribute"
          value={newName}
          onChange={setNewName}
        />
        <Button
          size="sm"
          disabled={newName === '' || Object.hasOwn(item, newName)}
          onClick={() => {
            replace(newName, { S: '' });
            setNewName('');
          }}
        >
          + Attribute
        </Button>
      </div>
    </div>
  );
}
