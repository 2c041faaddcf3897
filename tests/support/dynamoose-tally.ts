import { isTimeName } from '../../src/shared/schema/time-names';
import { rawDynamo, rawScanItems } from './raw-dynamo';

/**
 * The independent oracle for the pre-flight's findings of older dynamoose releases: DynamoDB
 * Local's raw wire JSON (one plain Scan, every page), walked here with the rules docs/MIGRATION.md
 * states, written again from the documentation rather than from src/main/migration. The result
 * is `kind|entity|path` → items.
 */
type Wire = Record<string, unknown>;

const USUAL_SHARE = 0.9;

function step(name: string | number, first: boolean): string {
  if (typeof name === 'number') return `[${name}]`;
  if (name === '' || /[.[\]"]/.test(name)) return `[${JSON.stringify(name)}]`;
  return first ? name : `.${name}`;
}

/** Every value with its path and its last map name; maps and lists before their contents. */
function* walk(
  value: Wire,
  path: string,
  name: string,
  depth: number,
): Generator<[Wire, string, string, number]> {
  yield [value, path, name, depth];
  if ('M' in value)
    for (const [k, v] of Object.entries(value.M as Record<string, Wire>))
      yield* walk(v, path + step(k, false), k, depth + 1);
  if ('L' in value)
    for (const [i, v] of (value.L as Wire[]).entries())
      yield* walk(v, path + step(i, false), name, depth + 1);
}

function isJsonText(s: string): boolean {
  if (!/^[[{][\s\S]*[\]}]$/.test(s)) return false;
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null;
  } catch {
    return false;
  }
}

export async function tallyTraps(
  endpoint: string,
  table: string,
  keys: { pk: string; sk: string },
  nowSeconds: number,
): Promise<Map<string, number>> {
  const items = await rawScanItems(endpoint, table);
  const ttlAnswer = await rawDynamo<{
    TimeToLiveDescription?: { AttributeName?: string; TimeToLiveStatus?: string };
  }>(endpoint, 'DescribeTimeToLive', { TableName: table });
  const ttl =
    ttlAnswer.TimeToLiveDescription?.TimeToLiveStatus === 'ENABLED'
      ? ttlAnswer.TimeToLiveDescription.AttributeName
      : undefined;
  const out = new Map<string, number>();
  const add = (kind: string, entity: string | null, path: string, by = 1) => {
    const id = `${kind}|${entity ?? ''}|${path}`;
    out.set(id, (out.get(id) ?? 0) + by);
  };
  const entityOf = (item: Record<string, Wire>) =>
    /^([A-Za-z][A-Za-z0-9_]*)#/.exec((item[keys.pk] as { S?: string }).S ?? '')?.[1] ?? '';
  const byEntity = new Map<string, Record<string, Wire>[]>();
  for (const item of items as Record<string, Wire>[]) {
    const entity = entityOf(item);
    byEntity.set(entity, [...(byEntity.get(entity) ?? []), item]);
  }
  let keyDates = 0;
  for (const [entity, group] of byEntity) {
    const sets = new Map<string, number>();
    const lists = new Map<string, number>();
    const names = new Map<string, number>();
    const mapNames = new Map<string, { maps: number; names: Map<string, number> }>();
    let withTtl = 0;
    for (const item of group) {
      for (const name of Object.keys(item)) names.set(name, (names.get(name) ?? 0) + 1);
      if (ttl) {
        const v = item[ttl];
        if (v === undefined) add('ttlMissing', entity, ttl);
        else {
          withTtl += 1;
          const n = (v as { N?: string }).N;
          if (n === undefined) add('ttlNotNumber', entity, ttl);
          else if (/^\d{11,13}$/.test(n)) add('ttlMilliseconds', entity, ttl);
          else if (Number(n) < nowSeconds) add('ttlExpiredPresent', entity, ttl);
        }
      }
      if ('updatedAt' in item && !('createdAt' in item)) add('upsertResidue', entity, 'createdAt');
      const sk = (item[keys.sk] as { N?: string }).N;
      if (sk !== undefined && /^\d{11,13}$/.test(sk) && isTimeName(keys.sk)) keyDates += 1;
      for (const [name, value] of Object.entries(item))
        for (const [v, path, last, depth] of walk(value, step(name, true), name, 1)) {
          if (depth > 1 && last.includes('.') && path.endsWith(step(last, false)))
            add('dottedKeyInMap', entity, path);
          if (v.S === 'true' || v.S === 'false') add('booleanAsString', entity, path);
          else if (typeof v.S === 'string' && isJsonText(v.S)) add('documentAsString', entity, path);
          if ('SS' in v || 'NS' in v) sets.set(path, (sets.get(path) ?? 0) + 1);
          const first = (v.L as Wire[] | undefined)?.[0];
          if (first && ('S' in first || 'N' in first)) lists.set(path, (lists.get(path) ?? 0) + 1);
          if ('M' in v) {
            const inner = Object.keys(v.M as Wire);
            if (inner.length === 0 && isTimeName(last)) add('dateLostToEmptyMap', entity, path);
            if (inner.length > 0) {
              const m = mapNames.get(path) ?? { maps: 0, names: new Map<string, number>() };
              m.maps += 1;
              for (const k of inner) m.names.set(k, (m.names.get(k) ?? 0) + 1);
              mapNames.set(path, m);
            }
          }
        }
    }
    if (withTtl === 0) out.delete(`ttlMissing|${entity}|${ttl ?? ''}`);
    if (!names.has('createdAt')) out.delete(`upsertResidue|${entity}|createdAt`);
    for (const [path, count] of sets) if (lists.has(path)) add('setListMix', entity, path, count);
    for (const [name, count] of names)
      if (count < group.length && count >= group.length * USUAL_SHARE && name !== 'createdAt' && name !== ttl)
        add('upsertResidue', entity, step(name, true), group.length - count);
    for (const [path, m] of mapNames)
      for (const [name, count] of m.names)
        if (count < m.maps && count >= m.maps * USUAL_SHARE)
          add('mapTruncated', entity, path + step(name, false), m.maps - count);
  }
  if (keyDates > 0) add('keyAttributeDate', null, keys.sk, keyDates);
  for (const [id, count] of out) if (count === 0) out.delete(id);
  return out;
}
