/**
 * Attribute paths as the SQL workbench writes them (docs/SQL.md): map steps joined with dots,
 * a name SQL cannot write bare in double quotes (`"address.city"` is one top-level attribute
 * with a dot in its name), list elements as `[]` (`lines[].sku`: every element's sku).
 */
const BARE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function quoteName(name: string): string {
  return BARE.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function childPath(parent: string | undefined, name: string): string {
  return parent === undefined ? quoteName(name) : `${parent}.${quoteName(name)}`;
}

export function elementPath(parent: string): string {
  return `${parent}[]`;
}

/** Steps of a path this module wrote: names, with -1 for "every list element". */
export function parseSchemaPath(path: string): (string | -1)[] {
  const steps: (string | -1)[] = [];
  let i = 0;
  while (i < path.length) {
    if (path.startsWith('[]', i)) {
      steps.push(-1);
      i += 2;
      continue;
    }
    if (path[i] === '.') i += 1;
    if (path[i] === '"') {
      let name = '';
      i += 1;
      for (;;) {
        if (i >= path.length) throw new Error(`Cannot read the path ${path}.`);
        if (path[i] === '"') {
          if (path[i + 1] === '"') {
            name += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        name += path.charAt(i);
        i += 1;
      }
      steps.push(name);
    } else {
      let end = i;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      if (end === i) throw new Error(`Cannot read the path ${path}.`);
      steps.push(path.slice(i, end));
      i = end;
    }
  }
  return steps;
}

/** The path of a walk's steps (names, -1 for every list element), as childPath/elementPath write it. */
export function schemaPathOf(steps: readonly (string | number)[]): string {
  let out = '';
  for (const step of steps)
    out = typeof step === 'number' ? elementPath(out) : childPath(out === '' ? undefined : out, step);
  return out;
}
