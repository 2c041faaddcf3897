import { create } from 'zustand';
import type { AppError, ChannelInput, ChannelOutput, Connection, ProfileSummary } from '../../../shared/ipc';
import { call } from '../../ipc/client';
// One of the two two-way feature pairs left (the import check allows three): a saved or removed
// connection must drop the table lists and descriptions read with its old settings, and the table
// admin's "start from" lists the connections. A shared layer in between would only forward the same
// two calls.
import { useTablesStore } from '../tables/store';
import { useWorkspaceStore } from '../workspace/store';
import { useRegionListStore } from '../tables/region-store';

export type PlaygroundStatus = ChannelOutput<'playground:status'>;
export type TestResult = ChannelOutput<'connections:test'>;
export type SaveConnectionInput = ChannelInput<'connections:save'>;

export const playgroundColor = '#2da44e';

interface ConnectionsStore {
  connections: Connection[];
  isLoading: boolean;
  loadError?: AppError;
  profiles?: ProfileSummary[];
  profilesError?: AppError;
  playground: PlaygroundStatus;
  playgroundError?: AppError;
  isPlaygroundStarting: boolean;
  /** Per connection id: the last "Test connection" answer, or "pending". */
  tests: Record<string, TestResult | 'pending'>;
  load(): Promise<void>;
  loadProfiles(): Promise<void>;
  save(input: SaveConnectionInput): Promise<{ connection?: Connection; error?: AppError }>;
  remove(id: string): Promise<AppError | undefined>;
  test(id: string): Promise<void>;
  refreshPlayground(): Promise<void>;
  /** Starts DynamoDB Local and returns the playground connection to open, or undefined on failure. */
  startPlayground(): Promise<Connection | undefined>;
}

function sortConnections(list: Connection[]): Connection[] {
  return [...list].sort((a, b) => a.label.localeCompare(b.label));
}

export const useConnectionsStore = create<ConnectionsStore>()((set, get) => ({
  connections: [],
  // True until the first list arrives, so the picker never flashes "No saved connections".
  isLoading: true,
  playground: { state: 'stopped' },
  isPlaygroundStarting: false,
  tests: {},

  async load() {
    set({ isLoading: true });
    const envelope = await call('connections:list', {});
    if (envelope.ok)
      set({ connections: sortConnections(envelope.value), isLoading: false, loadError: undefined });
    else set({ isLoading: false, loadError: envelope.error });
  },

  async loadProfiles() {
    const envelope = await call('connections:profiles', {});
    if (envelope.ok) set({ profiles: envelope.value, profilesError: undefined });
    else set({ profiles: [], profilesError: envelope.error });
  },

  async save(input) {
    const envelope = await call('connections:save', input);
    if (!envelope.ok) return { error: envelope.error };
    const saved = envelope.value;
    // Region, endpoint or credentials may have changed: nothing shown for it is current any more.
    useTablesStore.getState().invalidate(saved.id);
    set((state) => {
      // An edited connection's earlier test answer no longer describes it.
      const { [saved.id]: _stale, ...tests } = state.tests;
      return {
        connections: sortConnections([...state.connections.filter((c) => c.id !== saved.id), saved]),
        tests,
      };
    });
    return { connection: saved };
  },

  async remove(id) {
    const envelope = await call('connections:delete', { connectionId: id });
    if (!envelope.ok) return envelope.error;
    set((state) => ({ connections: state.connections.filter((c) => c.id !== id) }));
    useWorkspaceStore.getState().forgetConnection(id);
    useRegionListStore.getState().forgetChoice(id);
    useTablesStore.getState().invalidate(id);
    return undefined;
  },

  async test(id) {
    set((state) => ({ tests: { ...state.tests, [id]: 'pending' } }));
    const envelope = await call('connections:test', { connectionId: id });
    const result: TestResult = envelope.ok
      ? envelope.value
      : { ok: false, message: envelope.error.message, errorCode: envelope.error.code };
    set((state) => ({ tests: { ...state.tests, [id]: result } }));
  },

  async refreshPlayground() {
    const envelope = await call('playground:status', {});
    if (envelope.ok) set({ playground: envelope.value });
  },

  async startPlayground() {
    if (get().isPlaygroundStarting) return undefined;
    set({
      isPlaygroundStarting: true,
      playgroundError: undefined,
      playground: { ...get().playground, state: 'starting' },
    });
    const envelope = await call('playground:start', {});
    if (!envelope.ok) {
      set({ isPlaygroundStarting: false, playgroundError: envelope.error, playground: { state: 'failed' } });
      return undefined;
    }
    set({ playground: envelope.value });
    if (envelope.value.state !== 'running') {
      set({ isPlaygroundStarting: false });
      return undefined;
    }
    const connection = await ensurePlaygroundConnection(get);
    set({ isPlaygroundStarting: false });
    return connection;
  },
}));

/** Main may list a built-in playground connection; when it does not, save one the first time. */
async function ensurePlaygroundConnection(get: () => ConnectionsStore): Promise<Connection | undefined> {
  await get().load();
  const existing = get().connections.find((c) => c.kind === 'playground');
  if (existing) return existing;
  const { connection, error } = await get().save({
    connection: {
      label: 'Local playground',
      color: playgroundColor,
      kind: 'playground',
      region: 'local',
      readOnly: false,
      isProduction: false,
    },
  });
  if (error) useConnectionsStore.setState({ playgroundError: error });
  return connection;
}
