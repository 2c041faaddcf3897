import type { DateAttributeFinding, DottedAttributeFinding, Verdict } from '../../shared/ipc/migration';

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

/**
 * The one line a person (or CI) reads: data that must change before the new ORM writes
 * (dotted attributes; paths that mix storage types), and what only needs a model setting.
 */
export function verdictOf(input: {
  dottedAttributes: DottedAttributeFinding[];
  dateAttributes: DateAttributeFinding[];
  complete: boolean;
  itemsScanned: number;
}): Verdict {
  const mustFix = [
    ...input.dottedAttributes.map(dottedLine),
    ...input.dateAttributes.filter((d) => d.mixed).map(dateLine),
  ];
  const settled = input.dateAttributes.filter((d) => !d.mixed);
  const isoPaths = settled.filter((d) => d.iso > 0).map((d) => d.path);
  const secondsPaths = settled.filter((d) => d.iso === 0 && d.epochSeconds > 0).map((d) => d.path);
  const settings: string[] = [];
  if (isoPaths.length > 0) {
    settings.push(
      `store Dates as ISO strings at ${isoPaths.join(', ')} (new ORM: defaultDateStorage 'iso' on that model), or convert them to epoch ms`,
    );
  }
  if (secondsPaths.length > 0)
    settings.push(`store Dates as epoch seconds at ${secondsPaths.join(', ')} (storage 'seconds')`);
  const scope = input.complete
    ? ''
    : `Partial scan (${plural(input.itemsScanned, 'item')}, not the whole table): `;
  let line: string;
  if (mustFix.length === 0 && settings.length === 0) {
    line = `${scope}Ready: no dotted attributes and no ISO or mixed Date storage in ${plural(input.itemsScanned, 'item')}.`;
  } else if (mustFix.length === 0) {
    line = `${scope}No data fix needed; set: ${settings.join('; ')}.`;
  } else {
    line = `${scope}Fix before the new ORM writes: ${mustFix.join('; ')}.${settings.length > 0 ? ` Then set: ${settings.join('; ')}.` : ''}`;
  }
  return { needsFix: mustFix.length > 0, line, mustFix, settings };
}
