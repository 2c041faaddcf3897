import { useState } from 'react';
import {
  codeTargetOf,
  toAwsCli,
  toSdkV3Code,
  type CodeRequest,
  type ReadPaging,
} from '../../../../shared/dynamo/request-code';
import type { Connection } from '../../../../shared/ipc';
import { Button } from '../../../ui/button';
import { useConnectionsStore } from '../../connections/store';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export interface RequestPreviewProps {
  request: CodeRequest;
  connection: Connection;
  /** For a Query or Scan: how DynoTable pages it, which the copied code repeats. */
  paging?: ReadPaging;
}

/** The exact request that will be sent, and the same as AWS SDK v3 code or an AWS CLI command. */
export function RequestPreview({ request, connection, paging }: RequestPreviewProps) {
  const playgroundEndpoint = useConnectionsStore((s) => s.playground.endpoint);
  const [shown, setShown] = useState<'request' | 'sdk' | 'cli'>('request');
  const [copied, setCopied] = useState<string>();
  const target = codeTargetOf(connection, playgroundEndpoint);
  const text =
    shown === 'sdk'
      ? toSdkV3Code(request, target, paging)
      : shown === 'cli'
        ? toAwsCli(request, target, paging)
        : JSON.stringify(request.input, null, 2);
  return (
    <div className="request-preview">
      <div className="request-preview-bar" role="group" aria-label="Request as">
        <strong>{request.operation}</strong>
        <span className="toolbar-spacer" />
        {(['request', 'sdk', 'cli'] as const).map((kind) => (
          <Button
            key={kind}
            size="sm"
            variant={shown === kind ? 'secondary' : 'ghost'}
            aria-pressed={shown === kind}
            onClick={() => {
              setShown(kind);
              setCopied(undefined);
            }}
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

/** The "Show the request" toggle that opens a RequestPreview below it. */
export function RequestToggle({ isShown, onToggle }: { isShown: boolean; onToggle(): void }) {
  return (
    <Button size="sm" variant="ghost" aria-expanded={isShown} onClick={onToggle}>
      {isShown ? 'Hide' : 'Show'} the request
    </Button>
  );
}
