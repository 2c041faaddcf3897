import { useRef, useState } from 'react';
import type { EntitySchema, SchemaReport } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { downloadText } from '../../../ui/download';

const BOX_W = 280;
const GAP = 24;
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
    const key = e.keyPattern.split(' ')[0] ?? '';
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

/** Copies the computed colours and fonts onto the clone, so the file looks as the screen does. */
function standalone(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [clone, ...clone.querySelectorAll('*')];
  from.forEach((el, i) => {
    const style = getComputedStyle(el);
    const target = to[i] as Element;
    for (const p of ['fill', 'stroke', 'stroke-width', 'font-family', 'font-size', 'font-weight'])
      target.setAttribute(p, style.getPropertyValue(p));
    target.removeAttribute('class');
  });
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return new XMLSerializer().serializeToString(clone);
}

/** PNG through the renderer's own canvas: the SVG drawn as an image at twice its size. */
async function pngOf(svgText: string, width: number, height: number): Promise<Blob> {
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width * 2;
    canvas.height = height * 2;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This window cannot draw on a canvas.');
    context.scale(2, 2);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The canvas gave no PNG.'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The single-table design as the read found it: one column per item collection (entities that
 * share a partition key prefix), each entity with its key shape, the indexes its items appear in
 * with their key shape there, and its top-level attributes (`?` where some items lack one).
 */
export function DesignDiagram({ report }: { report: SchemaReport }) {
  const svg = useRef<SVGSVGElement>(null);
  const [problem, setProblem] = useState<string>();
  const collections = collectionsOf(report);
  const columns = collections.map((c) => {
    let y = 44;
    const boxes = c.entities.map((e) => {
      const lines = linesOf(e, report);
      const box = { e, lines, y, height: 30 + lines.length * LINE };
      y += box.height + GAP / 2;
      return box;
    });
    return { c, boxes, height: y };
  });
  const width = Math.max(1, columns.length) * (BOX_W + GAP) + GAP;
  const height = Math.max(120, ...columns.map((c) => c.height)) + GAP;
  const indexes = report.indexes ?? [];
  const title = `Design of ${report.table}: ${report.entities.length} entities in ${collections.length} item collections`;
  return (
    <section className="panel" aria-labelledby="schema-diagram-title">
      <h2 id="schema-diagram-title" className="panel-title">
        Design
      </h2>
      <div className="mig-panel-body">
        <p className="muted schema-fact">
          Entities side by side share item collections (the same partition key prefix);{' '}
          {indexes.length > 0
            ? `each lists the indexes its items appear in (${indexes.map((i) => `${i.kind} ${i.name}`).join(', ')}) with their key shape there.`
            : 'the table has no indexes.'}
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
                (blob) => saveBlob(`${report.table}-design.png`, blob),
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
            <rect className="sd-bg" x={0} y={0} width={width} height={height} />
            {columns.map(({ c, boxes }, ci) => {
              const x = GAP + ci * (BOX_W + GAP);
              return (
                <g key={c.key} data-collection={c.key}>
                  <text className="sd-collection" x={x} y={28}>
                    {c.entities.length > 1 ? `Item collection ${c.key}` : c.key}
                  </text>
                  {boxes.map((b) => (
                    <g key={b.e.name} data-entity={b.e.name}>
                      <rect className="sd-box" x={x} y={b.y} width={BOX_W} height={b.height} rx={6} />
                      <text className="sd-name" x={x + 10} y={b.y + 20}>
                        {b.e.name} · {b.e.items.toLocaleString('en-US')} items
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
              );
            })}
          </svg>
        </div>
      </div>
    </section>
  );
}
