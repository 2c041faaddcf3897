import { useState } from 'react';
import { Button } from '../../../ui/button';

/** DescribeTable's response as DynamoDB returned it, for anything the summary leaves out. */
export function RawJson({ value }: { value: Record<string, unknown> }) {
  const [isCopied, setIsCopied] = useState(false);
  const text = JSON.stringify(value, null, 2);
  return (
    <details className="panel raw-json">
      <summary className="panel-title">Raw description (JSON)</summary>
      <div className="raw-json-actions">
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            void navigator.clipboard.writeText(text).then(() => setIsCopied(true));
          }}
        >
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <pre className="code-block">{text}</pre>
    </details>
  );
}
