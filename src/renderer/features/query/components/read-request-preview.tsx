import { buildReadRequest, ReadSpecError, type ReadTarget } from '../../../../shared/dynamo/read-request';
import type { Connection } from '../../../../shared/ipc';
import { FieldError } from '../../../ui/field';
import { RequestPreview } from '../../editor/components/request-preview';
import { toReadSpec, type BuilderState } from '../builder-state';

export interface ReadRequestPreviewProps {
  state: BuilderState;
  target: ReadTarget;
  names: readonly string[];
  connection: Connection;
}

/** The Query or Scan the builder would send now, also as SDK v3 code and an AWS CLI command. */
export function ReadRequestPreview({ state, target, names, connection }: ReadRequestPreviewProps) {
  const built = toReadSpec(state, target.keys, target.indexes, names);
  if ('errors' in built) {
    const first = Object.values(built.errors).find(Boolean);
    return <FieldError message={`The request cannot be shown yet: ${first ?? 'a field needs fixing'}`} />;
  }
  let request;
  try {
    request = buildReadRequest(target, built.spec);
  } catch (error) {
    if (!(error instanceof ReadSpecError)) throw error;
    return <FieldError message={`The request cannot be shown yet: ${error.message}`} />;
  }
  return (
    <RequestPreview
      request={request}
      connection={connection}
      paging={{ pageSize: built.pageSize, maxItems: built.maxItems, untilMatches: built.untilMatches }}
    />
  );
}
