/**
 * A piece of user data inside an error sentence: quoted, at most `max` characters, with control,
 * format (bidirectional overrides, zero-width) and other invisible characters written as \u{…}.
 * An uploaded file's cell or name may be megabytes long, hold a newline that forges a second
 * error line, or a right-to-left override that reverses the sentence around it; an error says
 * which value, not what the whole value is.
 */
export function echoValue(text: string, max = 32): string {
  const chars = Array.from(text);
  const shown = chars.length > max ? chars.slice(0, max).join('') : text;
  const escaped = shown.replace(/[\p{C}\p{Zl}\p{Zp}"\\]/gu, (c) =>
    c === '"' || c === '\\' ? `\\${c}` : `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`,
  );
  return chars.length > max
    ? `"${escaped}…" (${chars.length.toLocaleString('en-US')} characters)`
    : `"${escaped}"`;
}
