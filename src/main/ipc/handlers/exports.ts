import {
  enableTablePitr,
  followTableExport,
  listTableExports,
  openFolderExport,
  openS3Export,
  startS3Import,
  startTableExport,
} from '../../exports/export-service';
import type { HandlerTable } from '../dispatcher';
import { openedExports } from '../../exports/opened-exports';

type ExportChannel =
  | 'exports:list'
  | 'exports:enablePitr'
  | 'exports:start'
  | 'exports:follow'
  | 'exports:open'
  | 'exports:openFolder'
  | 'exports:opened'
  | 'imports:start';

/** exports:* and imports:* — DynamoDB's own S3 exports and imports (export-service.ts). */
export const exportHandlers: Pick<HandlerTable, ExportChannel> = {
  'exports:list': (input, ctx) => listTableExports(ctx, input),
  'exports:enablePitr': ({ connectionId, table }, ctx) => enableTablePitr(ctx, connectionId, table),
  'exports:start': (input, ctx) => startTableExport(ctx, input),
  'exports:follow': (input, ctx) => followTableExport(ctx, input),
  'exports:open': (input, ctx) => openS3Export(ctx, input),
  'exports:openFolder': (input, ctx) => openFolderExport(ctx, input),
  'exports:opened': (_input, ctx) => Promise.resolve(openedExports(ctx).list()),
  'imports:start': (input, ctx) => startS3Import(ctx, input),
};
