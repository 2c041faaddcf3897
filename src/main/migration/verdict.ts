import {
  type DateAttributeFinding,
  type DateSetting,
  type DateStorage,
  type DottedAttributeFinding,
  type FindingAcknowledgement,
  type MigrationFinding,
  type Verdict,
  dateStorageOf,
} from '../../shared/ipc/migration';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function kindsOf(d: DateAttributeFinding): string {
  const parts: string[] = [];
  if (d.iso > 0) parts.push(plural(d.iso, 'ISO string'));
  if (d.epochMillis > 0) parts.push(`${d.epochMillis.toLocaleString('en-US')} epoch ms`);
  if (d.epochSeconds > 0) parts.push(`${d.epochSeconds.toLocaleString('en-US')} epoch s`);
  return parts.join(', ');
}

function dottedLine(d: DottedAttributeFinding): string {
  const parts: string[] = [];
  if (d.differsFromNested > 0)
    parts.push(
      `${d.differsFromNested.toLocaleString('en-US')} ${d.differsFromNested === 1 ? 'differs' : 'differ'} from the nested value`,
    );
  if (d.parentMissing > 0)
    parts.push(
      `${d.parentMissing.toLocaleString('en-US')} ${d.parentMissing === 1 ? 'has' : 'have'} no nested value`,
    );
  if (d.sameAsNested > 0)
    parts.push(`${d.sameAsNested.toLocaleString('en-US')} ${d.sameAsNested === 1 ? 'repeats' : 'repeat'} it`);
  return `move top-level "${d.name}" into the nested path on ${plural(d.items, 'item')} (${parts.join(', ')})`;
}

function dateLine(d: DateAttributeFinding): string {
  const keyNote = d.isKey
    ? ' — a key attribute: its type cannot change in place, the items must be copied'
    : d.indexKeyOf.length > 0
      ? ` — a key of index ${d.indexKeyOf.join(', ')}: convert to the index's type only`
      : '';
  return `make ${d.path} one type (${kindsOf(d)})${keyNote}`;
}

const STORAGE_TEXT: Record<DateStorage, string> = {
  iso: 'ISO strings',
  seconds: 'epoch seconds',
  millis: 'epoch ms',
};

function where(d: DateAttributeFinding): string {
  return d.setMembers ? `${d.path} (set members)` : d.path;
}

function findingLine(f: MigrationFinding): string {
  const entity = f.entity === null ? '' : ` of ${f.entity}`;
  return `${f.kind} at ${f.path} on ${plural(f.items, 'item')}${entity} (acknowledge with --expect ${f.kind}:${f.path})`;
}

/**
 * The one line a person (or CI) reads: data that must change before the new ORM writes
 * (dotted attributes; paths that mix storage types), and what needs a model setting. A setting
 * the team acknowledged (`expectations`: it says its models have it) is no longer an action;
 * one the data contradicts is.
 */
