export interface StatementRange {
  text: string;
  /** Offset of `text` in the editor, so error positions map back to the editor. */
  from: number;
  to: number;
}

/** Offsets of the `;` that end statements (not those inside quotes or comments). */
export function statementEnds(text: string): number[] {
  const ends: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const close = text.indexOf(c, i + 1);
      i = close < 0 ? text.length : close + 1;
    } else if (text.startsWith('--', i)) {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline + 1;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
    } else {
      if (c === ';') ends.push(i);
      i += 1;
    }
  }
  return ends;
}

function trimmed(text: string, from: number, to: number): StatementRange {
  let start = from;
  let end = to;
  while (start < end && /\s/.test(text[start]!)) start += 1;
  while (end > start && /\s/.test(text[end - 1]!)) end -= 1;
  return { text: text.slice(start, end), from: start, to: end };
}

/**
 * The statement to run for Ctrl/Cmd+Enter: the selection when there is one, else the
 * `;`-separated statement around the cursor (the one before it when the cursor sits after a
 * trailing `;` on an empty line).
 */
export function statementAt(
  text: string,
  cursor: number,
  selection?: { from: number; to: number },
): StatementRange {
  if (selection && selection.to > selection.from) return trimmed(text, selection.from, selection.to);
  const bounds = [-1, ...statementEnds(text), text.length];
  const pieces: StatementRange[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) pieces.push(trimmed(text, bounds[k]! + 1, bounds[k + 1]!));
  let index = pieces.findIndex((p, k) => cursor <= bounds[k + 1]! || k === pieces.length - 1);
  while (index > 0 && pieces[index]!.text === '') index -= 1;
  return pieces[Math.max(0, index)] ?? { text: '', from: 0, to: 0 };
}
