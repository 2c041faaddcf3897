import { create } from 'zustand';
import type { AppError } from '../../../shared/ipc';
import type { SqlAssistInput, SqlAssistResult } from '../../../shared/ipc/sql-assist';
import { call } from '../../ipc/client';
import { cancelLongWork, startLongWork } from '../operations/long-work';

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
      const stopped = { requestId: undefined, status: undefined };
      const work = startLongWork(
        'sql:assist',
        { connectionId: id, includeSamples: tab(id).includeSamples, ...task },
        {
          prefix: 'assist',
          onProgress: (progress) => update(id, { status: progress.message }),
          onEnd: (ending) => {
            if (ending.type === 'done') update(id, { ...stopped, result: ending.value });
            else if (ending.type === 'failed') update(id, { ...stopped, error: ending.error });
            else update(id, stopped);
          },
        },
      );
      update(id, {
        requestId: work.requestId,
        task: task.task,
        baseline: task.statement,
        error: undefined,
        result: undefined,
        status: 'Starting…',
      });
      await work.started;
    },
    async cancel(id) {
      const requestId = tab(id).requestId;
      if (requestId) await cancelLongWork(requestId);
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
