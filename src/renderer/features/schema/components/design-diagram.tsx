import { useId, useRef, useState } from 'react';
import type { EntitySchema, SchemaReport } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';
import { collectionKeyOf, type DesignRelation, designRelations } from './design-relations';
import { downloadBlob } from '../../../ui/download';
import { pngOf, standalone } from './diagram-export';
import { countOf } from '../../../ui/format';

const BOX_W = 280;
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

function linesOf(e: EntitySchema, report: SchemaReport): { text: string; kind: 'key' | 'index' | 'attr' }[] {
  const keyNames = new Set([report.keys.partitionKey.name, report.keys.sortKey?.name]);
  const attrs = e.attributes.filter(
    (a) => !a.path.includes('.') && !a.path.includes('[') && !keyNames.has(a.path),
  );
  const shown = attrs.slice(0, MAX_ATTRIBUTES).map((a) => ({
    text: `${a.path}${a.share < 1 ? '?' : ''}: ${Object.keys(a.types).join(' | ')}`,
    kind: 'attr' as const,
  }));
  return [
    { text: e.keyPattern, kind: 'key' },
    ...(e.indexPatterns ?? []).map((p) => ({
      text: `${p.index}: ${p.pattern} (${p.count})`,
      kind: 'index' as const,
    })),
    ...shown,
    ...(attrs.length > MAX_ATTRIBUTES
      ? [{ text: `… ${attrs.length - MAX_ATTRIBUTES} more`, kind: 'attr' as const }]
      : []),
  ];
}

interface Placed {
  x: number;
  y: number;
  height: number;
  column: number;
}

interface Link {
  relation: DesignRelation;
  path: string;
  label: { x: number; y: number; anchor: 'start' | 'middle' };
}

/**
 * Each relation as a curve from the side of its entity's box to the side of its target (a box,
 * or the frame of an item collection) that faces it; within one column, a loop out to the right.
 * Several lines into one target arrive a little apart, so each stays visible.
 */
function linksOf(
  relations: DesignRelation[],
  boxes: Map<string, Placed>,
  frames: Map<string, Placed>,
): Link[] {
  const arrivals = new Map<string, number>();
  const departures = new Map<string, number>();
  const links: Link[] = [];
  const ends = relations
    .map((relation) => ({
      relation,
      from: boxes.get(relation.from),
      to: 'entity' in relation.to ? boxes.get(relation.to.entity) : frames.get(relation.to.collection),
    }))
    // Lines leave a box in the order of their targets, top first, so they do not cross each other.
    .sort((a, b) => (a.to?.y ?? 0) - (b.to?.y ?? 0));
  for (const { relation, from, to } of ends) {
    const targetKey = 'entity' in relation.to ? `e:${relation.to.entity}` : `c:${relation.to.collection}`;
    if (!from || !to) continue;
    const k = arrivals.get(targetKey) ?? 0;
    arrivals.set(targetKey, k + 1);
    const out = departures.get(relation.from) ?? 0;
    departures.set(relation.from, out + 1);
    const y0 = from.y + 14 + Math.min(4, out) * 16;
    const y1 = to.y + 14 + Math.min(4, k) * 7;
    if (from.column === to.column) {
      const x = from.x + BOX_W;
      const bulge = 56 + k * 14;
      links.push({
        relation,
        path: `M${x},${y0} C${x + bulge},${y0} ${x + bulge},${y1} ${x + 4},${y1}`,
        label: { x: x + bulge * 0.75 + 4, y: (y0 + y1) / 2 + 4, anchor: 'start' },
      });
      continue;
    }
    const rightward = from.column < to.column;
    const x0 = rightward ? from.x + BOX_W : from.x;
    const x1 = rightward ? to.x - 4 : to.x + BOX_W + 4;
    const d = (x1 - x0) / 2;
    links.push({
      relation,
      path: `M${x0},${y0} C${x0 + d},${y0} ${x1 - d},${y1} ${x1},${y1}`,
      label: { x: (x0 + x1) / 2, y: (y0 + y1) / 2 - 4, anchor: 'middle' },
    });
  }
  // Labels whose lines meet near one point would print over each other: move the later ones down.
  const placed: Link['label'][] = [];
  for (const link of [...links].sort((a, b) => a.label.y - b.label.y)) {
    const l = link.label;
    const width = link.relation.label.length * 7;
    const left = (x: number, anchor: Link['label']['anchor'], w: number) =>
      anchor === 'middle' ? x - w / 2 : x;
    const clashes = () =>
      placed.some(
        (p) =>
          Math.abs(p.y - l.y) < 14 &&
          left(l.x, l.anchor, width) < left(p.x, p.anchor, width) + width &&
          left(p.x, p.anchor, width) < left(l.x, l.anchor, width) + width,
      );
    for (let i = 0; i < 10 && clashes(); i++) l.y += 14;
    placed.push(l);
  }
  return links;
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
  const links = linksOf(relations, boxes, frames);
  const width =
    Math.max(1, columns.length) * (BOX_W + columnGap) -
    columnGap +
    2 * GAP +
    (links.some((l) => l.label.anchor === 'start') ? columnGap : 0);
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
            ? `each lists the indexes its items appear in (${indexes.map((i) => `${i.kind} ${i.name}`).join(', ')}) with their key shape there.`
            : 'the table has no indexes.'}
          {relations.length > 0
            ? ' Lines show how one entity reaches another, as listed below the picture.'
            : ''}
        </p>
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
                        {l.text.length > 36 ? `${l.text.slice(0, 35)}…` : l.text}
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
