import { useState } from 'react';
import {
  attributeTypes,
  typeLabel,
  typeOf,
  type AttributeType,
  type AttributeValue,
} from '../../../../shared/dynamo/attribute-value';
import { base64ByteLength, formatBytes } from '../../../../shared/dynamo/item-size';
import type { PathSegment, ValidationIssue } from '../../../../shared/dynamo/validate-item';
import { Button } from '../../../ui/button';
import { countOf } from '../../../ui/format';
import { convertValue } from '../value-defaults';

export interface ValueEditorProps {
  label: string;
  value: AttributeValue;
  path: PathSegment[];
  issues: ValidationIssue[];
  /** Key attributes keep their type. */
  fixedType?: AttributeType;
  depth: number;
  onChange(value: AttributeValue): void;
}

function samePath(a: PathSegment[], b: PathSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Edits one value of any type; lists and maps nest (and collapse) down to DynamoDB's depth limit. */
export function ValueEditor({ label, value, path, issues, fixedType, depth, onChange }: ValueEditorProps) {
  const type = typeOf(value);
  const here = issues.filter((issue) => samePath(issue.path, path));
  const [isOpen, setOpen] = useState(depth < 2);
  return (
    <div className={`ve ve-depth-${Math.min(depth, 6)}${here.length > 0 ? ' has-error' : ''}`}>
      <div className="ve-line">
        <select
          className="input ve-type"
          aria-label={`Type of ${label}`}
          value={type}
          disabled={fixedType !== undefined}
          onChange={(e) => onChange(convertValue(value, e.target.value as AttributeType))}
        >
          {/* Nested rows are narrow: the code alone, its words in the tooltip and for screen readers. */}
          {attributeTypes.map((t) => (
            <option key={t} value={t} title={typeLabel(t)} aria-label={typeLabel(t)}>
              {depth > 0 ? t : typeLabel(t)}
            </option>
          ))}
        </select>
        <ScalarInput label={label} value={value} onChange={onChange} />
        {'L' in value || 'M' in value ? (
          <Button size="sm" variant="ghost" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
            {isOpen ? '▾' : '▸'}{' '}
            {'L' in value
              ? countOf(value.L.length, 'element')
              : countOf(Object.keys(value.M).length, 'attribute')}
          </Button>
        ) : null}
      </div>
      {here.map((issue) => (
        <p key={issue.message} className="field-error" role="alert">
          {issue.message}
        </p>
      ))}
      {isOpen && 'L' in value ? (
        <div className="ve-children">
          {value.L.map((element, i) => (
            <div className="ve-child" key={i}>
              <span className="ve-index">[{i}]</span>
              <ValueEditor
                label={`${label}[${i}]`}
                value={element}
                path={[...path, i]}
                issues={issues}
                depth={depth + 1}
                onChange={(next) => onChange({ L: value.L.map((e, j) => (j === i ? next : e)) })}
              />
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${label}[${i}]`}
                onClick={() => onChange({ L: value.L.filter((_, j) => j !== i) })}
              >
                ×
              </Button>
            </div>
          ))}
          <Button size="sm" variant="ghost" onClick={() => onChange({ L: [...value.L, { S: '' }] })}>
            + Element
          </Button>
        </div>
      ) : null}
      {isOpen && 'M' in value ? (
        <MapChildren
          label={label}
          map={value.M}
          path={path}
          issues={issues}
          depth={depth}
          onChange={(M) => onChange({ M })}
        />
      ) : null}
    </div>
  );
}

function MapChildren({
  label,
  map,
  path,
  issues,
  depth,
  onChange,
}: {
  label: string;
  map: Record<string, AttributeValue>;
  path: PathSegment[];
  issues: ValidationIssue[];
  depth: number;
  onChange(map: Record<string, AttributeValue>): void;
}) {
  const [newName, setNewName] = useState('');
  const entries = Object.entries(map);
  return (
    <div className="ve-children">
      {entries.map(([name, child]) => (
        <div className="ve-child" key={name}>
          <span className="ve-name">{name}</span>
          <ValueEditor
            label={`${label}.${name}`}
            value={child}
            path={[...path, name]}
            issues={issues}
            depth={depth + 1}
            onChange={(next) =>
              onChange(Object.fromEntries(entries.map(([n, v]) => [n, n === name ? next : v])))
            }
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove ${label}.${name}`}
            onClick={() => onChange(Object.fromEntries(entries.filter(([n]) => n !== name)))}
          >
            ×
          </Button>
        </div>
      ))}
      <div className="ve-child">
        <input
          className="input ve-new"
          aria-label={`New name in ${label}`}
          placeholder="name"
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
        />
        <Button
          size="sm"
          variant="ghost"
          disabled={newName === '' || Object.hasOwn(map, newName)}
          onClick={() => {
            onChange(Object.fromEntries([...entries, [newName, { S: '' }]]));
            setNewName('');
          }}
        >
          + Attribute
        </Button>
      </div>
    </div>
  );
}

function ScalarInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: AttributeValue;
  onChange(value: AttributeValue): void;
}) {
  if ('S' in value) {
    const isMultiline = value.S.includes('\n');
    return (
      <textarea
        className="input ve-text"
        rows={isMultiline ? 3 : 1}
        wrap={isMultiline ? 'soft' : 'off'}
        aria-label={label}
        value={value.S}
        onChange={(e) => onChange({ S: e.target.value })}
      />
    );
  }
  if ('N' in value)
    return (
      <input
        className="input ve-number"
        aria-label={label}
        inputMode="decimal"
        value={value.N}
        onChange={(e) => onChange({ N: e.target.value })}
      />
    );
  if ('B' in value) {
    return (
      <span className="ve-binary">
        <input
          className="input ve-text code"
          aria-label={`${label} (base64)`}
          value={value.B}
          onChange={(e) => onChange({ B: e.target.value.trim() })}
        />
        <span className="muted">{formatBytes(base64ByteLength(value.B))}</span>
      </span>
    );
  }
  if ('BOOL' in value) {
    return (
      <select
        className="input"
        aria-label={label}
        value={String(value.BOOL)}
        onChange={(e) => onChange({ BOOL: e.target.value === 'true' })}
      >
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  }
  if ('NULL' in value) return <em className="muted">null</em>;
  if ('SS' in value || 'NS' in value || 'BS' in value) {
    const members = 'SS' in value ? value.SS : 'NS' in value ? value.NS : value.BS;
    const tag = 'SS' in value ? 'SS' : 'NS' in value ? 'NS' : 'BS';
    return (
      <textarea
        className="input ve-set code"
        rows={Math.min(6, Math.max(2, members.length))}
        aria-label={`${label} (one member per line)`}
        value={members.join('\n')}
        onChange={(e) => {
          const lines = e.target.value.split('\n');
          onChange({ [tag]: tag === 'SS' ? lines : lines.map((l) => l.trim()) } as AttributeValue);
        }}
      />
    );
  }
  return null;
}
