// The import graph of src/, read with the TypeScript compiler (the same resolution tsc uses), and
// the loops in it. `npx tsx scripts/import-loops.ts` prints the measure docs/design/core-rules.md
// quotes; tests/unit/lint/import-loops.test.ts fails `npm test` on any runtime loop.
//
// An edge is "runtime" when the bundler keeps the import: a side-effect import, a default or
// namespace import, or a named import with at least one specifier not marked `type` (the lint rule
// consistent-type-imports marks every type-only specifier, so what is left unmarked is a value).
// `import type`, and imports whose specifiers are all `type`, are erased and cannot make a module
// run before its dependency has finished; they count as "type-only" edges. A dynamic `import()`
// runs later, once every module has loaded, so it closes no loop at load time: it is left out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Files, relative to the root, with '/' separators. */
  files: string[];
  /** file → files it imports at runtime. */
  runtime: Map<string, Set<string>>;
  /** file → files it imports (runtime and type-only). */
  all: Map<string, Set<string>>;
}

const sourceFile = /\.(ts|tsx)$/;

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else if (sourceFile.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Is this import declaration erased by the compiler (nothing of it exists at runtime)? */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './side-effect'`
  if (clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  resolveJsonModule: true,
  allowJs: false,
};

/** Reads every .ts/.tsx file under the given folders (relative to root) and resolves its imports. */
export function readImportGraph(root: string, folders: string[] = ['src']): ImportGraph {
  const files = folders.flatMap((folder) => listFiles(path.join(root, folder)));
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const known = new Set(files.map(relative));
  const runtime = new Map<string, Set<string>>();
  const all = new Map<string, Set<string>>();
  for (const file of files) {
    const from = relative(file);
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      false,
      file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const runtimeEdges = new Set<string>();
    const allEdges = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const resolved = ts.resolveModuleName(specifier.text, file, compilerOptions, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const to = relative(resolved.resolvedFileName);
      if (!known.has(to)) continue;
      allEdges.add(to);
      if (!isTypeOnly(statement)) runtimeEdges.add(to);
    }
    runtime.set(from, runtimeEdges);
    all.set(from, allEdges);
  }
  return { files: [...known].sort(), runtime, all };
}

/** Strongly connected components with more than one file (Tarjan), each sorted, largest first. */
export function loopGroups(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  // Iterative, so a deep graph cannot overflow the call stack.
  for (const start of edges.keys()) {
    if (indexOf.has(start)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const open = (node: string) => {
      indexOf.set(node, index);
      low.set(node, index);
      index += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (edges.get(node) ?? new Set<string>()).values() });
    };
    open(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const step = frame.next.next();
      if (!step.done) {
        const to = step.value;
        if (!indexOf.has(to)) open(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, indexOf.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === indexOf.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1 || edges.get(frame.node)?.has(frame.node)) groups.push(group.sort());
      }
    }
  }
  return groups.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** One shortest path around a loop group starting at its first file, for an error message. */
export function oneLoop(edges: Map<string, Set<string>>, group: string[]): string[] {
  const members = new Set(group);
  const start = group[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of edges.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** The renderer feature a file belongs to (src/renderer/features/<name>/…), if any. */
export function featureOf(file: string): string | undefined {
  return /^src\/renderer\/features\/([^/]+)\//.exec(file)?.[1];
}

/** Pairs of renderer features that import each other (any edge, runtime or type-only). */
export function twoWayFeaturePairs(edges: Map<string, Set<string>>): string[] {
  const uses = new Set<string>();
  for (const [from, targets] of edges) {
    const a = featureOf(from);
    if (!a) continue;
    for (const to of targets) {
      const b = featureOf(to);
      if (b && b !== a) uses.add(`${a}→${b}`);
    }
  }
  const pairs: string[] = [];
  for (const edge of uses) {
    const [a, b] = edge.split('→') as [string, string];
    if (a < b && uses.has(`${b}→${a}`)) pairs.push(`${a} ↔ ${b}`);
  }
  return pairs.sort();
}

function main(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const graph = readImportGraph(root);
  const describe = (name: string, groups: string[][]) => {
    const count = groups.reduce((sum, group) => sum + group.length, 0);
    console.log(`${name}: ${groups.length} loop groups, ${count} files`);
    for (const group of groups)
      console.log(
        `  [${group.length}] ${oneLoop(name === 'runtime' ? graph.runtime : graph.all, group).join(' → ')}`,
      );
  };
  console.log(`${graph.files.length} files under src/`);
  describe('runtime', loopGroups(graph.runtime));
  describe('all (runtime + type-only)', loopGroups(graph.all));
  const pairs = twoWayFeaturePairs(graph.all);
  console.log(`two-way renderer feature pairs: ${pairs.length}`);
  for (const pair of pairs) console.log(`  ${pair}`);
  const verbose = process.argv.includes('--groups');
  if (verbose) for (const group of loopGroups(graph.all)) console.log(group.join('\n  '), '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
