import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../server/paths';
import { importCircles, importGraph, LAYERING_PROBE_PREFIX, sourceFiles } from './import-graph';

/** No import circle anywhere in our code, type-only imports included. */

const relative = (file: string) => path.relative(PROJECT_ROOT, file);

describe('the import graph of the project', () => {
  it('has no circle, type-only imports included', () => {
    const files = ['server', 'shared', 'client', 'bench', 'e2e', 'scripts'].flatMap((dir) =>
      sourceFiles(path.join(PROJECT_ROOT, dir)),
    );
    expect(files.length).toBeGreaterThan(200);
    const circles = importCircles(importGraph(files)).map(({ files, circle }) => ({
      files: files.map(relative),
      circle: circle.map(relative).join(' -> '),
    }));
    expect(circles).toEqual([]);
  });
});

describe('the circle finder', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };

  it('finds circles made of type-only imports, re-exports, folder indexes and dynamic imports', () => {
    write('a.ts', "import type { B } from './b';\nexport type A = { b: B };\n");
    write('b.ts', "export type { C } from './c';\nexport type B = string;\n");
    write(
      'c.ts',
      "// import { A } from './a' (a comment: not an import)\nexport const c = () => import('./d');\n",
    );
    write('d/index.ts', "import { type A } from '../a';\nexport const d: A | undefined = undefined;\n");
    // Outside any circle: a package import and a file that only imports.
    write('e.ts', "import { z } from 'zod';\nimport { c } from './c';\nexport const e = [z, c];\n");
    const graph = importGraph(sourceFiles(dir));
    const circles = importCircles(graph);
    expect(circles).toHaveLength(1);
    const [found] = circles;
    expect(found?.files.map((file) => path.relative(dir, file))).toEqual([
      'a.ts',
      'b.ts',
      'c.ts',
      'd/index.ts',
    ]);
    expect(found?.circle.map((file) => path.relative(dir, file))).toEqual([
      'a.ts',
      'b.ts',
      'c.ts',
      'd/index.ts',
      'a.ts',
    ]);
  });

  it('finds none in a tree without circles', () => {
    const clean = mkdtempSync(path.join(dir, 'clean-'));
    writeFileSync(path.join(clean, 'x.ts'), "import { y } from './y';\nexport const x = y;\n");
    writeFileSync(path.join(clean, 'y.ts'), 'export const y = 1;\n');
    expect(importCircles(importGraph(sourceFiles(clean)))).toEqual([]);
  });

  it("never lists a layering test's probe, which may vanish while the tree is walked", () => {
    const tree = mkdtempSync(path.join(dir, 'probes-'));
    writeFileSync(path.join(tree, 'x.ts'), 'export const x = 1;\n');
    writeFileSync(path.join(tree, `${LAYERING_PROBE_PREFIX}1234.ts`), "import { x } from './x';\n");
    expect(sourceFiles(tree).map((file) => path.basename(file))).toEqual(['x.ts']);
  });
});
