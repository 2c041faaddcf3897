/**
 * Attribute paths as the report writes them: map steps joined with dots, list steps as [n].
 * A name that contains . [ ] or " (or is empty) is written ["name"] (JSON-quoted) so every
 * path parses back to the same steps — the fix needs the exact steps, and dynamoose's
 * top-level `a.b` attributes are exactly such names.
 */
export type PathStep = string | number;

const PLAIN = /^[^.[\]"]+$/;

export function formatStep(step: PathStep, first: boolean): string {
  if (typeof step === 'number') return `[${step}]`;
  if (PLAIN.test(step)) return first ? step : `.${step}`;
  return `[${JSON.stringify(step)}]`;
}

export function formatPath(steps: readonly PathStep[], length = steps.length): string {
  let out = '';
  for (let i = 0; i < length; i++) out += formatStep(steps[i] as PathStep, i === 0);
  return out;
}

/** The inverse of formatPath; throws on text formatPath would never write. */
export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '[') {
      const close = path[i + 1] === '"' ? findQuoteEnd(path, i + 1) + 1 : path.indexOf(']', i);
      if (close <= i || path[close] !== ']') throw new Error(`Cannot read the path ${path}.`);
      const inner = path.slice(i + 1, close);
      steps.push(inner.startsWith('"') ? (JSON.parse(inner) as string) : toIndex(inner, path));
      i = close + 1;
    } else {
      if (c === '.') {
        if (steps.length === 0) throw new Error(`Cannot read the path ${path}.`);
        i += 1;
      }
      let end = i;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      if (end === i) throw new Error(`Cannot read the path ${path}.`);
      steps.push(path.slice(i, end));
      i = end;
    }
  }
  if (steps.length === 0) throw new Error('An empty path names no attribute.');
  return steps;
}

function findQuoteEnd(path: string, start: number): number {
  for (let i = start + 1; i < path.length; i++) {
    if (path[i] === '\\') i++;
    else if (path[i] === '"') return i;
  }
  return -1;
}

function toIndex(text: string, path: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`Cannot read the path ${path}.`);
  return Number(text);
}
