import type { ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { call } from '../../ipc/client';

/**
 * The model's answers in Markdown (react-markdown, GitHub tables and lists). A model's answer may
 * quote table contents, which anyone could write, so: raw HTML stays visible text (no
 * rehype-raw), images are shown as their text (loading one would call out to its host), and a
 * link opens only when it is http(s), through main's allow-listed opener.
 */
export function isSafeLink(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

/** An http(s) link that opens outside the app, or, for any other URL, the Markdown it was written as. */
export function SafeLink({ href, children }: { href: string | undefined; children?: ReactNode }) {
  if (!href || !isSafeLink(href))
    return (
      <span>
        [{children}]({href})
      </span>
    );
  return (
    <a
      href={href}
      title={href}
      onClick={(event) => {
        event.preventDefault();
        void call('app:openExternal', { url: href });
      }}
    >
      {children}
    </a>
  );
}

const heading = ({ children }: { children?: ReactNode }) => <h4>{children}</h4>;

const components: Components = {
  a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
  img: ({ src, alt }) => (
    <span>
      ![{alt}]({typeof src === 'string' ? src : ''})
    </span>
  ),
  // Answers sit in a narrow panel under the app's own headings: one small heading level.
  h1: heading,
  h2: heading,
  h3: heading,
  h4: heading,
  h5: heading,
  h6: heading,
  table: ({ children }) => <table className="md-table">{children}</table>,
};

// URLs reach SafeLink untouched, so it can show an unsafe one as text instead of an empty link.
const keepUrl = (url: string): string => url;

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components} urlTransform={keepUrl}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
