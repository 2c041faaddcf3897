import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { SetAsideNotice } from '../../shared/ipc/data-files';
import {
  type DataFileKind,
  type DataFileRead,
  readDataFile,
  readDataFileOrFail,
  setAsideFailure,
  summaryIdsNewestFirst,
} from '../core/data-files';
import type { CoreContext, ServiceSlot } from '../core/context';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import { dataFolder, type StoredJobKind } from '../files/data-folder';
import { convertLegacyJobs, type LegacyLayout } from './legacy-jobs';

export type JobState = 'running' | 'stopped' | 'complete';

/**
 * The one checkpoint record of every resumable job, at <data>/jobs/<kind>/<id>.json. The
 * envelope is the same for every kind, so a record can be listed, told from garbage and set
 * aside without knowing the job; `payload` is the job's own checkpoint, checked by its kind's
 * schema. `state: 'running'` with no entry in runningJobs() means the run was cut off.
 */
export interface JobRecord<T> {
  kind: StoredJobKind;
  id: string;
  version: 1;
  state: JobState;
  startedAt: string;
  updatedAt: string;
  payload: T;
}

const envelope = z.object({
  kind: z.string(),
  id: z.string(),
  version: z.literal(1),
  state: z.enum(['running', 'stopped', 'complete']),
  startedAt: z.string(),
  updatedAt: z.string(),
  payload: z.unknown(),
});

/** What one kind of job keeps: its ids, its payload's shape and the sentences about its files. */
export interface JobKindSpec<T> {
  kind: StoredJobKind;
  /** The ids this kind gives out; another is refused with `badId` before any path is built. */
  ids: RegExp;
  badId: (id: string) => string;
  /**
   * Checks a payload; only checked, never rebuilt from, so attribute names in it (start keys,
   * failures, mappings) stay exactly as written.
   */
  payload: z.ZodType;
  /** The envelope's fields, from the job's own checkpoint. */
  envelopeOf: (value: T) => { id: string; state: JobState; startedAt: string };
  /** "The checkpoint of copy X": the start of the sentence when the record cannot be read. */
  what: (id: string) => string;
  held: (text: string) => string | undefined;
  instead: string;
  /** Where and how the store of an earlier release kept this kind; read once and converted. */
  legacy?: LegacyLayout;
}

/** The checkpoint records and side files of every resumable job, one folder per kind. */
export class JobStore {
  private readonly conversions = new Map<StoredJobKind, Promise<Map<string, SetAsideNotice>>>();

  constructor(readonly dataDir: string) {}

  view<T>(spec: JobKindSpec<T>): JobView<T> {
    return new JobView(this, spec);
  }

  /**
   * Converts the old layout of these kinds into <data>/jobs/<kind>/, once, when the core starts
   * (createCore): every use of a kind waits for its conversion, so none reads a half-moved
   * folder. A checkpoint that does not read is set aside where it was; its sentence is kept for
   * the kind's first listing (or a resume of that job). Resolves when every kind is converted.
   */
  async convertLegacy(specs: readonly JobKindSpec<never>[]): Promise<void> {
    for (const spec of specs) {
      if (this.conversions.has(spec.kind) || !spec.legacy) continue;
      const conversion = convertLegacyJobs(this.dataDir, spec, (value) => this.view(spec).writeNow(value));
      // A conversion that failed (a folder it may not read) fails each use of its kind, not the start.
      conversion.catch(() => undefined);
      this.conversions.set(spec.kind, conversion);
    }
    await Promise.allSettled(this.conversions.values());
  }

  /** The kind's folder, once the conversion started for it (if any) is done. */
  async folder<T>(spec: JobKindSpec<T>): Promise<{ dir: string; setAside: Map<string, SetAsideNotice> }> {
    const conversion = this.conversions.get(spec.kind);
    return {
      dir: dataFolder.jobs(this.dataDir, spec.kind),
      setAside: conversion ? await conversion : new Map<string, SetAsideNotice>(),
    };
  }
}

/** The record kind of one job kind, for readDataFile: the envelope and the payload both checked. */
export function recordFile<T>(spec: JobKindSpec<T>, id: string): DataFileKind<T> {
  return {
    what: spec.what(id),
    parse: (json) => {
      const record = envelope.parse(json);
      if (record.kind !== spec.kind || record.id !== id)
        throw new Error(`It is the record of ${record.kind} ${record.id}, not of this job.`);
      spec.payload.parse(record.payload);
      return record.payload as T;
    },
    held: spec.held,
    instead: spec.instead,
  };
}

