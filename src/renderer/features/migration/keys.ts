import type { Item, KeySchema, PlainKey } from '../../../shared/ipc';

/** A report's plain-JSON key back to DynamoDB's tagged form, using the key schema's types. */
export function taggedKey(key: PlainKey, keys: KeySchema): Item {
  const types: Record<string, 'S' | 'N' | 'B'> = { [keys.partitionKey.name]: keys.partitionKey.type };
  if (keys.sortKey) types[keys.sortKey.name] = keys.sortKey.type;
  const out: Item = {};
  for (const [name, value] of Object.entries(key)) {
    const type = types[name] ?? 'S';
    out[name] =
      type === 'N' ? { N: String(value) } : type === 'B' ? { B: String(value) } : { S: String(value) };
  }
  return out;
}

export function keyLabel(key: PlainKey): string {
  return Object.values(key).map(String).join(' · ');
}

/** Saves text as a file: a blob link works the same in the desktop window and browser mode. */
export function download(fileName: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
