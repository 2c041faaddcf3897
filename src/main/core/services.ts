import type { CoreContext, ServiceSlot, Services } from './context';

/**
 * The core's long-lived services, made on first use from the one context and closed by the one
 * shutdown (shutdownCore) that the desktop app, browser mode, the MCP server and the CLI share.
 * Before, each lived in a private map keyed by the context object, so a copy of the context
 * (`{ ...core, clients }`) quietly got a second SQL worker that no shutdown closed.
 */
export class CoreServices implements Services {
  private readonly made = new Map<ServiceSlot<unknown>, unknown>();
  private isClosed = false;

  constructor(private readonly ctx: () => CoreContext) {}

  /** The slot's service, made now if it was not yet. */
  get<T>(slot: ServiceSlot<T>): T {
    if (this.made.has(slot)) return this.made.get(slot) as T;
    if (this.isClosed && !slot.isUsableWhenClosed)
      throw new Error('DynoTable is shutting down; the request was not started.');
    const service = slot.create(this.ctx());
    this.made.set(slot, service);
    return service;
  }

  /** The slot's service if one was made (writes tell a running SQL service to forget its cache). */
  running<T>(slot: ServiceSlot<T>): T | undefined {
    return this.made.get(slot) as T | undefined;
  }

  /**
   * Stops what holds threads or waits: the SQL worker. The agent's runs and approval waits end
   * with their operations (cancelAll comes first in shutdownCore). Later calls are refused, so
   * nothing starts a new worker on a core being shut down.
   */
  async close(): Promise<void> {
    this.isClosed = true;
    const closing: Promise<void>[] = [];
    for (const [slot, service] of this.made) {
      if (!slot.close) continue;
      this.made.delete(slot);
      closing.push(slot.close(service));
    }
    await Promise.all(closing);
  }
}
