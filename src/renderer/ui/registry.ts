/**
 * A list that features register entries into from above (shell/), so the feature that shows the
 * entries imports none of the features that provide them. A second registration of an id
 * replaces the first, so a hot reload cannot double an entry.
 */
export interface Registry<T extends { id: string }> {
  register: (entries: T[]) => void;
  /** What is registered now, in registration order. */
  entries: () => readonly T[];
}

export function createRegistry<T extends { id: string }>(): Registry<T> {
  const registered: T[] = [];
  return {
    register(entries) {
      for (const entry of entries) {
        const at = registered.findIndex((known) => known.id === entry.id);
        if (at >= 0) registered.splice(at, 1, entry);
        else registered.push(entry);
      }
    },
    entries: () => registered,
  };
}
