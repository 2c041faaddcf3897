import { useId, useRef, useState } from 'react';
import type { EntitySchema, SchemaReport } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';
import { collectionKeyOf, designRelations } from './design-relations';
import { downloadBlob } from '../../../ui/download';
import { pngOf, standalone } from './diagram-export';
import { countOf } from '../../../ui/format';
import { BOX_W, linksOf, type Placed } from './diagram-links';
import { keyAttributeNames, keyText } from '../../../../shared/dynamo/key-model';

const GAP = 24;
/** Between columns when lines run there: room for a label like `GSI1 USER#…`. */
const LINK_GAP = 150;
const LEGEND_H = 34;
const LINE = 17;
const MAX_ATTRIBUTES = 8;

interface Collection {
  /** The partition key's shape shared by its entities (`PK=USER#…`), or '' for none. */
  key: string;
  entities: EntitySchema[];
}

/** Entities whose items share a partition key prefix live in the same item collections. */
function collectionsOf(report: SchemaReport): Collection[] {
  const byKey = new Map<string, EntitySchema[]>();
  for (const e of report.entities) {
    const key = collectionKeyOf(e);
    byKey.set(key, [...(byKey.get(key) ?? []), e]);
  }
  return [...byKey].map(([key, entities]) => ({ key, entities }));
}

/** Characters that fit on one line of a box. */
const LINE_CHARS = 36;

type BoxLine = { text: string; kind: 'key' | 'index' | 'attr' };

/**
 * A key pattern too long for one line (a multi-attribute index names up to eight attributes)
 * goes on as many lines as it needs, broken between attributes, each continuation indented.
 */
function wrapped(line: BoxLine): BoxLine[] {
  if (line.text.length <= LINE_CHARS) return [line];
  const out: string[] = [];
  let current = '';
  for (const word of line.text.split(' ')) {
    const next = current ? `${current} ${word}` : word;
    if (current && next.length > (out.length === 0 ? LINE_CHARS : LINE_CHARS - 2)) {
      out.push(current);
      current = word;
    } else current = next;
  }
  if (current) out.push(current);
  return out.map((text, i) => ({
    kind: line.kind,
    text: i === 0 ? text : `  ${text.length > LINE_CHARS - 2 ? `${text.slice(0, LINE_CHARS - 3)}…` : text}`,
  }));
}

function linesOf(e: EntitySchema, report: SchemaReport): BoxLine[] {
  const keyNames = new Set(keyAttributeNames(report.keys));
  const attrs = e.attributes.filter(
    (a) => !a.path.includes('.') && !a.path.includes('[') && !keyNames.has(a.path),
  );
  const shown = attrs.slice(0, MAX_ATTRIBUTES).map((a) => ({
    text: `${a.path}${a.share < 1 ? '?' : ''}: ${Object.keys(a.types).join(' | ')}`,
    kind: 'attr' as const,
  }));
  return [
    ...wrapped({ text: e.keyPattern, kind: 'key' }),
    ...(e.indexPatterns ?? []).flatMap((p) =>
      wrapped({ text: `${p.index}: ${p.pattern} (${p.count})`, kind: 'index' }),
    ),
    ...shown,
    ...(attrs.length > MAX_ATTRIBUTES
      ? [{ text: `… ${attrs.length - MAX_ATTRIBUTES} more`, kind: 'attr' as const }]
      : []),
  ];
}

const KINDS = [
  { kind: 'key', text: 'key is another’s key' },
  { kind: 'index', text: 'index key into a collection' },
  { kind: 'attribute', text: 'attribute named after an entity' },
] as const;

/**
 * The single-table design as the read found it: one column per item collection (entities that
 * share a partition key prefix), each entity with its key shape, the indexes its items appear in
 * with their key shape there, and its top-level attributes (`?` where some items lack one); lines
 * for how one entity reaches another (design-relations.ts), also listed in words below.
 */
