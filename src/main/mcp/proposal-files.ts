import { open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { attributeValueSchema, itemSchema } from '../../shared/dynamo/attribute-value';
import { parseKeepingProtoKeys } from '../../shared/dynamo/proto-keys';
import type { ProposedWrite } from '../agent/proposed-write';
import { isRunning } from '../core/data-files';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import { dataFolder } from '../files/data-folder';

/** A running app rewrites its heartbeat this often; older than STALE_AFTER_MS, no app is there. */
export const HEARTBEAT_MS = 5_000;
const STALE_AFTER_MS = 3 * HEARTBEAT_MS;
const HEARTBEAT = 'app.heartbeat.json';

/**
 * The mailbox between `dynotable mcp` (stdio, started by a coding agent) and the running app,
 * which share the data folder: the stdio server leaves a proposal here, the app shows it and, on
 * approval, writes it and leaves the decision. Whoever decides first (the app, the client's
 * elicitation, the stdio server's timeout) creates `<id>.claimed` exclusively; the others then
 * stand back. Every file is written atomically, so a reader never meets half of one.
 */
export const proposalsDir = (dataDir: string): string => dataFolder.mcpProposals(dataDir);
const proposalFile = (dir: string, id: string) => join(dir, `${id}.proposal.json`);
const decisionFile = (dir: string, id: string) => join(dir, `${id}.decision.json`);
const claimFile = (dir: string, id: string) => join(dir, `${id}.claimed`);
const PROPOSAL_NAME = /^(appr_[0-9a-f-]{36})\.proposal\.json$/;

const tableName = z.string().min(1).max(255);
const conditionFields = {
  TableName: tableName,
  ConditionExpression: z.string().optional(),
  ExpressionAttributeNames: z.record(z.string(), z.string()).optional(),
  ExpressionAttributeValues: itemSchema.optional(),
  ReturnValues: z.literal('ALL_OLD').optional(),
  ReturnValuesOnConditionCheckFailure: z.literal('ALL_OLD').optional(),
};
/** The requests propose_changes plans, field by field: what the app shows is all it sends. */
const requestSchema = z.discriminatedUnion('operation', [
  z.object({
    operation: z.literal('PutItem'),
    input: z.strictObject({ ...conditionFields, Item: itemSchema }),
  }),
  z.object({
    operation: z.literal('UpdateItem'),
    input: z.strictObject({ ...conditionFields, Key: itemSchema, UpdateExpression: z.string() }),
  }),
  z.object({
    operation: z.literal('DeleteItem'),
    input: z.strictObject({ ...conditionFields, Key: itemSchema }),
  }),
]);
const writeSchema = z.object({
  table: tableName,
  key: itemSchema,
  seen: itemSchema.nullable(),
  kind: z.enum(['create', 'update', 'delete']),
  request: requestSchema,
  effect: z.discriminatedUnion('type', [
    z.object({ type: z.literal('put'), item: itemSchema }),
    z.object({ type: z.literal('delete') }),
    z.object({
      type: z.literal('update'),
      set: z.array(z.object({ path: z.array(z.string()), value: attributeValueSchema })),
      remove: z.array(z.array(z.string())),
    }),
  ]),
});

const proposalSchema = z.object({
  id: z.string().regex(/^appr_[0-9a-f-]{36}$/),
  /** The stdio server's process: a proposal of a process that ended is dropped. */
  pid: z.number().int().positive(),
  connectionId: z.string().min(1).max(64),
  connectionLabel: z.string(),
  client: z.string(),
  /** The server's table allow-list (--tables), checked again when the app writes. */
  tables: z.array(tableName),
  reason: z.string(),
  summary: z.string(),
  at: z.string(),
  expiresAt: z.string(),
  writes: z.array(writeSchema).min(1).max(100),
}) satisfies z.ZodType<{ writes: ProposedWrite[] }>;

/** A proposal as the stdio server leaves it for the app. */
export type StdioProposal = Omit<z.infer<typeof proposalSchema>, 'writes'> & { writes: ProposedWrite[] };

const decisionSchema = z.object({
  approved: z.boolean(),
  /** Per write, when the app wrote them: "written", or why not. */
  outcomes: z.array(z.string()).optional(),
  summary: z.string().optional(),
  /** The sentence the agent is given when the app could not write at all. */
  error: z.string().optional(),
});
export type StdioDecision = z.infer<typeof decisionSchema>;

const heartbeatSchema = z.object({ pid: z.number().int().positive(), at: z.number() });

export function writeProposal(dir: string, proposal: StdioProposal): Promise<void> {
  return writeFileAtomic(proposalFile(dir, proposal.id), JSON.stringify(proposal));
}

async function readJson<T>(path: string, parse: (json: unknown) => T): Promise<T | undefined> {
  try {
    return parse(JSON.parse(await readFile(path, 'utf8')));
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw error;
  }
}

/** The proposal with that id, undefined when it is gone; throws when it is not one we wrote. */
export function readProposal(dir: string, id: string): Promise<StdioProposal | undefined> {
  // Attribute names are data: a `__proto__` attribute stays one through the schema.
  return readJson(proposalFile(dir, id), (json) => parseKeepingProtoKeys(proposalSchema, json));
}

/** The ids of the proposals waiting in the folder (none when there is no folder yet). */
export async function proposalIds(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((error: unknown) => {
    if (isMissingFile(error)) return [];
    throw error;
  });
  return names.flatMap((name) => PROPOSAL_NAME.exec(name)?.[1] ?? []);
}

/** The first decider wins: true when this caller created the claim, false when someone had. */
export async function claim(dir: string, id: string, by: string): Promise<boolean> {
  try {
    const handle = await open(claimFile(dir, id), 'wx', 0o600);
    await handle.writeFile(by);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}

/** Someone decided it (and may be writing it now). */
export async function isClaimed(dir: string, id: string): Promise<boolean> {
  try {
    await stat(claimFile(dir, id));
    return true;
  } catch (error) {
    if (isMissingFile(error)) return false;
    throw error;
  }
}

export function writeDecision(dir: string, id: string, decision: StdioDecision): Promise<void> {
  return writeFileAtomic(decisionFile(dir, id), JSON.stringify(decision));
}

export function readDecision(dir: string, id: string): Promise<StdioDecision | undefined> {
  return readJson(decisionFile(dir, id), (json) => decisionSchema.parse(json));
}

/** Removes a proposal with its claim and decision: it waits no more. */
export async function removeProposal(dir: string, id: string): Promise<void> {
  await rm(proposalFile(dir, id), { force: true });
  await rm(decisionFile(dir, id), { force: true });
  await rm(claimFile(dir, id), { force: true });
}

/** The app says it is there to show proposals. */
export function writeHeartbeat(dir: string): Promise<void> {
  return writeFileAtomic(join(dir, HEARTBEAT), JSON.stringify({ pid: process.pid, at: Date.now() }));
}

/** When the app quits: its heartbeat goes, unless another app (desktop next to `serve`) wrote it since. */
export async function removeHeartbeat(dir: string): Promise<void> {
  const beat = await readJson(join(dir, HEARTBEAT), (json) => heartbeatSchema.parse(json)).catch(
    () => undefined,
  );
  if (beat?.pid === process.pid) await rm(join(dir, HEARTBEAT), { force: true });
}

/** True while an app (desktop, or browser mode) runs on this data folder and reads proposals. */
export async function isAppWatching(dir: string): Promise<boolean> {
  const beat = await readJson(join(dir, HEARTBEAT), (json) => heartbeatSchema.parse(json)).catch(
    () => undefined,
  );
  return beat !== undefined && Date.now() - beat.at < STALE_AFTER_MS && isRunning(beat.pid);
}

/** A proposal whose stdio server ended, or long past its time: nobody waits for its answer. */
export function isAbandoned(proposal: StdioProposal): boolean {
  return !isRunning(proposal.pid) || Date.parse(proposal.expiresAt) + 60_000 < Date.now();
}
