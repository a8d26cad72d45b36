import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The layering of src/, read from its import statements (type imports included): no file imports itself
 * through others, no folder imports a folder that imports it, and code outside src/gateway reaches the
 * gateway through its barrel only.
 */
const SRC = resolve(__dirname, '../../../src');
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^;'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => candidate.endsWith('.ts') && existsFile(candidate));
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every src file with the src files it imports, by path relative to src. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, match[1]!);
      if (target?.startsWith(SRC)) targets.add(relative(SRC, target));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan), each sorted. */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const graph = importGraph();

it('reads the whole of src', () => {
  expect(graph.size).toBeGreaterThan(250);
  expect(graph.get('gateway/create-gateway.ts')).toContain('gateway/create-docjoin.ts');
});

it('has no import cycle between files', () => {
  expect(cycles(graph)).toEqual([]);
});

it('has no import cycle between folders', () => {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const folder = dirname(file);
    const imported = folders.get(folder) ?? new Set<string>();
    for (const target of targets) if (dirname(target) !== folder) imported.add(dirname(target));
    folders.set(folder, imported);
  }
  expect(cycles(folders)).toEqual([]);
});

it('imports the gateway through its barrel from outside it', () => {
  const deep = [...graph].flatMap(([file, targets]) =>
    file.startsWith('gateway/') ? [] : [...targets].filter((target) => target.startsWith('gateway/') && target !== 'gateway/index.ts').map((target) => `${file} -> ${target}`),
  );
  expect(deep).toEqual([]);
});

it('finds a cycle where there is one', () => {
  const looped = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['a'])],
    ['d', new Set(['a'])],
  ]);
  expect(cycles(looped)).toEqual([['a', 'b', 'c']]);
});
