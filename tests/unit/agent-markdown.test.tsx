import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import { isSafeLink, Markdown, SafeLink } from '../../src/renderer/features/agent/markdown';

// The model's answer may quote table contents that anyone could have written, so the renderer
// must never turn text into markup, and a link may only ever reach the safe opener.
const html = (text: string): string => renderToStaticMarkup(<Markdown text={text} />);

type AnchorProps = { href: string; onClick: (event: { preventDefault(): void }) => void };

/** What SafeLink renders for a link: an anchor element, or something else. */
function anchors(href: string, label: string): ReactElement<AnchorProps>[] {
  const node: ReactNode = SafeLink({ href, children: label });
  return isValidElement(node) && node.type === 'a' ? [node as ReactElement<AnchorProps>] : [];
}

/** A stand-in for the preload bridge that records which channels the renderer called. */
function recordBridgeCalls(): { channel: string; input: unknown }[] {
  const calls: { channel: string; input: unknown }[] = [];
  const bridge = new Proxy(
    {},
    {
      get: (_target, channel: string) => (input: unknown) => {
        calls.push({ channel, input });
        return Promise.resolve({ ok: true, value: {} });
      },
    },
  );
  (globalThis as Record<string, unknown>).window = { [BRIDGE_KEY]: bridge };
  return calls;
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>).window;
});

describe('agent Markdown renders no raw HTML', () => {
  it('keeps a script tag as visible text', () => {
    const out = html('Look: <script>alert("x")</script> done');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('keeps an img with onerror as text, in paragraphs, lists, tables and code', () => {
    const payload = '<img src=x onerror="alert(1)">';
    const out = html(
      [payload, '', `- ${payload}`, '', `| a |`, `|---|`, `| ${payload} |`, '', '```', payload, '```'].join(
        '\n',
      ),
    );
    expect(out).not.toMatch(/<img/i);
    expect(out.match(/&lt;img src=x onerror=/g)).toHaveLength(4);
  });

  it('renders the Markdown it supports as elements', () => {
    // react-markdown separates block elements with newlines; they are not part of what is shown.
    const out = html(
      '# Total\n\n**8** of *12* customers, see `balance`\n\n1. first\n2. second\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    ).replace(/\n/g, '');
    expect(out).toContain('<h4>Total</h4>');
    expect(out).toContain('<strong>8</strong>');
    expect(out).toContain('<em>12</em>');
    expect(out).toContain('<code>balance</code>');
    expect(out).toContain('<ol><li>first</li><li>second</li></ol>');
    expect(out).toContain('<table class="md-table"><thead><tr><th>a</th><th>b</th></tr></thead>');
  });
});

describe('agent Markdown links', () => {
  it('accepts only http and https', () => {
    expect(isSafeLink('https://docs.aws.amazon.com/bedrock/')).toBe(true);
    expect(isSafeLink('http://example.com')).toBe(true);
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'vbscript:x',
      'not a url',
    ]) {
      expect(isSafeLink(url)).toBe(false);
    }
  });

  it('shows any other link as its text, with no anchor', () => {
    const out = html('[click me](javascript:alert(1)) and [file](file:///etc/passwd)');
    expect(out).not.toContain('<a');
    expect(out).not.toContain('href');
    expect(out.replace(/<[^>]+>/g, '')).toBe(
      '[click me](javascript:alert(1)) and [file](file:///etc/passwd)',
    );
    expect(anchors('data:text/html,hi', 'x')).toHaveLength(0);
  });

  it('opens an http(s) link through app:openExternal, never by navigating', () => {
    const calls = recordBridgeCalls();
    expect(html('See [the console](https://console.aws.amazon.com/bedrock/) now')).toContain(
      '<a href="https://console.aws.amazon.com/bedrock/" title="https://console.aws.amazon.com/bedrock/">the console</a>',
    );
    const [link] = anchors('https://console.aws.amazon.com/bedrock/', 'the console');
    expect(link?.props.href).toBe('https://console.aws.amazon.com/bedrock/');
    let isDefaultPrevented = false;
    link?.props.onClick({ preventDefault: () => (isDefaultPrevented = true) });
    expect(isDefaultPrevented).toBe(true);
    expect(calls).toEqual([
      { channel: 'app:openExternal', input: { url: 'https://console.aws.amazon.com/bedrock/' } },
    ]);
  });
});
