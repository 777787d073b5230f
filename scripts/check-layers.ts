/**
 * Enforces DESIGN.md's layer rules, which Biome alone cannot express:
 *  - src/engine imports nothing outside src/engine (no storage, worker, ui, no node: modules,
 *    no npm package except the pure ones allowed below) and never calls Math.random.
 *  - src/storage never imports worker or ui.
 *  - src/ui reaches the engine only through src/worker/client (engine imports must be `import type`).
 * Test files (*.test.ts) may import test tools but obey the same direction rules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname ?? '.', '..');
const ENGINE_ALLOWED_PACKAGES = new Set(['fflate']);
const TEST_PACKAGES = new Set(['vitest', 'fast-check', 'fake-indexeddb', 'fake-indexeddb/auto', 'kafkajs']);

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ts|tsx)$/.test(name)) out.push(p);
  }
  return out;
}

interface ImportRef {
  spec: string;
  typeOnly: boolean;
  line: number;
}

export function importsOf(source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  const re =
    /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const spec = m[3] ?? m[4] ?? m[5];
    if (!spec) continue;
    const line = source.slice(0, m.index).split('\n').length;
    refs.push({ spec, typeOnly: Boolean(m[2]), line });
  }
  return refs;
}

function layerOf(file: string): string {
  const rel = relative(join(root, 'src'), file).split(/[\\/]/);
  return rel[0] ?? '';
}

const problems: string[] = [];
for (const file of walk(join(root, 'src'))) {
  const layer = layerOf(file);
  const isTest = /\.test\.tsx?$/.test(file);
  const source = readFileSync(file, 'utf8');
  const rel = relative(root, file);
  for (const ref of importsOf(source)) {
    const where = `${rel}:${ref.line}`;
    if (ref.spec.startsWith('.')) {
      const target = resolve(dirname(file), ref.spec);
      const targetLayer = layerOf(target);
      if (layer === 'engine' && targetLayer !== 'engine') {
        problems.push(`${where} engine imports ${ref.spec} (outside src/engine)`);
      }
      if (layer === 'storage' && (targetLayer === 'worker' || targetLayer === 'ui')) {
        problems.push(`${where} storage imports ${ref.spec} (storage sits below worker and ui)`);
      }
      if (layer === 'ui' && targetLayer === 'engine' && !ref.typeOnly) {
        problems.push(
          `${where} ui imports engine code ${ref.spec} at run time: go through worker/client (import type is fine)`,
        );
      }
      if (layer === 'ui' && targetLayer === 'storage' && !ref.typeOnly) {
        problems.push(`${where} ui imports storage ${ref.spec}: the worker owns storage`);
      }
    } else if (layer === 'engine') {
      const pkg = ref.spec.startsWith('@') ? ref.spec.split('/').slice(0, 2).join('/') : ref.spec.split('/')[0];
      const ok =
        ENGINE_ALLOWED_PACKAGES.has(pkg ?? '') ||
        (isTest && (TEST_PACKAGES.has(ref.spec) || ref.spec.startsWith('node:') || TEST_PACKAGES.has(pkg ?? '')));
      if (!ok) problems.push(`${where} engine imports package ${ref.spec}: the engine is pure`);
    }
  }
  if (layer === 'engine' && !isTest) {
    source.split('\n').forEach((text, i) => {
      if (/\bMath\.random\b/.test(text)) problems.push(`${rel}:${i + 1} Math.random in the engine: use the seeded Rng`);
      if (/\bperformance\.now\b/.test(text))
        problems.push(`${rel}:${i + 1} performance.now in the engine: use the Clock`);
    });
  }
}

if (problems.length > 0) {
  console.error(`Layer rules broken (${problems.length}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('Layer rules: ok');
