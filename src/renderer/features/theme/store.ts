import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
const storageKey = 'dynotable.theme';

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(storageKey);
    if (stored === 'light' || stored === 'dark' || stored === 'system') return stored;
  } catch {
    // Storage can be unavailable (private windows); the system theme is a fine default.
  }
  return 'system';
}

/** Applies the choice as data-theme, which sets color-scheme; without it CSS follows the system. */
function apply(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

interface ThemeStore {
  choice: ThemeChoice;
  cycle(): void;
  set(choice: ThemeChoice): void;
}

export const useThemeStore = create<ThemeStore>()((set, get) => ({
  choice: readChoice(),
  cycle() {
    const order: ThemeChoice[] = ['system', 'light', 'dark'];
    const next = order[(order.indexOf(get().choice) + 1) % order.length] ?? 'system';
    get().set(next);
  },
  set(choice) {
    apply(choice);
    try {
      localStorage.setItem(storageKey, choice);
    } catch {
      // Not persisting is acceptable; the choice still holds for this session.
    }
    set({ choice });
  },
}));

export function applyStoredTheme(): void {
  apply(useThemeStore.getState().choice);
}
