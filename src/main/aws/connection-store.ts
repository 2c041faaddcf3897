import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import {
  connectionSchema,
  type AccessKeys,
  type Connection,
  type ConnectionDraft,
} from '../../shared/ipc/connection';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ConnectionStore, SecretStore } from '../core/context';
import { readDataFileOrFail, setAsideNoticeOf, stringsNamed } from '../core/data-files';
import { connectionInRegion, splitConnectionId } from '../../shared/dynamo/regions';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import { dataFolder } from '../files/data-folder';

export const PLAYGROUND_ID = 'playground';

/** Built in, always listed first, never deleted; only its label, colour and flags can be edited. */
export const playgroundConnection: Connection = {
  id: PLAYGROUND_ID,
  label: 'Local playground',
  color: '#2da44e',
  kind: 'playground',
  region: 'local',
  readOnly: false,
  isProduction: false,
};

const storedConnection = connectionSchema.omit({ hasStoredKeys: true });
type StoredConnection = z.infer<typeof storedConnection>;
// A version field lets a later release migrate the file instead of guessing its shape.
const fileSchema = z.object({ version: z.literal(1), connections: z.array(storedConnection) });

// Far above any real list of connections; a bigger file is not ours.
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export function createConnectionStore(dataDir: string, secrets: SecretStore): ConnectionStore {
  const path = dataFolder.connections(dataDir);
  let queue: Promise<unknown> = Promise.resolve();

  /** Writes are serialised so two saves never interleave their read-modify-write. */
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  function corrupt(reason: string): AppFailure {
    return new AppFailure(
      ErrorCodes.connectionsFileCorrupt,
      `DynoTable could not read your saved connections in ${path} (${reason}). The file was left as it is: fix it or move it away, then try again. The local playground still works.`,
    );
  }

  /**
   * An unreadable file is set aside (kept beside as connections.json.unreadable-<time>) and the
   * call that found it fails with the sentence, naming the connections it held; from then on the
   * list starts with the playground, and saving a connection cannot write over the kept file.
   */
  async function readStored(): Promise<StoredConnection[]> {
    try {
      const info = await stat(path);
      if (info.size > MAX_FILE_BYTES)
        throw corrupt(`it is ${info.size} bytes, far larger than a list of connections`);
    } catch (error) {
      if (isMissingFile(error)) return [];
      throw error;
    }
    const stored = await readDataFileOrFail(path, {
      what: 'Your saved connections',
      parse: (json) => fileSchema.parse(json).connections,
      held: (text) => {
        const labels = stringsNamed(text, 'label');
        return labels.length > 0
          ? `the connections ${labels.slice(0, 8).join(', ')}${labels.length > 8 ? ', …' : ''}`
          : undefined;
      },
      instead:
        'The local playground still works; add your connections again, or put the kept file back once it is fixed.',
    });
    return stored ?? [];
  }

  async function writeStored(connections: StoredConnection[]): Promise<void> {
    const body = JSON.stringify({ version: 1, connections }, null, 2);
    await writeFileAtomic(path, `${body}\n`, 0o600);
  }

  function playgroundFrom(stored: StoredConnection[]): Connection {
    const edited = stored.find((c) => c.id === PLAYGROUND_ID);
    if (!edited) return playgroundConnection;
    const { label, color, readOnly, isProduction } = edited;
    return { ...playgroundConnection, label, color, readOnly, isProduction };
  }

  async function withKeyFlag(connection: StoredConnection): Promise<Connection> {
    if (connection.kind !== 'keys') return connection;
    // An unreadable secret counts as "no keys": the user is asked to enter them again.
    const keys = await secrets.load(connection.id).catch(() => undefined);
    return { ...connection, hasStoredKeys: keys !== undefined };
  }

  function normalise(draft: ConnectionDraft, id: string): StoredConnection {
    if (id === PLAYGROUND_ID) {
      const { label, color, readOnly, isProduction } = draft;
      return { ...playgroundConnection, label, color, readOnly, isProduction };
    }
    if (draft.kind === 'playground') {
      throw new AppFailure(
        ErrorCodes.invalidInput,
        'There is only one local playground; it is already in the list.',
      );
    }
    if (draft.kind === 'profile' && !draft.profile) {
      throw new AppFailure(ErrorCodes.invalidInput, 'Choose the AWS profile this connection should use.');
    }
    const { profile, ...rest } = draft;
    return storedConnection.parse({ ...rest, id, ...(draft.kind === 'profile' ? { profile } : {}) });
  }

  async function get(id: string): Promise<Connection> {
    const { connectionId, region } = splitConnectionId(id);
    if (region !== undefined) {
      const inRegion = connectionInRegion(await get(connectionId), region);
      if (!inRegion)
        throw new AppFailure(
          ErrorCodes.invalidInput,
          `This connection cannot be used in ${region}: it has one region only, or that is not a region's name.`,
        );
      return inRegion;
    }
    // The playground opens whatever the file holds; one set aside on the way is still said.
    if (id === PLAYGROUND_ID)
      return playgroundFrom(
        await readStored().catch((error: unknown) => {
          if (setAsideNoticeOf(error)) throw error;
          return [];
        }),
      );
    const found = (await readStored()).find((c) => c.id === id);
    if (!found)
      throw new AppFailure(
        ErrorCodes.notFound,
        'That connection no longer exists. It may have been deleted in another window.',
      );
    return withKeyFlag(found);
  }

  return {
    async list() {
      const stored = await readStored();
      const others = stored.filter((c) => c.id !== PLAYGROUND_ID);
      return [playgroundFrom(stored), ...(await Promise.all(others.map(withKeyFlag)))];
    },

    get,

    save: (draft: ConnectionDraft, accessKeys?: AccessKeys) =>
      exclusive(async () => {
        const stored = await readStored();
        const isNew = !draft.id;
        const id = draft.id || randomUUID();
        if (!isNew && id !== PLAYGROUND_ID && !stored.some((c) => c.id === id)) {
          throw new AppFailure(
            ErrorCodes.notFound,
            'That connection no longer exists, so it was not saved. Create it again.',
          );
        }
        const next = normalise(draft, id);
        if (next.kind === 'keys') {
          // Keys first: if the keychain refuses them, no connection is left pointing at nothing.
          if (accessKeys) await secrets.save(id, accessKeys);
          else if (isNew || !(await secrets.load(id).catch(() => undefined))) {
            throw new AppFailure(
              ErrorCodes.invalidInput,
              'Enter the access key id and secret access key for this connection.',
            );
          }
        }
        const index = stored.findIndex((c) => c.id === id);
        try {
          await writeStored(
            index === -1 ? [...stored, next] : stored.map((c, i) => (i === index ? next : c)),
          );
        } catch (error) {
          if (isNew && accessKeys) await secrets.remove(id).catch(() => undefined);
          throw error;
        }
        if (next.kind !== 'keys') await secrets.remove(id);
        return id === PLAYGROUND_ID ? playgroundFrom([next]) : withKeyFlag(next);
      }),

    remove: (id: string) =>
      exclusive(async () => {
        if (id === PLAYGROUND_ID) {
          throw new AppFailure(
            ErrorCodes.forbidden,
            'The local playground is built in and cannot be deleted.',
          );
        }
        const stored = await readStored();
        if (!stored.some((c) => c.id === id)) return false;
        await writeStored(stored.filter((c) => c.id !== id));
        await secrets.remove(id);
        return true;
      }),
  };
}
