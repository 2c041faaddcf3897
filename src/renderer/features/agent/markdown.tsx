import type { ReactNode } from 'react';
import { call } from '../../ipc/client';

/**
 * A small Markdown renderer that builds React elements and never HTML: raw HTML in the model's
 * answer stays visible text, and links open only when they are http(s), through main's
 * allow-listed opener. (A model's answer may quote table contents, which anyone could write.)
 */
export function isSafeLink(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)\s]+\))/g;

export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index;
    if (at > last) out.push(text.slice(last, at));
    const token = match[0];
    const key = `${keyPrefix}${n++}`;
    if (token.startsWith('`')) out.push(<code key={key}>{token.slice(1, -1)}</code>);
    else if (token.startsWith('**')) out.push(<strong key={key}>{token.slice(2, -2)}</strong>);
    else if (token.startsWith('*')) out.push(<em key={key}>{token.slice(1, -1)}</em>);
    else {
      const label = token.slice(1, token.indexOf(']('));
      const url = token.slice(token.indexOf('](') + 2, -1);
      out.push(
        isSafeLink(url) ? (
          <a
            key={key}
            href={url}
            title={url}
            onClick={(event) => {
              event.preventDefault();
              void call('app:openExternal', { url });
            }}
          >
            {label}
          </a>
        ) : (
          <span key={key}>{token}</span>
        ),
      );
    }
    last = at + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function tableCells(line: string): string[] {
  return line
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}

export function Markdown({ text }: { text: string }) {
  const lines = text.split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const key = `b${i}`;
    if (line.startsWith('```')) {
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? '').startsWith('```')) body.push(lines[i++] ?? '');
      i += 1;
      blocks.push(
        <pre key={key}>
          <code>{body.join('\n')}</code>
        </pre>,
      );
    } else if (/^#{1,4}\s/.test(line)) {
      blocks.push(<h4 key={key}>{renderInline(line.replace(/^#+\s/, ''), key)}</h4>);
      i += 1;
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: ReactNode[] = [];
      while (i < lines.length && /^\s*([-*]|\d+\.)\s/.test(lines[i] ?? '')) {
        items.push(
          <li key={`${key}-${i}`}>
            {renderInline((lines[i] ?? '').replace(/^\s*([-*]|\d+\.)\s/, ''), `${key}-${i}`)}
          </li>,
        );
        i += 1;
      }
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>);
    } else if (line.startsWith('|') && /^\|?\s*:?-+/.test(lines[i + 1] ?? '')) {
      const head = tableCells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] ?? '').startsWith('|')) rows.push(tableCells(lines[i++] ?? ''));
      blocks.push(
        <table key={key} className="md-table">
          <thead>
            <tr>
              {head.map((h, c) => (
                <th key={c}>{renderInline(h, `${key}h${c}`)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <td key={c}>{renderInline(cell, `${key}${r}-${c}`)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>,
      );
    } else if (line.trim() === '') {
      i += 1;
    } else {
      const para: string[] = [];
      while (
        i < lines.length &&
        (lines[i] ?? '').trim() !== '' &&
        !/^(```|#{1,4}\s|\s*([-*]|\d+\.)\s|\|)/.test(lines[i] ?? '')
      ) {
        para.push(lines[i++] ?? '');
      }
      if (para.length === 0) para.push(lines[i++] ?? '');
      blocks.push(<p key={key}>{renderInline(para.join(' '), key)}</p>);
    }
  }
  return <div className="markdown">{blocks}</div>;
}
