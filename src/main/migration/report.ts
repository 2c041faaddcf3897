import type { KeySchema } from '../../shared/ipc/tables';
import type {
  DateAttributeFinding,
  DottedAttributeFinding,
  MigrationReport,
} from '../../shared/ipc/migration';
import type { DatePathStats, FindingsState } from '../schema/findings';
import { isTimeName } from '../../shared/schema/time-names';
import { toPlainKey } from './samples';
import { verdictOf } from './verdict';
import { trapFindings } from './trap-report';

export interface TableKeyInfo {
  keys: KeySchema;
  /** Key attribute name → the indexes (GSI/LSI) that use it as a key. */
  indexKeys: Record<string, string[]>;
  /** The TTL attribute while TTL is on. */
  ttlAttribute?: string;
}

export interface ReportMeta {
  scanId: string;
  table: string;
  startedAt: string;
  finishedAt: string;
  complete: boolean;
  segments: number;
  tableItemCount: number;
  consumedReadCapacity: number;
  throttledRequests?: number;
}

export function tableKeyAttributes(info: TableKeyInfo): string[] {
  const names = [info.keys.partitionKey.name];
  if (info.keys.sortKey) names.push(info.keys.sortKey.name);
  return names;
}

/**
 * A path is reported when it holds ISO strings, or when its name says it is a time and it holds
 * epoch numbers. Epoch-sized numbers elsewhere (a price of 1700000000) are not Dates.
 */
function isDatePath(p: DatePathStats): boolean {
  return p.iso > 0 || ((p.epochMillis > 0 || p.epochSeconds > 0) && isTimeName(p.name));
}

export function dateFindings(state: FindingsState, info: TableKeyInfo): DateAttributeFinding[] {
  const keyNames = new Set(tableKeyAttributes(info));
  const out: DateAttributeFinding[] = [];
  for (const [path, p] of Object.entries(state.paths)) {
    if (!isDatePath(p)) continue;
    const kinds = (p.iso > 0 ? 1 : 0) + (p.epochMillis > 0 ? 1 : 0) + (p.epochSeconds > 0 ? 1 : 0);
    out.push({
      path,
      iso: p.iso,
      isoDateOnly: p.isoDateOnly,
      epochMillis: p.epochMillis,
      epochSeconds: p.epochSeconds,
      mixed: kinds > 1,
      ...(p.setMembers ? { setMembers: p.setMembers } : {}),
      isKey: p.depth === 1 && keyNames.has(p.top),
      indexKeyOf: p.depth === 1 ? (info.indexKeys[p.top] ?? []) : [],
      timeNamed: isTimeName(p.name),
      // ISO first: those are what a fix or a setting is about.
      sampleKeys: [...p.samples.iso, ...p.samples.millis, ...p.samples.seconds].map((s) => toPlainKey(s.key)),
      sampleKeysByKind: {
        iso: p.samples.iso.map((s) => toPlainKey(s.key)),
        epochMillis: p.samples.millis.map((s) => toPlainKey(s.key)),
        epochSeconds: p.samples.seconds.map((s) => toPlainKey(s.key)),
      },
    });
  }
  // Mixed paths first (they need a data fix), then the rest by path, so reports diff cleanly.
  return out.sort(
    (a, b) => Number(b.mixed) - Number(a.mixed) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

export function dottedFindings(state: FindingsState): DottedAttributeFinding[] {
  return Object.entries(state.dotted)
    .map(([name, d]) => ({
      name,
      items: d.items,
      parentMissing: d.parentMissing,
      sameAsNested: d.sameAsNested,
      differsFromNested: d.differsFromNested,
      missingParentMap: d.missingParentMap,
      parentNotMap: d.parentNotMap,
      sampleKeys: d.samples.map((s) => toPlainKey(s.key)),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function buildReport(state: FindingsState, info: TableKeyInfo, meta: ReportMeta): MigrationReport {
  const dottedAttributes = dottedFindings(state);
  const dateAttributes = dateFindings(state, info);
  const findings = trapFindings(state.traps, dateAttributes, info.ttlAttribute);
  return {
    ...meta,
    keys: info.keys,
    itemsScanned: state.items,
    dottedAttributes,
    dateAttributes,
    findings,
    ...(info.ttlAttribute ? { ttlAttribute: info.ttlAttribute } : {}),
    untrackedPaths: state.untrackedPaths,
    verdict: verdictOf({
      dottedAttributes,
      dateAttributes,
      findings,
      complete: meta.complete,
      itemsScanned: state.items,
    }),
  };
}
