import type { CoreContext } from '../core/context';
import { exportDownloadRoute } from '../export-rows/export-download';
import { rowsSourceOf } from '../export-rows/rows-source';
import { receiveImportUpload } from '../dynamo/transfer/import-upload';
import { exportFolderUpload } from '../exports/export-upload';
import { createDispatcher } from '../ipc/dispatcher';
import { handlers } from '../ipc/handlers/index';
import { startBrowserServer, type BrowserServer, type BrowserServerOptions } from './http-server';
import { mcpHttpService } from '../mcp/http-service';

/**
 * Browser mode for a core: every channel through the one dispatcher, plus the file routes.
 * `dynotable serve` and the integration tests start the server through here, so both get the
 * same wiring.
 */
export function startCoreServer(
  core: CoreContext,
  options: Pick<BrowserServerOptions, 'staticDir' | 'port' | 'log' | 'replay'>,
): Promise<BrowserServer> {
  // Connections left switched on for coding agents are served again (their own 127.0.0.1 port).
  mcpHttpService(core)
    .resume()
    .catch((error: unknown) =>
      options.log?.(
        `MCP endpoint not started: ${error instanceof Error ? error.message : String(error)}`,
        'error',
      ),
    );
  return startBrowserServer({
    ...options,
    dispatch: createDispatcher(handlers, core),
    events: core.events,
    exportDownload: exportDownloadRoute((ids) => rowsSourceOf(core, ids), core.dataDir),
    importUpload: (request) => receiveImportUpload(core.dataDir, request),
    exportFolderUpload: exportFolderUpload(core.dataDir),
  });
}
