import type { AttributeSchema } from '../../../../shared/ipc';
import { valueSummary } from './describe';
import { percent, TypeBar } from './type-bar';

interface PathTableProps {
  attributes: AttributeSchema[];
  selected?: string;
  onSelect(path: string): void;
  label: string;
}

/** Nesting shown by indent: a path's depth is its count of `.` and `[]` steps outside quotes. */
function depthOf(path: string): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '.' || (c === '[' && path[i + 1] === ']'))) depth++;
  }
  return Math.min(depth, 6);
}

/** Every path in document order (parents before children), with presence, types and a summary. */
export function PathTable({ attributes, selected, onSelect, label }: PathTableProps) {
  const rows = [...attributes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tops = attributes.filter((a) => depthOf(a.path) === 0).map((a) => a.path);
  const order = (path: string) => {
    const top = tops.findIndex((t) => path === t || path.startsWith(`${t}.`) || path.startsWith(`${t}[]`));
    return top < 0 ? tops.length : top;
  };
  rows.sort((a, b) => order(a.path) - order(b.path));
  return (
    <table className="data-table is-compact schema-paths" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col">In items</th>
          <th scope="col">Types</th>
          <th scope="col">Values</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.path} className={a.path === selected ? 'is-selected' : undefined}>
            <th scope="row" className="schema-path-cell">
              <button
                type="button"
                className="schema-path-button"
                style={{ paddingLeft: `${depthOf(a.path) * 14 + 4}px` }}
                aria-pressed={a.path === selected}
                onClick={() => onSelect(a.path)}
              >
                <code>{a.path}</code>
              </button>
            </th>
            <td className="schema-presence">
              <span className="schema-share-track" aria-hidden="true">
                <span className="schema-share-fill" style={{ width: `${Math.max(1, a.share * 100)}%` }} />
              </span>
              <span className="schema-num">
                {a.items.toLocaleString('en-US')} · {percent(a.share, 1)}
              </span>
            </td>
            <td>
              <TypeBar attribute={a} />
            </td>
            <td className="schema-summary">{valueSummary(a)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
