import { Server } from 'node:net';

// What a test file can leave behind in a process that runs the next file too (the integration
// project runs with `isolate: false`): listeners on `process`, properties on `globalThis`, servers
// still listening, and environment variables. tests/integration/process-state-setup.ts takes a
// snapshot when a file starts and fails the file if its end differs.

/** What one moment of the process looked like, as far as a following file could tell. */
export interface ProcessState {
  listeners: Map<string | symbol, Set<(...args: never[]) => unknown>>;
  globals: Map<string | symbol, GlobalSlot>;
  servers: Set<Server>;
}

/**
 * The servers listening now (net, http, a proxy in front of DynamoDB Local). Node names only the
 * kinds of its handles in public (process.getActiveResourcesInfo); the handles themselves, which
 * say which server it is, come from the undocumented `_getActiveHandles` that Node 20 and 22 have.
 */
function listeningServers(): Set<Server> {
  const handles = (process as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return new Set(handles.filter((handle): handle is Server => handle instanceof Server && handle.listening));
}

function describeServer(server: Server): string {
  const address = server.address();
  if (address === null) return 'a server';
  return typeof address === 'string' ? address : `${address.address}:${address.port}`;
}

export function processState(): ProcessState {
  const listeners = new Map<string | symbol, Set<(...args: never[]) => unknown>>();
  for (const event of process.eventNames())
    listeners.set(event, new Set(process.rawListeners(event) as ((...args: never[]) => unknown)[]));
  return { listeners, globals: globalValues(), servers: listeningServers() };
}

/** A global as defined: its value, or its getter and setter when it is an accessor. */
type GlobalSlot = { value: unknown } | { get: unknown; set: unknown };

function globalValues(): Map<string | symbol, GlobalSlot> {
  const values = new Map<string | symbol, GlobalSlot>();
  for (const key of Reflect.ownKeys(globalThis)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(globalThis, key);
    if (descriptor)
      values.set(
        key,
        'value' in descriptor ? { value: descriptor.value } : { get: descriptor.get, set: descriptor.set },
      );
  }
  return values;
}

/** Whether a global still is what it was: Node's lazy globals (Blob, AbortController…) turn from a getter into their value when first read. */
function isSame(before: GlobalSlot, now: GlobalSlot | undefined): boolean {
  if (now === undefined) return false;
  if ('value' in before) return 'value' in now && Object.is(before.value, now.value);
  return 'value' in now || (before.get === now.get && before.set === now.set);
}

const nameOf = (key: string | symbol): string => (typeof key === 'symbol' ? key.toString() : key);

/** Sentences naming what `now` holds that `before` did not (none when nothing was left behind). */
export function leaksSince(before: ProcessState, now: ProcessState = processState()): string[] {
  const leaks: string[] = [];
  for (const [event, listeners] of now.listeners) {
    const had = before.listeners.get(event);
    const added = [...listeners].filter((listener) => !had?.has(listener));
    if (added.length > 0)
      leaks.push(
        `${added.length} '${nameOf(event)}' listener(s) added to process and not removed (${added
          .map((listener) => listener.name || 'anonymous')
          .join(', ')})`,
      );
  }
  // Globals a file added are left alone: a library defines its own on first import (the AWS SDK's
  // `awslambda`, zod's registry, undici's dispatcher), and with modules imported once per worker
  // that first import happens in whichever file comes first. One the next file would see
  // differently is a leak: a global replaced (a stubbed fetch) or removed.
  const changed = [...before.globals].filter(([key, slot]) => !isSame(slot, now.globals.get(key)));
  if (changed.length > 0)
    leaks.push(`globalThis.${changed.map(([key]) => nameOf(key)).join(', globalThis.')} replaced or removed`);
  const servers = [...now.servers].filter((server) => !before.servers.has(server));
  if (servers.length > 0)
    leaks.push(
      `server(s) still listening on ${servers.map(describeServer).join(', ')} (started and not closed)`,
    );
  return leaks;
}
