import type { AttributeSchema, SchemaStringFormat } from '../../../../shared/ipc';

export const FORMAT_NAMES: Record<SchemaStringFormat, string> = {
  isoDateTime: 'ISO date-time',
  isoDate: 'ISO date',
  epochString: 'epoch in a string',
  uuid: 'UUID',
  email: 'email',
  url: 'URL',
  json: 'JSON text',
};

const n = (v: number) => v.toLocaleString('en-US');

export function distinctText(a: AttributeSchema): string {
  return a.distinct.isExact ? `${n(a.distinct.count)} distinct` : `≈${n(a.distinct.count)} distinct`;
}

/** One line for the paths table: what the values look like, most telling first. */
export function valueSummary(a: AttributeSchema): string {
  const parts: string[] = [];
  const formats = (Object.entries(a.formats) as [SchemaStringFormat, number][]).sort((x, y) => y[1] - x[1]);
  const top = formats[0];
  if (top && a.strings > 0) parts.push(`${FORMAT_NAMES[top[0]]} ${Math.round((top[1] / a.strings) * 100)}%`);
  if (a.number) {
    const epoch = a.number.epochSeconds + a.number.epochMillis;
    if (epoch > 0 && epoch * 2 >= a.number.count)
      parts.push(a.number.epochMillis >= a.number.epochSeconds ? 'epoch ms' : 'epoch s');
    parts.push(a.number.min === a.number.max ? a.number.min : `${a.number.min} … ${a.number.max}`);
    if (a.number.integers === a.number.count) parts.push('integers');
  }
  if (a.length && !top)
    parts.push(
      a.length.min === a.length.max ? `${a.length.min} chars` : `${a.length.min}–${a.length.max} chars`,
    );
  if (a.setSize) parts.push(`${a.setSize.min}–${a.setSize.max} members`);
  if (a.listLength) parts.push(`${a.listLength.min}–${a.listLength.max} elements`);
  if (a.topValues && a.topValues.length <= 5 && !a.types.M && !a.types.L)
    parts.push(a.topValues.map((v) => v.value).join(' · '));
  else if (!a.types.M && !a.types.L) parts.push(distinctText(a));
  return parts.join(' · ');
}
