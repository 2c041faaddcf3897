import type { PathSegment } from '../../../shared/dynamo/validate-item';

/**
 * Reads a document path as typed in the builder: `address.city`, `tags[0]`, and names with
 * dots quoted in backticks (`` `a.b`.c ``). A path that is exactly one of the table's attribute
 * names is that one name, dots and all: `a.b` written by dynamoose is one attribute, not a map.
 */
export function parseAttributePath(text: string, knownNames: readonly string[] = []): PathSegment[] | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'Name an attribute.';
  if (knownNames.includes(trimmed)) return [trimmed];
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < trimmed.length) {
    if (trimmed[i] === '`') {
      const end = trimmed.indexOf('`', i + 1);
      if (end < 0) return 'A backtick-quoted name is not closed.';
      segments.push(trimmed.slice(i + 1, end));
      i = end + 1;
    } else if (trimmed[i] === '[') {
      const end = trimmed.indexOf(']', i);
      const index = Number(trimmed.slice(i + 1, end));
      if (end < 0 || !Number.isInteger(index) || index < 0) return 'A list index looks like [0].';
      if (segments.length === 0) return 'A path starts with an attribute name.';
      segments.push(index);
      i = end + 1;
    } else {
      let end = i;
      while (end < trimmed.length && !'.[`'.includes(trimmed.charAt(end))) end++;
      const name = trimmed.slice(i, end);
      if (name === '') return 'An empty name in the path.';
      segments.push(name);
      i = end;
    }
    if (trimmed[i] === '.') {
      i++;
      if (i >= trimmed.length) return 'The path ends with a dot.';
    }
  }
  return segments;
}

export function formatAttributePath(path: readonly PathSegment[]): string {
  return path
    .map((segment, i) => {
      if (typeof segment === 'number') return `[${segment}]`;
      const name = /[.[\]`]/.test(segment) ? `\`${segment}\`` : segment;
      return i === 0 ? name : `.${name}`;
    })
    .join('');
}
