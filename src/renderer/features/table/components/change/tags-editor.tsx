import { useEffect, useState } from 'react';
import type { TableChange } from '../../../../../shared/dynamo/table-change';
import type { Tag } from '../../../../../shared/dynamo/table-definition';
import { tagEdits } from '../../../../../shared/dynamo/tag-edits';
import type { AppError, TableSummary } from '../../../../../shared/ipc';
import { call } from '../../../../ipc/client';
import { Button } from '../../../../ui/button';
import { ErrorMessage } from '../../../../ui/error-message';
import { FieldError } from '../../../../ui/field';
import type { FieldProblem } from '../../../../../shared/dynamo/table-validation';
import { TextInput } from '../../../../ui/text-input';

/**
 * The table's tags as they are, editable in place: the change sent sets what is new or changed
 * and removes what was taken out (tagEdits), so the form starts from the truth, not a blank list.
 */
export function TagsEditor({
  connectionId,
  summary,
  problems,
  onChange,
}: {
  connectionId: string;
  summary: TableSummary;
  problems: FieldProblem[];
  onChange(change: TableChange): void;
}) {
  const [current, setCurrent] = useState<Tag[]>();
  const [edited, setEdited] = useState<Tag[]>([]);
  const [error, setError] = useState<AppError>();

  useEffect(() => {
    let isCurrent = true;
    void call('tables:tags', { connectionId, table: summary.name }).then((answer) => {
      if (!isCurrent) return;
      if (!answer.ok) {
        setError(answer.error);
        return;
      }
      setCurrent(answer.value.tags);
      setEdited(answer.value.tags);
      onChange({ kind: 'tags', set: [], remove: [] });
    });
    return () => {
      isCurrent = false;
    };
  }, [connectionId, summary.name, summary.status, onChange]);

  const edit = (next: Tag[]): void => {
    setEdited(next);
    onChange({ kind: 'tags', ...tagEdits(current ?? [], next) });
  };
  if (error) return <ErrorMessage error={error} connectionId={connectionId} compact />;
  if (!current) return <p className="small muted">Reading the table&apos;s tags…</p>;
  return (
    <div className="tag-list" role="group" aria-label="Tags">
      <p className="small muted">
        {current.length === 0
          ? `${summary.name} has no tags yet.`
          : `${summary.name} has ${current.length} tag${current.length === 1 ? '' : 's'}; edit, remove or add below.`}
      </p>
      {edited.map((tag, i) => (
        <div key={i} className="tag-row">
          <TextInput
            label={`Tag ${i + 1} key`}
            placeholder="key"
            value={tag.key}
            onChange={(key) => edit(edited.map((t, j) => (j === i ? { ...t, key } : t)))}
          />
          <TextInput
            label={`Tag ${i + 1} value`}
            placeholder="value"
            value={tag.value}
            onChange={(value) => edit(edited.map((t, j) => (j === i ? { ...t, value } : t)))}
          />
          <Button size="sm" variant="ghost" onClick={() => edit(edited.filter((_, j) => j !== i))}>
            Remove tag {i + 1}
          </Button>
        </div>
      ))}
      <FieldError message={problems.find((p) => p.field.startsWith('tags.'))?.message} />
      <div className="tag-row">
        <Button size="sm" onClick={() => edit([...edited, { key: '', value: '' }])}>
          Add tag
        </Button>
      </div>
    </div>
  );
}
