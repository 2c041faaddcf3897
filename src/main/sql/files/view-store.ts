import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import { type EntityView, entityViewSchema } from '../../../shared/sql/catalog';
import { writeFileAtomic } from '../../aws/atomic-file';
import { connectionFolder } from './connection-folder';

const fileSchema = z.object({ version: z.literal(1), views: z.array(entityViewSchema) });

function file(dataDir: string, connectionId: string): string {
  return path.join(connectionFolder(dataDir, connectionId), 'views.json');
}

/** User-defined entity views of a connection: views.json, a plain JSON file. */
export async function loadViews(dataDir: string, connectionId: string): Promise<EntityView[]> {
  let text: string;
  try {
    text = await readFile(file(dataDir, connectionId), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = fileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The entity views file ${file(dataDir, connectionId)} is not valid (${parsed.error.issues[0]?.message ?? 'unknown problem'}); fix or delete it.`,
    );
  }
  return parsed.data.views.map((v) => ({ ...v, source: 'user' as const }));
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
