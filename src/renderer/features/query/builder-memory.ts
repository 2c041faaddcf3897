import type { BuilderState } from './builder-state';

/**
 * Each table's query form as the user left it, keyed by itemsKey(connection, table): the Items
 * tab reopens on it (and reads with it), and the workspace snapshot saves it.
 */
const builders = new Map<string, BuilderState>();
const listeners = new Set<() => void>();

export function rememberedBuilder(key: string): BuilderState | undefined {
  return builders.get(key);
}

export function rememberBuilder(key: string, state: BuilderState): void {
  builders.set(key, state);
  for (const listener of listeners) listener();
}

export function onBuilderChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
