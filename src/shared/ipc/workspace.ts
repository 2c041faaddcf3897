import { z } from 'zod';
import { REGION_NAME } from '../dynamo/regions';
import { setAsideNoticeSchema } from './data-files';

/**
 * The workspace as the user left it (workspace:load / workspace:save): the open connection, its
 * tabs, each table's view and query form, the SQL editor's text. Never credentials and never item
 * data: the form holds what the user typed, the text what they wrote. Table names are values in
 * arrays, not keys, since `__proto__` is a legal table name.
 */
const formField = z.union([
  z.string().max(100_000),
  z.boolean(),
  z.array(z.record(z.string(), z.string().max(100_000))).max(100),
]);

export const tableTabSchema = z.object({
  name: z.string().min(1).max(255),
  /** The view chosen inside the table (Overview, Items, …). */
  view: z.string().max(64).optional(),
  /** The Items tab's query form as typed. */
  form: z.record(z.string(), formField).optional(),
});

export const connectionWorkspaceSchema = z.object({
  connectionId: z.string().min(1).max(200),
  tables: z.array(tableTabSchema).max(200),
  /** The active tab's id: home, table:<name> or tool:<id>. */
  active: z.string().max(300),
  /** The regions the table list shows, as the user chose them (AWS connections only). */
  regions: z.array(z.string().max(40)).max(64).optional(),
  /**
   * The region the SQL tab reads when the user chose another than the connection's own: it then
   * works through `<id>@<region>`, whose statement tabs are saved as that id's entry.
   */
  sqlRegion: z.string().regex(REGION_NAME).optional(),
  /** The SQL workbench's statement tabs: titles and text. */
  sql: z
    .object({
      tabs: z
        .array(
          z.object({ id: z.string().max(100), title: z.string().max(200), text: z.string().max(1_000_000) }),
        )
        .min(1)
        .max(100),
      active: z.string().max(100),
    })
    .optional(),
});

export const workspaceSnapshotSchema = z.object({
  version: z.literal(1),
  activeConnectionId: z.string().max(200).optional(),
  connections: z.array(connectionWorkspaceSchema).max(100),
});
export type WorkspaceSnapshot = z.infer<typeof workspaceSnapshotSchema>;
export type ConnectionWorkspace = z.infer<typeof connectionWorkspaceSchema>;

export const workspaceChannels = {
  /**
   * The workspace saved last, or null on a first start. An unreadable file is set aside (kept,
   * renamed) and `setAside` says so; the snapshot is then null and the next save starts afresh.
   */
  'workspace:load': {
    input: z.object({}).strict(),
    output: z.object({
      snapshot: workspaceSnapshotSchema.nullable(),
      setAside: setAsideNoticeSchema.optional(),
    }),
  },
  /** Replaces the saved workspace; the renderer sends it a moment after each change. */
  'workspace:save': {
    input: z.object({ snapshot: workspaceSnapshotSchema }),
    output: z.object({ saved: z.boolean() }),
  },
} as const;
