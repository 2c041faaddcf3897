/**
 * The workbench's statement tabs as plain data: ids, titles and text, nothing else. This is the
 * part of the SQL store that is worth persisting (results stay in main and are not).
 */
export interface SqlDocument {
  id: string;
  title: string;
  text: string;
}

export interface SqlDocuments {
  tabs: SqlDocument[];
  active: string;
}

export const STARTER = `-- Ctrl/Cmd+Enter runs the statement under the cursor (or the selection).
SELECT *
FROM `;

let counter = 0;
/** Unique across reloads too: persisted tabs keep their ids. */
export function newTabId(): string {
  counter += 1;
  return `q-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

function nextTitle(tabs: readonly SqlDocument[]): string {
  const taken = new Set(tabs.map((t) => t.title));
  let n = 1;
  while (taken.has(`Query ${n}`)) n += 1;
  return `Query ${n}`;
}

export function initialDocuments(id = newTabId()): SqlDocuments {
  return { tabs: [{ id, title: 'Query 1', text: STARTER }], active: id };
}

export function activeDocument(docs: SqlDocuments): SqlDocument {
  return docs.tabs.find((t) => t.id === docs.active) ?? docs.tabs[0]!;
}

export function addTab(docs: SqlDocuments, id = newTabId(), text = ''): SqlDocuments {
  return { tabs: [...docs.tabs, { id, title: nextTitle(docs.tabs), text }], active: id };
}

/** Closing the active tab moves to its left neighbour (the right one for the first); the last tab is replaced by a fresh one. */
export function closeTab(docs: SqlDocuments, id: string, freshId = newTabId()): SqlDocuments {
  const index = docs.tabs.findIndex((t) => t.id === id);
  if (index < 0) return docs;
  const tabs = docs.tabs.filter((t) => t.id !== id);
  if (tabs.length === 0) return { tabs: [{ id: freshId, title: 'Query 1', text: '' }], active: freshId };
  const active = docs.active === id ? tabs[Math.max(0, index - 1)]!.id : docs.active;
  return { tabs, active };
}

/** A blank title keeps the old one: a tab always has a name to be found by. */
export function renameTab(docs: SqlDocuments, id: string, title: string): SqlDocuments {
  const name = title.trim().slice(0, 60);
  if (!name) return docs;
  return { ...docs, tabs: docs.tabs.map((t) => (t.id === id ? { ...t, title: name } : t)) };
}

export function setTabText(docs: SqlDocuments, id: string, text: string): SqlDocuments {
  return { ...docs, tabs: docs.tabs.map((t) => (t.id === id ? { ...t, text } : t)) };
}

export function activateTab(docs: SqlDocuments, id: string): SqlDocuments {
  return docs.tabs.some((t) => t.id === id) ? { ...docs, active: id } : docs;
}

/** A restored value is used only if it has the shape above; anything else starts fresh. */
export function isSqlDocuments(value: unknown): value is SqlDocuments {
  if (typeof value !== 'object' || value === null) return false;
  const { tabs, active } = value as { tabs?: unknown; active?: unknown };
  return (
    Array.isArray(tabs) &&
    tabs.length > 0 &&
    typeof active === 'string' &&
    tabs.every(
      (t: unknown) =>
        typeof t === 'object' &&
        t !== null &&
        typeof (t as SqlDocument).id === 'string' &&
        typeof (t as SqlDocument).title === 'string' &&
        typeof (t as SqlDocument).text === 'string',
    )
  );
}