export function DesignDiagram({ report }: { report: SchemaReport }) {
  const svg = useRef<SVGSVGElement>(null);
  const id = useId().replace(/:/g, '');
  const [problem, setProblem] = useState<string>();
  const collections = collectionsOf(report);
  const relations = designRelations(report);
  const columnGap = relations.length > 0 ? LINK_GAP : GAP;
  const boxes = new Map<string, Placed>();
  const frames = new Map<string, Placed>();
  const columns = collections.map((c, column) => {
    const x = GAP + column * (BOX_W + columnGap);
    let y = 44;
    const placed = c.entities.map((e) => {
      const lines = linesOf(e, report);
      const box = { e, lines, y, height: 30 + lines.length * LINE };
      boxes.set(e.name, { x, y, height: box.height, column });
      y += box.height + GAP / 2;
      return box;
    });
    frames.set(c.key, { x, y: 12, height: y - 12, column });
    return { c, x, boxes: placed, height: y };
  });
  // A relation within one column loops out to the right of it: room for that loop and its label.
  const hasLoop = relations.some((r) => {
    const to = 'entity' in r.to ? boxes.get(r.to.entity) : frames.get(r.to.collection);
    return to !== undefined && to.column === boxes.get(r.from)?.column;
  });
  const width =
    Math.max(1, columns.length) * (BOX_W + columnGap) - columnGap + 2 * GAP + (hasLoop ? columnGap : 0);
  const links = linksOf(relations, boxes, frames, width);
  const bodyHeight = Math.max(120, ...columns.map((c) => c.height)) + GAP / 2;
  const height = bodyHeight + (relations.length > 0 ? LEGEND_H : 0);
  const indexes = report.indexes ?? [];
  const title = `Design of ${report.table}: ${report.entities.length} entities in ${collections.length} item collections${relations.length > 0 ? `, ${relations.length} relations` : ''}`;
  return (
    <section className="panel" aria-labelledby="schema-diagram-title">
      <h2 id="schema-diagram-title" className="panel-title">
        Design
      </h2>
      <div className="mig-panel-body">
        <p className="muted schema-fact">
          Entities in one frame share item collections (the same partition key prefix);{' '}
          {indexes.length > 0
            ? 'each lists the indexes its items appear in with their key shape there.'
            : 'the table has no indexes.'}
          {relations.length > 0
            ? ' Lines show how one entity reaches another, as listed below the picture.'
            : ''}
        </p>
        <dl className="schema-index-keys" aria-label="Keys">
          <div>
            <dt>Table {report.table}</dt>
            <dd>{keyText(report.keys)}</dd>
          </div>
          {indexes.map((i) => (
            <div key={i.name} data-index={i.name}>
              <dt>
                {i.kind} {i.name}
              </dt>
              <dd>{keyText(i.keys)}</dd>
            </div>
          ))}
        </dl>
        <div className="mig-controls">
          <Button
            size="sm"
            onClick={() => {
              if (svg.current)
                downloadText(`${report.table}-design.svg`, 'image/svg+xml', standalone(svg.current));
            }}
          >
            Save as SVG
          </Button>
          <Button
            size="sm"
            onClick={() => {
              if (!svg.current) return;
              pngOf(standalone(svg.current), width, height).then(
                (blob) => downloadBlob(`${report.table}-design.png`, blob),
                (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
              );
            }}
          >
            Save as PNG
          </Button>
        </div>
        {problem ? <p role="alert">{problem}</p> : null}
        <div className="schema-diagram-wrap">
          <svg
            ref={svg}
            className="schema-diagram"
            role="img"
            aria-label={title}
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
          >
            <title>{title}</title>
            <defs>
              {KINDS.map(({ kind }) => (
                <marker
                  key={kind}
                  id={`${id}-arrow-${kind}`}
                  viewBox="0 0 8 8"
                  refX={7}
                  refY={4}
                  markerWidth={7}
                  markerHeight={7}
                  orient="auto-start-reverse"
                >
                  <path className={`sd-arrow sd-arrow-${kind}`} d="M0,0 L8,4 L0,8 z" />
                </marker>
              ))}
            </defs>
            <rect className="sd-bg" x={0} y={0} width={width} height={height} />
            {columns.map(({ c, x, height: columnHeight }) => (
              <rect
                key={`frame:${c.key}`}
                className={c.entities.length > 1 ? 'sd-frame' : 'sd-frame sd-frame-single'}
                x={x - 8}
                y={10}
                width={BOX_W + 16}
                height={columnHeight - 10}
                rx={8}
              />
            ))}
            {links.map((l) => (
              <path
                key={`line:${l.relation.from}:${l.relation.label}`}
                className={`sd-link sd-link-${l.relation.kind}`}
                d={l.path}
                markerEnd={`url(#${id}-arrow-${l.relation.kind})`}
              />
            ))}
            {columns.map(({ c, x, boxes: placed }) => (
              <g key={c.key} data-collection={c.key}>
                <text className="sd-collection" x={x} y={30}>
                  {c.entities.length > 1 ? `Item collection ${c.key}` : c.key}
                </text>
                {placed.map((b) => (
                  <g key={b.e.name} data-entity={b.e.name}>
                    <rect className="sd-box" x={x} y={b.y} width={BOX_W} height={b.height} rx={6} />
                    <text className="sd-name" x={x + 10} y={b.y + 20}>
                      {b.e.name} · {countOf(b.e.items, 'item')}
                    </text>
                    {b.lines.map((l, li) => (
                      <text
                        key={`${li}:${l.text}`}
                        className={`sd-${l.kind}`}
                        x={x + 10}
                        y={b.y + 38 + li * LINE}
                      >
                        {l.text.length > LINE_CHARS ? `${l.text.slice(0, LINE_CHARS - 1)}…` : l.text}
                      </text>
                    ))}
                  </g>
                ))}
              </g>
            ))}
            {links.map((l) => (
              <text
                key={`label:${l.relation.from}:${l.relation.label}`}
                className={`sd-link-label sd-link-label-${l.relation.kind}`}
                data-relation={`${l.relation.from}→${'entity' in l.relation.to ? l.relation.to.entity : l.relation.to.collection}`}
                x={l.label.x}
                y={l.label.y}
                textAnchor={l.label.anchor}
              >
                {l.relation.label}
              </text>
            ))}
            {relations.length > 0 ? (
              <g className="sd-legend">
                {KINDS.map(({ kind, text }, i) => {
                  const lx = GAP + i * 250;
                  const ly = bodyHeight + LEGEND_H / 2;
                  return (
                    <g key={kind}>
                      <path
                        className={`sd-link sd-link-${kind}`}
                        d={`M${lx},${ly} L${lx + 36},${ly}`}
                        markerEnd={`url(#${id}-arrow-${kind})`}
                      />
                      <text className="sd-legend-text" x={lx + 44} y={ly + 4}>
                        {text}
                      </text>
                    </g>
                  );
                })}
              </g>
            ) : null}
          </svg>
        </div>
        {relations.length > 0 ? (
          <ul className="schema-relations" aria-label="Relations">
            {relations.map((r) => (
              <li key={`${r.from}:${r.label}`}>{r.sentence}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
