import { useState } from 'react';
import { toAwsCli, toSdkV3Code } from '../../../../shared/dynamo/request-code';
import type { WriteRequest } from '../../../../shared/dynamo/write-requests';
import { Button } from '../../../ui/button';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The exact request that will be sent, and the same as AWS SDK v3 code or an AWS CLI command. */
export function RequestPreview({ request, region }: { request: WriteRequest; region: string }) {
  const [shown, setShown] = useState<'request' | 'sdk' | 'cli'>('request');
  const [copied, setCopied] = useState<string>();
  const text =
    shown === 'sdk'
      ? toSdkV3Code(request, region)
      : shown === 'cli'
        ? toAwsCli(request, region)
        : JSON.stringify(request.input, null, 2);
  return (
    <div className="request-preview">
      <div className="request-preview-bar">
        <strong>{request.operation}</strong>
        <span className="toolbar-spacer" />
        {(['request', 'sdk', 'cli'] as const).map((kind) => (
          <Button
            key={kind}
            size="sm"
            variant={shown === kind ? 'secondary' : 'ghost'}
            aria-pressed={shown === kind}
            onClick={() => setShown(kind)}
          >
            {kind === 'request' ? 'Request' : kind === 'sdk' ? 'AWS SDK v3' : 'AWS CLI'}
          </Button>
        ))}
        <Button
          size="sm"
          onClick={() =>
            void copy(text).then((ok) => setCopied(ok ? 'Copied' : 'Select the text and copy it'))
          }
        >
          Copy
        </Button>
        {copied ? (
          <span className="muted" role="status">
            {copied}
          </span>
        ) : null}
      </div>
      <pre className="code-block request-preview-text">{text}</pre>
    </div>
  );
}
