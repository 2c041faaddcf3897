import path from 'node:path';
import { z } from 'zod';
import { type EntityView, entityViewSchema } from '../../../shared/sql/catalog';
import { writeFileAtomic } from '../../files/atomic-file';
import { readDataFileOrFail, stringsNamed } from '../../core/data-files';
import { connectionFolder } from './connection-folder';

const fileSchema = z.object({ version: z.literal(1), views: z.array(entityViewSchema) });

function file(dataDir: string, connectionId: string): string {
  return path.join(connectionFolder(dataDir, connectionId), 'views.json');
}

/**
 * User-defined entity views of a connection: views.json, a plain JSON file. An unreadable one is
 * set aside and this call fails with the sentence; the next finds none, and a save starts afresh.
 */
export async function loadViews(dataDir: string, connectionId: string): Promise<EntityView[]> {
  const views = await readDataFileOrFail(file(dataDir, connectionId), {
    what: 'Your entity views',
    parse: (json) => fileSchema.parse(json).views,
    held: (text) => {
      const names = stringsNamed(text, 'name');
      return names.length > 0
        ? `the views ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`
        : undefined;
    },
    instead: 'SQL goes on without them; define them again or restore the kept file.',
  });
  return (views ?? []).map((v) => ({ ...v, source: 'user' as const }));
}

async function store(dataDir: string, connectionId: string, views: EntityView[]): Promise<void> {
  await writeFileAtomic(
    file(dataDir, connectionId),
    `${JSON.stringify({ version: 1, views }, null, 2)}\n`,
    0o644,
  );
}

export async function saveView(
  dataDir: string,
  connectionId: string,
  view: Omit<EntityView, 'source' | 'share'>,
): Promise<EntityView[]> {
  const views = (await loadViews(dataDir, connectionId)).filter(
    (v) => v.name.toLowerCase() !== view.name.toLowerCase() || v.table !== view.table,
  );
  views.push({ ...view, source: 'user' });
  views.sort((a, b) => a.name.localeCompare(b.name));
  await store(dataDir, connectionId, views);
  return views;
}

export async function deleteView(dataDir: string, connectionId: string, name: string): Promise<EntityView[]> {
  const views = await loadViews(dataDir, connectionId);
  const kept = views.filter((v) => v.name !== name);
  if (kept.length !== views.length) await store(dataDir, connectionId, kept);
  return kept;
}
