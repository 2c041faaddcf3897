import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import {
  type SqlAssistInput,
  type SqlAssistResult,
  sqlAssistResultSchema,
} from '../../../shared/ipc/sql-assist';
import { call, newRequestId } from '../../ipc/client';
import { onOperation } from '../operations/store';

export interface AssistTab {
  question: string;
  /** Send sample values too (per connection, remembered on this machine; off by default). */
  includeSamples: boolean;
  requestId?: string;
  task?: SqlAssistInput['task'];
  /** The statement the request was about: what a proposal's diff is drawn against. */
  baseline?: string;
  status?: string;
  result?: SqlAssistResult;
  error?: AppError;
  /** What would be sent about the catalog, loaded on request. */
  context?: { system: string; context: string };
  contextError?: AppError;
}

const SAMPLES_KEY = 'dynotable.sql.assistSamples';

function rememberedSamples(): Record<string, boolean> {
  try {
    return JSON.parse(localStorage.getItem(SAMPLES_KEY) ?? '{}') as Record<string, boolean>;
  } catch {
    return {};
  }
}

const emptyAssist = (connectionId: string): AssistTab => ({
  question: '',
  includeSamples: typeof localStorage === 'undefined' ? false : rememberedSamples()[connectionId] === true,
});

type Task = Omit<SqlAssistInput, 'connectionId' | 'requestId' | 'includeSamples'>;

interface AssistStore {
  tabs: Record<string, AssistTab>;
  update(connectionId: string, change: Partial<AssistTab>): void;
  setSamples(connectionId: string, includeSamples: boolean): void;
  start(connectionId: string, task: Task): Promise<void>;
  cancel(connectionId: string): Promise<void>;
  discard(connectionId: string): void;
  loadContext(connectionId: string): Promise<void>;
}

/** Ask / Fix / Explain of the SQL workbench, per connection: the question, the proposal, its state. */
export const useAssistStore = create<AssistStore>()((set, get) => {
  const tab = (id: string): AssistTab => get().tabs[id] ?? emptyAssist(id);
  const update = (id: string, change: Partial<AssistTab>): void =>
    set((state) => ({
      tabs: { ...state.tabs, [id]: { ...(state.tabs[id] ?? emptyAssist(id)), ...change } },
    }));
  return {
    tabs: {},
    update,
    setSamples(id, includeSamples) {
      const all = rememberedSamples();
      all[id] = includeSamples;
      localStorage.setItem(SAMPLES_KEY, JSON.stringify(all));
      update(id, { includeSamples, context: undefined });
    },
    async start(id, task) {
      if (tab(id).requestId) return;
      const requestId = newRequestId('assist');
      update(id, {
        requestId,
        task: task.task,
        baseline: task.statement,
        error: undefined,
        result: undefined,
        status: 'Starting…',
      });
      const stop = onOperation(requestId, (event) => {
        if (event.type === 'progress') update(id, { status: event.progress.message });
        else if (event.type === 'done') {
          const parsed = sqlAssistResultSchema.safeParse(event.value);
          update(id, {
            requestId: undefined,
            status: undefined,
            result: parsed.success ? parsed.data : undefined,
          });
        } else if (event.type === 'error')
          update(id, { requestId: undefined, status: undefined, error: event.error });
        else if (event.type === 'cancelled') update(id, { requestId: undefined, status: undefined });
        if (event.type === 'done' || event.type === 'error' || event.type === 'cancelled') stop();
      });
      const started = await call('sql:assist', {
        connectionId: id,
        requestId,
        includeSamples: tab(id).includeSamples,
        ...task,
      });
      if (!started.ok) {
        stop();
        update(id, { requestId: undefined, status: undefined, error: started.error });
      }
    },
    async cancel(id) {
      const requestId = tab(id).requestId;
      if (requestId) await call('ops:cancel', { requestId });
    },
    discard: (id) => update(id, { result: undefined, error: undefined }),
    async loadContext(id) {
      const result = await call('sql:assistContext', {
        connectionId: id,
        includeSamples: tab(id).includeSamples,
      });
      if (result.ok) update(id, { context: result.value, contextError: undefined });
      else update(id, { contextError: result.error });
    },
  };
});

export function useAssistTab(connectionId: string): AssistTab {
  return useAssistStore((state) => state.tabs[connectionId]) ?? emptyAssist(connectionId);
}
