import type { DesignRelation } from './design-relations';

/** An entity box's width in the design diagram. */
export const BOX_W = 280;

export interface Placed {
  x: number;
  y: number;
  height: number;
  column: number;
}

export interface LinkLabel {
  x: number;
  y: number;
  anchor: 'start' | 'middle';
}

export interface Link {
  relation: DesignRelation;
  path: string;
  label: LinkLabel;
}

interface Point {
  x: number;
  y: number;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A label's box at 11px monospace: about 6.7px a character, 12px from its top to its baseline. */
const CHAR_W = 6.7;
const ASCENT = 10;
const DESCENT = 3;
/** Room kept free around a label, so a line does not touch its halo either. */
const PAD = 3;
const SAMPLES = 64;

interface Curve {
  p0: Point;
  c1: Point;
  c2: Point;
  p1: Point;
}

function pointOn({ p0, c1, c2, p1 }: Curve, t: number): Point {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * p0.x + b * c1.x + c * c2.x + d * p1.x, y: a * p0.y + b * c1.y + c * c2.y + d * p1.y };
}

const pathOf = ({ p0, c1, c2, p1 }: Curve): string =>
  `M${p0.x},${p0.y} C${c1.x},${c1.y} ${c2.x},${c2.y} ${p1.x},${p1.y}`;

export function labelRect(label: LinkLabel, text: string): Rect {
  const width = text.length * CHAR_W;
  const left = label.anchor === 'middle' ? label.x - width / 2 : label.x;
  return { left, top: label.y - ASCENT, right: left + width, bottom: label.y + DESCENT };
}

const overlaps = (a: Rect, b: Rect): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

const inside = (p: Point, r: Rect): boolean =>
  p.x > r.left - PAD && p.x < r.right + PAD && p.y > r.top - PAD && p.y < r.bottom + PAD;

/** Every curve as points close enough together that none can cross a label between two of them. */
export function curvePoints(path: string): Point[] {
  const n = path.match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
  if (n.length < 8) return [];
  const curve: Curve = {
    p0: { x: n[0] as number, y: n[1] as number },
    c1: { x: n[2] as number, y: n[3] as number },
    c2: { x: n[4] as number, y: n[5] as number },
    p1: { x: n[6] as number, y: n[7] as number },
  };
  return Array.from({ length: SAMPLES + 1 }, (_, i) => pointOn(curve, i / SAMPLES));
}

/**
 * Where a line's label goes: near the middle of its own curve, on the first spot where its box
 * crosses no line (its own included), no entity box and no label placed before it. Labels used
 * to sit at the midpoint, printed over their own steep curve and over the lines crossing there.
 * When nothing is free, the spot touching the fewest lines wins.
 */
function placeLabels(links: Link[], curves: Curve[], boxes: Rect[], width: number): void {
  const points = links.map((l) => curvePoints(l.path));
  const taken: Rect[] = [];
  links.forEach((link, i) => {
    const text = link.relation.label;
    const curve = curves[i] as Curve;
    const candidates: LinkLabel[] = [];
    for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8])
      for (const dy of [-6, 15, -20, 29, -34, 43]) {
        const p = pointOn(curve, t);
        candidates.push({ x: p.x, y: p.y + dy, anchor: 'middle' });
        candidates.push({ x: p.x + 8, y: p.y + dy, anchor: 'start' });
      }
    let best = link.label;
    let fewest = Number.POSITIVE_INFINITY;
    for (const c of candidates) {
      const r = labelRect(c, text);
      if (r.left < 2 || r.right > width - 2 || r.top < 2) continue;
      if (boxes.some((b) => overlaps(r, b)) || taken.some((t) => overlaps(r, t))) continue;
      const hits = points.reduce((n, ps) => n + ps.filter((p) => inside(p, r)).length, 0);
      if (hits < fewest) {
        best = c;
        fewest = hits;
        if (hits === 0) break;
      }
    }
    link.label = best;
    taken.push(labelRect(best, text));
  });
}

/**
 * Each relation as a curve from the side of its entity's box to the side of its target (a box,
 * or the frame of an item collection) that faces it; within one column, a loop out to the right.
 * Several lines into one target arrive a little apart, so each stays visible. `width` is the
 * picture's, so a label is never placed past its edge.
 */
export function linksOf(
  relations: DesignRelation[],
  boxes: Map<string, Placed>,
  frames: Map<string, Placed>,
  width: number,
): Link[] {
  const arrivals = new Map<string, number>();
  const departures = new Map<string, number>();
  const links: Link[] = [];
  const curves: Curve[] = [];
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
    let curve: Curve;
    let label: LinkLabel;
    if (from.column === to.column) {
      const x = from.x + BOX_W;
      const bulge = 56 + k * 14;
      curve = {
        p0: { x, y: y0 },
        c1: { x: x + bulge, y: y0 },
        c2: { x: x + bulge, y: y1 },
        p1: { x: x + 4, y: y1 },
      };
      label = { x: x + bulge * 0.75 + 4, y: (y0 + y1) / 2 + 4, anchor: 'start' };
    } else {
      const rightward = from.column < to.column;
      const x0 = rightward ? from.x + BOX_W : from.x;
      const x1 = rightward ? to.x - 4 : to.x + BOX_W + 4;
      const d = (x1 - x0) / 2;
      curve = {
        p0: { x: x0, y: y0 },
        c1: { x: x0 + d, y: y0 },
        c2: { x: x1 - d, y: y1 },
        p1: { x: x1, y: y1 },
      };
      label = { x: (x0 + x1) / 2, y: (y0 + y1) / 2 - 4, anchor: 'middle' };
    }
    curves.push(curve);
    links.push({ relation, path: pathOf(curve), label });
  }
  const boxRects = [...boxes.values()].map((b) => ({
    left: b.x,
    top: b.y,
    right: b.x + BOX_W,
    bottom: b.y + b.height,
  }));
  // Each column's title (`Item collection PK=USER#…`) is on the band above its first box.
  for (const f of frames.values()) boxRects.push({ left: f.x, top: 16, right: f.x + BOX_W, bottom: 36 });
  placeLabels(links, curves, boxRects, width);
  return links;
}