export function verdictOf(input: {
  dottedAttributes: DottedAttributeFinding[];
  dateAttributes: DateAttributeFinding[];
  /** Absent in reports made before these findings existed. */
  findings?: MigrationFinding[];
  complete: boolean;
  itemsScanned: number;
  expectations?: readonly DateSetting[];
  acknowledgedFindings?: readonly FindingAcknowledgement[];
}): Verdict {
  const saidFindings = new Set((input.acknowledgedFindings ?? []).map((a) => `${a.kind}\u0000${a.path}`));
  const openFindings: MigrationFinding[] = [];
  const acknowledgedFindings = new Map<string, FindingAcknowledgement>();
  // A Date key whose storage a date line below already asks about, or that the team stated
  // (its model stores the key as found), needs no second line: only keys in the new ORM's
  // default epoch ms are left for keyAttributeDate to ask about.
  const dateLines = new Set(
    input.dateAttributes.filter((d) => d.mixed || dateStorageOf(d) !== 'millis').map((d) => d.path),
  );
  for (const e of input.expectations ?? []) dateLines.add(e.path);
  for (const f of input.findings ?? []) {
    const id = `${f.kind}\u0000${f.path}`;
    if (saidFindings.has(id)) acknowledgedFindings.set(id, { kind: f.kind, path: f.path });
    else if (f.kind !== 'keyAttributeDate' || !dateLines.has(f.path)) openFindings.push(f);
  }
  const mustFix = [
    ...input.dottedAttributes.map(dottedLine),
    ...input.dateAttributes.filter((d) => d.mixed).map(dateLine),
    ...openFindings.filter((f) => f.isDataFix).map(findingLine),
  ];
  const expected = new Map((input.expectations ?? []).map((e) => [e.path, e.storage]));
  const requiredSettings: DateSetting[] = [];
  const acknowledged: DateSetting[] = [];
  const isoPaths: string[] = [];
  const secondsPaths: string[] = [];
  const contradicted: string[] = [];
  for (const d of input.dateAttributes) {
    const storage = dateStorageOf(d);
    if (!storage) continue;
    const said = expected.get(d.path);
    if (said !== undefined && said !== storage)
      contradicted.push(
        `${where(d)} is acknowledged as ${STORAGE_TEXT[said]} but holds ${STORAGE_TEXT[storage]}: correct the model or the acknowledgement`,
      );
    // Epoch ms is the new ORM's default: nothing to set.
    if (storage === 'millis') continue;
    requiredSettings.push({ path: d.path, storage });
    if (said === storage) acknowledged.push({ path: d.path, storage });
    else if (said === undefined) (storage === 'iso' ? isoPaths : secondsPaths).push(where(d));
  }
  const settings: string[] = [...contradicted];
  if (isoPaths.length > 0) {
    settings.push(
      `store Dates as ISO strings at ${isoPaths.join(', ')} (new ORM: defaultDateStorage 'iso' on that model), or convert them to epoch ms`,
    );
  }
  if (secondsPaths.length > 0)
    settings.push(`store Dates as epoch seconds at ${secondsPaths.join(', ')} (storage 'seconds')`);
  settings.push(...openFindings.filter((f) => !f.isDataFix).map(findingLine));
  const scope = input.complete
    ? ''
    : `Partial scan (${plural(input.itemsScanned, 'item')}, not the whole table): `;
  const made =
    acknowledged.length > 0
      ? ` Acknowledged model settings: ${acknowledged.map((a) => `${a.path} ${STORAGE_TEXT[a.storage]}`).join(', ')}.`
      : '';
  let line: string;
  if (mustFix.length === 0 && settings.length === 0) {
    line =
      acknowledged.length > 0
        ? `${scope}Ready: no data fix needed, and every model setting the data calls for is acknowledged.${made}`
        : `${scope}Ready: no dotted attributes and no ISO or mixed Date storage in ${plural(input.itemsScanned, 'item')}.`;
  } else if (mustFix.length === 0) {
    line = `${scope}No data fix needed, but the models need a setting: ${settings.join('; ')}. Acknowledge it once the models have it.${made}`;
  } else {
    line = `${scope}Fix before the new ORM writes: ${mustFix.join('; ')}.${settings.length > 0 ? ` Then set: ${settings.join('; ')}.` : ''}${made}`;
  }
  return {
    needsFix: mustFix.length > 0,
    line,
    mustFix,
    settings,
    requiredSettings,
    acknowledged,
    acknowledgedFindings: [...acknowledgedFindings.values()],
    actionNeeded: mustFix.length > 0 || settings.length > 0,
  };
}

/** The report's verdict again with these acknowledgements (the findings stay as scanned). */
export function withExpectations<R extends Parameters<typeof verdictOf>[0] & { verdict: Verdict }>(
  report: R,
  expectations: readonly DateSetting[],
  acknowledgedFindings: readonly FindingAcknowledgement[] = [],
): R {
  return { ...report, verdict: verdictOf({ ...report, expectations, acknowledgedFindings }) };
}