/** One kind's records: what the job stores (copy, table export, pre-flight, schema) are built on. */
export class JobView<T> {
  constructor(
    private readonly store: JobStore,
    readonly spec: JobKindSpec<T>,
  ) {}

  /** The id itself, once checked against the kind's ids. */
  checked(id: string): string {
    if (!this.spec.ids.test(id)) throw new AppFailure(ErrorCodes.invalidInput, this.spec.badId(id));
    return id;
  }

  /** `<id><suffix>` in the kind's folder: the record (`.json`) or a side file (a spool, a report). */
  async file(id: string, suffix = '.json'): Promise<string> {
    await this.store.folder(this.spec);
    return this.pathOf(id, suffix);
  }

  private pathOf(id: string, suffix: string): string {
    return path.join(dataFolder.jobs(this.store.dataDir, this.spec.kind), `${this.checked(id)}${suffix}`);
  }

  async write(value: T): Promise<void> {
    await this.store.folder(this.spec);
    await this.writeNow(value);
  }

  /** Writes without waiting for the old layout's conversion: what the conversion itself writes with. */
  async writeNow(value: T): Promise<void> {
    const { id, state, startedAt } = this.spec.envelopeOf(value);
    const record: JobRecord<T> = {
      kind: this.spec.kind,
      id,
      version: 1,
      state,
      startedAt,
      updatedAt: new Date().toISOString(),
      payload: value,
    };
    await writeFileAtomic(this.pathOf(id, '.json'), JSON.stringify(record));
  }

  /** The checkpoint, missing, or set aside with its sentence (now, or when the old layout was converted). */
  async read(id: string): Promise<DataFileRead<T>> {
    const { setAside } = await this.store.folder(this.spec);
    const read = await readDataFile(await this.file(id), recordFile(this.spec, id));
    const converted = setAside.get(id);
    return read.state === 'missing' && converted ? { state: 'setAside', notice: converted } : read;
  }

  /** The checkpoint; a missing one is NotFound with `missing`, an unreadable one DataFileSetAside. */
  async load(id: string, missing: string): Promise<T> {
    const read = await this.read(id);
    if (read.state === 'setAside') throw setAsideFailure(read.notice);
    if (read.state === 'missing') throw new AppFailure(ErrorCodes.notFound, missing);
    return read.value;
  }

  /** Forgets a job: its record and the named side files go. True when there was a record. */
  async forget(id: string, sides: string[] = []): Promise<boolean> {
    for (const suffix of sides) await rm(await this.file(id, suffix), { force: true });
    try {
      await rm(await this.file(id));
      return true;
    } catch (error) {
      if (isMissingFile(error)) return false;
      throw error;
    }
  }

  /** Every record of the kind; an unreadable one is set aside and named in `setAside`, the rest listed. */
  async list(): Promise<{ records: T[]; setAside: SetAsideNotice[] }> {
    const { dir, setAside: converted } = await this.store.folder(this.spec);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      names = [];
    }
    const records: T[] = [];
    const setAside = [...converted.values()];
    converted.clear();
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      // A name no job of this kind can have was not written by DynoTable: not ours to read or move.
      if (!this.spec.ids.test(id)) continue;
      const read = await readDataFile(path.join(dir, name), recordFile(this.spec, id));
      if (read.state === 'setAside') setAside.push(read.notice);
      if (read.state === 'read') records.push(read.value);
    }
    return { records, setAside };
  }

  /** The ids that have a `<id><suffix>` side file, newest first (ids begin with their time). */
  async idsWith(suffix: string): Promise<string[]> {
    const { dir } = await this.store.folder(this.spec);
    return (await summaryIdsNewestFirst(dir, suffix)).filter((id) => this.spec.ids.test(id));
  }

  /** A side file (a summary, a report): missing is undefined, unreadable is set aside and fails. */
  async readSide<S>(id: string, suffix: string, kind: DataFileKind<S>): Promise<S | undefined> {
    return readDataFileOrFail(await this.file(id, suffix), kind);
  }

  async writeSide(id: string, suffix: string, value: unknown): Promise<void> {
    await writeFileAtomic(await this.file(id, suffix), JSON.stringify(value));
  }
}

/** Every resumable job's checkpoint records, under <data>/jobs/. */
const jobStoreSlot: ServiceSlot<JobStore> = {
  name: 'jobStore',
  create: (ctx) => new JobStore(ctx.dataDir),
  isUsableWhenClosed: true,
};

export function jobStore(ctx: CoreContext): JobStore {
  return ctx.services.get(jobStoreSlot);
}
