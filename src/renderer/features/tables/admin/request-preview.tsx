import { useState } from 'react';
import { Button } from '../../../ui/button';

export interface RequestText {
  id: string;
  label: string;
  text: string;
}

/** The exact request(s) about to be sent, in the forms a user can paste elsewhere, with Copy. */
export function RequestPreview({ texts, title = 'Request' }: { texts: RequestText[]; title?: string }) {
  const [chosen, setChosen] = useState(texts[0]?.id);
  const [copied, setCopied] = useState<string>();
  const shown = texts.find((t) => t.id === chosen) ?? texts[0];
  if (!shown) return null;
  return (
    <section className="table-request" aria-label={title}>
      <div className="table-request-bar">
        <strong className="small">{title}</strong>
        <div role="tablist" aria-label={`${title} format`} className="request-tabs">
          {texts.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={t.id === shown.id}
              className={`view-tab${t.id === shown.id ? ' is-active' : ''}`}
              onClick={() => setChosen(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <span className="toolbar-spacer" />
        <Button
          size="sm"
          onClick={() =>
            void navigator.clipboard.writeText(shown.text).then(
              () => setCopied(shown.id),
              () => setCopied(undefined),
            )
          }
        >
          {copied === shown.id ? 'Copied' : `Copy ${shown.label}`}
        </Button>
      </div>
      <pre className="code-block request-code" role="tabpanel" aria-label={shown.label} tabIndex={0}>
        {shown.text}
      </pre>
    </section>
  );
}
