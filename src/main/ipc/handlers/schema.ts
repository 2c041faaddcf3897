import { listSchemaScans, loadSchemaReport, startSchemaAnalysis } from '../../schema/service';
import type { HandlerTable } from '../dispatcher';

type SchemaChannel = Extract<keyof HandlerTable, `schema:${string}`>;

export const schemaHandlers: Pick<HandlerTable, SchemaChannel> = {
  'schema:analyze': (input, ctx) => startSchemaAnalysis(input, ctx),
  'schema:report': ({ scanId }, ctx) => loadSchemaReport(scanId, ctx),
  'schema:scans': (input, ctx) => listSchemaScans(input, ctx),
};
