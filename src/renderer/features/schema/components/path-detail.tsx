import { typeLabel } from '../../../../shared/dynamo/attribute-value';
import type { AttributeSchema, SchemaStringFormat } from '../../../../shared/ipc';
import type { PickScope } from '../../../../shared/schema/click-through';
import { Button } from '../../../ui/button';
import { Bars } from './bars';
import { distinctText, FORMAT_NAMES } from './describe';
import { PathActions, type PathActionHandlers } from './path-actions';
import { percent, typeEntries } from './type-bar';

const n = (v: number) => v.toLocaleString('en-US');

/** Everything known about one path, with bars where the shape matters more than the numbers. */
export function PathDetail({
  attribute: a,
  scope,
  handlers,
  onClose,
}: {
  attribute: AttributeSchema;
  scope: PickScope;
  handlers: PathActionHandlers;
  onClose(): void;
}) {
  const types = typeEntries(a);
  const formats = (Object.entries(a.formats) as [SchemaStringFormat, number][]).sort((x, y) => y[1] - x[1]);
  return (
    <aside className="panel schema-detail" aria-labelledby="schema-detail-title">
      <header className="schema-detail-header">
        <h3 id="schema-detail-title" className="panel-title">
          <code>{a.path}</code>
        </h3>
        <Button size="sm" variant="ghost" aria-label="Close the path's details" onClick={onClose}>
          Close
        </Button>
      </header>
      <div className="schema-detail-body">
        <p>
          In <strong>{n(a.items)}</strong> items ({percent(a.share, 1)}) · {n(a.values)} values ·{' '}
          {distinctText(a)}
        </p>
        <PathActions key={`${scope.entity}\u0000${a.path}`} scope={scope} attribute={a} handlers={handlers} />
        <Bars title="Types" buckets={types.map(([type, count]) => ({ label: typeLabel(type), count }))} />
        {formats.length > 0 ? (
          <Bars
            title={`String formats (of ${n(a.strings)} strings)`}
            total={a.strings}
            buckets={formats.map(([f, count]) => ({ label: FORMAT_NAMES[f], count }))}
          />
        ) : null}
        {a.length ? (
          <p className="schema-fact">
            Length {a.length.min === a.length.max ? a.length.min : `${n(a.length.min)} – ${n(a.length.max)}`}{' '}
            characters
          </p>
        ) : null}
        {a.lengthHistogram && a.lengthHistogram.length > 1 ? (
          <Bars title="String lengths" buckets={a.lengthHistogram} />
        ) : null}
        {a.number ? (
          <p className="schema-fact">
            Numbers {a.number.min} … {a.number.max} · {n(a.number.integers)} integers,{' '}
            {n(a.number.count - a.number.integers)} decimals
            {a.number.epochSeconds + a.number.epochMillis > 0
              ? ` · look like epoch: ${n(a.number.epochSeconds)} seconds, ${n(a.number.epochMillis)} milliseconds`
              : ''}
          </p>
        ) : null}
        {a.numberHistogram && a.numberHistogram.length > 1 ? (
          <Bars title="Number magnitudes" buckets={a.numberHistogram} />
        ) : null}
        {a.yearHistogram ? <Bars title="Years (date-like values)" buckets={a.yearHistogram} /> : null}
        {a.setSize ? (
          <p className="schema-fact">
            Sets of {a.setSize.min} – {a.setSize.max} members
          </p>
        ) : null}
        {a.listLength ? (
          <p className="schema-fact">
            Lists of {a.listLength.min} – {a.listLength.max} elements
          </p>
        ) : null}
        {a.topValues ? (
          <Bars
            title="Most common values"
            total={a.values}
            buckets={a.topValues.map((v) => ({
              label: v.type === 'S' ? `"${v.value}"` : v.value,
              count: v.count,
            }))}
          />
        ) : null}
      </div>
    </aside>
  );
}
