import type { FixPlanSummary, FindingKind, MigrationReport } from '../../../../shared/ipc';
import { Check } from '../../../ui/check';
import { keyLabel } from '../keys';
import type { FixRewrites } from '../store';

/** The kinds the fix can rewrite in place: `fix-migration --bool-path`, `--document-path`, … */
export const REWRITABLE: ReadonlySet<FindingKind> = new Set([
  'booleanAsString',
  'documentAsString',
  'setListMix',
  'ttlMilliseconds',
]);

type Rewrite = 'bool' | 'document' | 'ttl' | 'setToList' | 'listToSet';
/** The rewrite the user picked per path (`kind\u0000path`); absent: left as it is. */
export type RewritePick = ReadonlyMap<string, Rewrite>;

const idOf = (kind: FindingKind, path: string) => `${kind}\u0000${path}`;

/** The fix's input for what was picked. */
export function rewritesOf(picks: RewritePick): FixRewrites {
  const paths = (rewrite: Rewrite) =>
    [...picks].filter(([, r]) => r === rewrite).map(([id]) => id.slice(id.indexOf('\u0000') + 1));
  const out: FixRewrites = {};
  if (paths('bool').length > 0) out.booleanPaths = paths('bool');
  if (paths('document').length > 0) out.documentPaths = paths('document');
  if (paths('ttl').length > 0) out.ttlToSeconds = true;
  if (paths('setToList').length > 0) out.setToListPaths = paths('setToList');
  if (paths('listToSet').length > 0) out.listToSetPaths = paths('listToSet');
  return out;
}

interface Row {
  kind: FindingKind;
  path: string;
  items: number;
  entities: string[];
}

/** One row per kind and path (the fix rewrites a path in every entity). */
function rowsOf(report: MigrationReport): Row[] {
  const rows = new Map<string, Row>();
  for (const f of report.findings ?? []) {
    if (!REWRITABLE.has(f.kind)) continue;
    const id = idOf(f.kind, f.path);
    const row = rows.get(id) ?? { kind: f.kind, path: f.path, items: 0, entities: [] };
    row.items += f.items;
    if (f.entity !== null) row.entities.push(f.entity);
    rows.set(id, row);
  }
  return [...rows.values()];
}

const WORDS: Record<string, string> = {
  booleanAsString: '"true"/"false" strings → BOOL',
  documentAsString: 'JSON text → the map or list it spells',
  ttlMilliseconds: 'TTL in epoch ms → epoch seconds',
};
const REWRITE_OF: Record<string, Rewrite> = {
  booleanAsString: 'bool',
  documentAsString: 'document',
  ttlMilliseconds: 'ttl',
};

interface RewriteChoicesProps {
  report: MigrationReport;
  picks: RewritePick;
  onChange(picks: RewritePick): void;
  disabled: boolean;
}

/**
 * What older dynamoose releases left that the fix can rewrite, on the paths the user picks — the
 * same rewrites as `fix-migration --bool-path` and friends, in the same dry run and run.
 */
export function RewriteChoices({ report, picks, onChange, disabled }: RewriteChoicesProps) {
  const rows = rowsOf(report);
  if (rows.length === 0) return null;
  const pick = (id: string, rewrite: Rewrite | undefined) => {
    const next = new Map(picks);
    if (rewrite) next.set(id, rewrite);
    else next.delete(id);
    onChange(next);
  };
  return (
    <fieldset className="mig-rewrites" disabled={disabled}>
      <legend className="field-label">Rewrite what older dynamoose releases left</legend>
      {rows.map((row) => {
        const id = idOf(row.kind, row.path);
        const where = `${row.path} (${row.items.toLocaleString('en-US')} ${row.items === 1 ? 'item' : 'items'}${row.entities.length > 0 ? ` of ${row.entities.join(', ')}` : ''})`;
        if (row.kind !== 'setListMix')
          return (
            <div key={id} className="mig-rewrite-row">
              <Check
                checked={picks.has(id)}
                onChange={(on) => pick(id, on ? REWRITE_OF[row.kind] : undefined)}
              >
                {/* One span: the check lays out its children as flex items. */}
                <span>
                  <code>{row.path}</code>: {WORDS[row.kind]}{' '}
                  <span className="muted">
                    {row.kind} · {where.slice(row.path.length + 1)}
                  </span>
                </span>
              </Check>
            </div>
          );
        return (
          <div
            key={id}
            className="mig-rewrite-row"
            role="radiogroup"
            aria-label={`${row.path}: sets and lists`}
          >
            <span>
              <code>{row.path}</code>: sets next to lists{' '}
              <span className="muted">setListMix · {where.slice(row.path.length + 1)}</span>
            </span>
            {(
              [
                [undefined, 'Leave'],
                ['setToList', 'Sets → lists'],
                ['listToSet', 'Lists → sets'],
              ] as const
            ).map(([rewrite, label]) => (
              <Check
                key={label}
                type="radio"
                checked={picks.get(id) === rewrite}
                onChange={() => pick(id, rewrite)}
              >
                {label}
              </Check>
            ))}
          </div>
        );
      })}
    </fieldset>
  );
}

const compact = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

/** The dry run's rewrites: how many values per path, and a few as they are and as they will be. */
export function PlannedChanges({ plan }: { plan: FixPlanSummary }) {
  const byPath = plan.rewritesByPath ?? [];
  const samples = plan.sampleChanges ?? [];
  if (byPath.length === 0) return null;
  return (
    <div className="mig-dyn-scroll" tabIndex={0} role="group" aria-label="Planned rewrites, scrollable">
      <p>
        Values rewritten:{' '}
        {byPath.map((r, i) => (
          <span key={r.path}>
            {i > 0 ? ' · ' : ''}
            <code>{r.path}</code> {r.values.toLocaleString('en-US')}
          </span>
        ))}
      </p>
      {samples.length > 0 ? (
        <table className="data-table is-compact mig-changes" aria-label="Sample rewrites, before and after">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Path</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {samples.map((c) => (
              <tr key={`${JSON.stringify(c.key)}\u0000${c.path}`}>
                <td>{keyLabel(c.key)}</td>
                <td>
                  <code>{c.path}</code>
                </td>
                <td>
                  <code>{compact(c.before)}</code>
                </td>
                <td>
                  <code>{compact(c.after)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
