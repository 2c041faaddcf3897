/**
 * SQL LIKE as a RegExp: % is any run of characters, _ exactly one, and the escape character
 * (backslash unless ESCAPE says otherwise) makes the next character literal.
 */
export function likeMatcher(
  pattern: string,
  escape: string,
  caseInsensitive: boolean,
): (s: string) => boolean {
  let source = '';
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (escape !== '' && c === escape && i + 1 < chars.length) {
      source += chars[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  // A plain prefix (the common 'USER#%') needs no RegExp at all.
  const prefix = /^([^%_\\]*)%$/.exec(pattern);
  if (prefix && !caseInsensitive && escape === '\\') {
    const p = prefix[1]!;
    return (s) => s.startsWith(p);
  }
  const regex = new RegExp(`^${source}$`, caseInsensitive ? 'iu' : 'u');
  return (s) => regex.test(s);
}
