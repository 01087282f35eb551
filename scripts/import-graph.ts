import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's own import graph and its circles: every relative import between our
 * TypeScript files, type-only ones included (`import type`, `export type ... from`, inline
 * `import('...')` types), since a type-only circle still ties two modules' designs together.
 * Packages are left out: only our files can form a circle worth fixing.
 */

/** import ... from '...', export ... from '...', import '...', import('...'), in any spacing. */
const SPECIFIERS = [
  /\bimport\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bexport\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'dist', '.git']);
/**
 * The name of the files scripts/layering.test.ts writes into the source tree for one lint run:
 * not project code, and gone again at any moment (test files run two at a time), so a walk of
 * the tree never lists them.
 */
export const LAYERING_PROBE_PREFIX = 'layering-probe-';

/** Every .ts/.tsx file under `dir`, generated code, dependencies and layering probes excluded. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (
      SOURCE.test(entry.name) &&
      !entry.name.endsWith('.d.ts') &&
      !entry.name.startsWith(LAYERING_PROBE_PREFIX)
    )
      files.push(full);
  }
  return files;
}

/** Comments could hold an example import; strings keep theirs (they are the specifiers). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** The file a relative specifier names, as the bundler resolves it; undefined for packages. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts'].map((ext) => base + ext),
    ...['.ts', '.tsx'].map((ext) => path.join(base, `index${ext}`)),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

export type ImportGraph = Map<string, Set<string>>;

export function importGraph(files: ReadonlyArray<string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const text = withoutComments(readFileSync(file, 'utf8'));
    const targets = new Set<string>();
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const target = resolve(file, match[1] ?? '');
        if (target && target !== file) targets.add(target);
      }
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Files that import each other, directly or through one another, and one circle among them. */
export type ImportCircle = { files: string[]; circle: string[] };

/**
 * Every group of files caught in circles (Tarjan's strongly connected components), with a
 * shortest circle through the first of them as the example to read (its first file repeated last).
 */
export function importCircles(graph: ImportGraph): ImportCircle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;

  // Iterative, so a deep chain of imports cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edges: string[]; next: number }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])], next: 0 });
    };
    enter(root);
    while (work.length) {
      const frame = work[work.length - 1] as (typeof work)[number];
      if (frame.next < frame.edges.length) {
        const target = frame.edges[frame.next++] as string;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(component);
      }
    }
  }
  return components.map((component) => ({
    files: [...component].sort(),
    circle: shortestCircle(graph, component),
  }));
}

/** A shortest circle through the component's first file (breadth-first within the component). */
function shortestCircle(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const circle = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) {
          circle.splice(1, 0, at);
        }
        return [...circle, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
