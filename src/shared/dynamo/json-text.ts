import { echoValue } from './echo-value';

/**
 * A JSON parser that keeps number literals as text and remembers where each value starts, so
 * the editor can accept a 38-digit number without rounding it and point at the exact line and
 * column of a mistake. JSON.parse would turn 12345678901234567890123 into 1.2345678901234568e22.
 */
export type JsonNode =
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; text: string; at: number }
  | { kind: 'boolean'; value: boolean; at: number }
  | { kind: 'null'; at: number }
  | { kind: 'array'; items: JsonNode[]; at: number }
  | { kind: 'object'; entries: { key: string; value: JsonNode; at: number }[]; at: number };

export class JsonTextError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
  }

  /** For a person, next to the box they typed in. */
  get sentence(): string {
    return `Line ${this.line}, column ${this.column}: ${this.reason}.`;
  }
}

export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

export function failAt(text: string, offset: number, message: string): never {
  const { line, column } = positionOf(text, offset);
  throw new JsonTextError(message, offset, line, column);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const MAX_DEPTH = 256;

export function parseJsonText(text: string): JsonNode {
  let i = 0;
  const skip = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) failAt(text, i, 'Nested too deeply');
    skip();
    const at = i;
    const ch = text[i];
    if (ch === '{') {
      i++;
      const entries: { key: string; value: JsonNode; at: number }[] = [];
      const keys = new Set<string>();
      skip();
      if (text[i] === '}') return (i++, { kind: 'object', entries, at });
      for (;;) {
        skip();
        const keyAt = i;
        if (text[i] !== '"') failAt(text, i, 'Expected a quoted name');
        const key = str();
        if (keys.has(key)) failAt(text, keyAt, `The name ${echoValue(key)} appears twice`);
        keys.add(key);
        skip();
        if (text[i] !== ':') failAt(text, i, 'Expected ":" after the name');
        i++;
        entries.push({ key, value: value(depth + 1), at: keyAt });
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return (i++, { kind: 'object', entries, at });
        else failAt(text, i, 'Expected "," or "}"');
      }
    }
    if (ch === '[') {
      i++;
      const items: JsonNode[] = [];
      skip();
      if (text[i] === ']') return (i++, { kind: 'array', items, at });
      for (;;) {
        items.push(value(depth + 1));
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return (i++, { kind: 'array', items, at });
        else failAt(text, i, 'Expected "," or "]"');
      }
    }
    if (ch === '"') return { kind: 'string', value: str(), at };
    if (text.startsWith('true', i)) return ((i += 4), { kind: 'boolean', value: true, at });
    if (text.startsWith('false', i)) return ((i += 5), { kind: 'boolean', value: false, at });
    if (text.startsWith('null', i)) return ((i += 4), { kind: 'null', at });
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (match && match[0].length > 0) return ((i += match[0].length), { kind: 'number', text: match[0], at });
    if (i >= text.length) failAt(text, i, 'The text ends too early');
    return failAt(text, i, `Unexpected character ${JSON.stringify(text[i])}`);
  };
  const str = (): string => {
    STRING.lastIndex = i;
    const match = STRING.exec(text);
    if (!match) failAt(text, i, 'Unterminated or invalid string');
    i += match[0].length;
    return JSON.parse(match[0]) as string;
  };
  const root = value(0);
  skip();
  if (i < text.length) failAt(text, i, 'Unexpected text after the end');
  return root;
}
