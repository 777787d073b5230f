/**
 * Enforces DESIGN.md's layer rules, which Biome alone cannot express:
 *  - src/engine imports nothing outside src/engine (no storage, worker, ui, no node: modules,
 *    no npm package except the pure ones allowed below) and never calls Math.random.
 *  - src/storage never imports worker or ui.
 *  - src/ui imports runtime values only from src/worker/client; engine, storage and other worker
 *    imports must be `import type`.
 *  - src/worker and src/node (the two hosts) reach the engine only through its facade
 *    (src/engine/index.ts) and the app layer's entry (src/engine/apps/index.ts); src/cli only
 *    through the facade. src/ui never imports src/node.
 *  - src/link (the page<->host protocol as WebSocket frames, shared by the page and the Node host)
 *    imports nothing outside itself at run time, and no package.
 *  - src/engine/apps (the applications around the engine) reaches the rest of the engine only
 *    through the facade, as any host does.
 *  - the client library (src/engine/clients) does not import broker internals, `import type`
 *    included: of the rest of the engine it reaches the codecs, errors, the seeded Rng and, of
 *    src/engine/cluster, only what a client speaks through (the Network, its request messages,
 *    the Scheduler, and the coordination store the ZooKeeper consumer talks to); the group
 *    coordinator, the cluster's brokers and the applications may import it, never the reverse.
 *  - no `as unknown as` outside tests: a cast that says nothing about why the types differ.
 *  - no runtime import cycle among the files of src/worker.
 *  - no import cycle at all, `import type` included, among the files of any folder of src (node,
 *    ui, engine, worker, storage, cli, link; a slice file never imports the store that composes
 *    it): the wire codec, the handlers and the gateway stay a one-way chain, and so do a broker's
 *    parts. Across folders the layer rules above point one way, so no cycle crosses them.
 *  - src/engine/views (the plain views and their builders, which the facade and its queries
 *    import) never imports upward: not the facade (engine.ts, index.ts), not queries.ts, not the
 *    app layer, `import type` included.
 * Test files (*.test.ts) and test support that needs test packages (*.testing.ts, typechecked with
 * the Node config only) may import test tools and engine test support (fixtures, testSupport),
 * but obey the same direction rules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';

// Pure codecs: deflate, snappy, lz4 (with its xxHash32), zstd's decoder and zstd's WebAssembly encoder.
const ENGINE_ALLOWED_PACKAGES = new Set([
  'fflate',
  'snappyjs',
  'lz4js',
  'lz4js/xxh32.js',
  'fzstd',
  '@bokuweb/zstd-wasm',
]);
// Real clients' encoders judge the wire codec in tests (kafkajs, @platformatic/kafka).
const TEST_PACKAGES = new Set([
  'vitest',
  'fast-check',
  'fake-indexeddb',
  'fake-indexeddb/auto',
  'kafkajs',
  '@platformatic/kafka',
]);
const ENGINE_FACADE = 'src/engine/index.ts';
const APPS_ENTRY = 'src/engine/apps/index.ts';
const WORKER_CLIENT = 'src/worker/client.ts';
const CLIENTS = 'src/engine/clients/';
/** What the client library may import from the rest of the engine: a folder (trailing slash) or a file. */
const CLIENT_REACHES = [
  'src/engine/clients/',
  'src/engine/codec/',
  'src/engine/errors.ts',
  'src/engine/Rng.ts',
  'src/engine/TopicPartition.ts',
  'src/engine/cluster/Network.ts',
  'src/engine/cluster/requests.ts',
  'src/engine/cluster/Scheduler.ts',
  'src/engine/cluster/CoordinationStore.ts',
];
/** Folders where an import cycle is refused even when `import type` closes it. */
const ACYCLIC_FOLDERS = ['src/node/', 'src/engine/', 'src/ui/', 'src/worker/', 'src/storage/', 'src/cli/', 'src/link/'];
const VIEWS = 'src/engine/views/';
/** What sits above the views: they import none of it. */
const ABOVE_VIEWS = ['src/engine/engine.ts', 'src/engine/index.ts', 'src/engine/queries.ts', 'src/engine/apps/'];

/** A source file: its path from the repository root (forward slashes) and its text. */
export interface SourceFile {
  path: string;
  source: string;
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

/** Whether a path lies in the app layer, src/engine/apps. */
function inApps(path: string): boolean {
  return path.startsWith('src/engine/apps/');
}

function layerOf(path: string): string {
  const parts = path.split('/');
  return parts[0] === 'src' ? (parts[1] ?? '') : '';
}

/** The file a relative import names, among `known` (`./x` -> x.ts, x.tsx or x/index.ts). */
function resolveImport(from: string, spec: string, known: ReadonlySet<string>): string {
  const target = posix.normalize(posix.join(posix.dirname(from), spec));
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`]) {
    if (known.has(candidate)) return candidate;
  }
  return target;
}

/** Every broken rule in `files`, as `path:line message`. */
export function checkLayers(files: readonly SourceFile[]): string[] {
  const known = new Set(files.map((f) => f.path));
  const problems: string[] = [];
  const workerEdges = new Map<string, { to: string; line: number }[]>();
  const acyclicEdges = new Map<string, { to: string; line: number }[]>();
  for (const { path, source } of files) {
    const layer = layerOf(path);
    const isTest = /\.(test|testing)\.tsx?$/.test(path);
    for (const ref of importsOf(source)) {
      const where = `${path}:${ref.line}`;
      if (ref.spec.startsWith('.')) {
        const target = resolveImport(path, ref.spec, known);
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
        if (layer === 'ui' && targetLayer === 'node') {
          problems.push(`${where} ui imports ${ref.spec}: the Node host is a process of its own`);
        }
        if (layer === 'ui' && targetLayer === 'storage' && !ref.typeOnly) {
          problems.push(`${where} ui imports storage ${ref.spec}: the worker owns storage`);
        }
        if (layer === 'ui' && targetLayer === 'worker' && !ref.typeOnly && target !== WORKER_CLIENT) {
          problems.push(`${where} ui imports ${ref.spec} at run time: only worker/client (import type is fine)`);
        }
        if (
          (layer === 'worker' || layer === 'node' || layer === 'cli') &&
          !isTest &&
          targetLayer === 'engine' &&
          target !== ENGINE_FACADE &&
          !(layer !== 'cli' && target === APPS_ENTRY)
        ) {
          const doors = layer === 'cli' ? 'the facade, engine/index.ts' : 'engine/index.ts or engine/apps/index.ts';
          problems.push(`${where} ${layer} imports engine internals ${ref.spec}: import from ${doors}`);
        }
        if (layer === 'link' && targetLayer !== 'link' && !ref.typeOnly) {
          problems.push(
            `${where} link imports ${ref.spec} at run time: the page and the Node host share it, so it depends on neither`,
          );
        }
        if (inApps(path) && !isTest && targetLayer === 'engine' && !inApps(target) && target !== ENGINE_FACADE) {
          problems.push(
            `${where} app layer imports engine internals ${ref.spec}: import from the facade, engine/index.ts`,
          );
        }
        if (
          path.startsWith(CLIENTS) &&
          !isTest &&
          targetLayer === 'engine' &&
          !CLIENT_REACHES.some((r) => (r.endsWith('/') ? target.startsWith(r) : target === r))
        ) {
          problems.push(
            `${where} the client library imports broker internals ${ref.spec}: clients speak to brokers through the Network's requests only`,
          );
        }
        if (
          path.startsWith(VIEWS) &&
          ABOVE_VIEWS.some((a) => (a.endsWith('/') ? target.startsWith(a) : target === a))
        ) {
          problems.push(
            `${where} views import ${ref.spec}, which imports the views: name what the view needs in an interface of its own`,
          );
        }
        if (layer === 'worker' && targetLayer === 'worker' && !ref.typeOnly) {
          const edges = workerEdges.get(path) ?? [];
          edges.push({ to: target, line: ref.line });
          workerEdges.set(path, edges);
        }
        const folder = ACYCLIC_FOLDERS.find((f) => path.startsWith(f));
        if (folder !== undefined && target.startsWith(folder)) {
          const edges = acyclicEdges.get(path) ?? [];
          edges.push({ to: target, line: ref.line });
          acyclicEdges.set(path, edges);
        }
      } else if (layer === 'link' && !isTest) {
        problems.push(`${where} link imports package ${ref.spec}: it runs in the page and in Node alike`);
      } else if (layer === 'engine') {
        const pkg = ref.spec.startsWith('@') ? ref.spec.split('/').slice(0, 2).join('/') : ref.spec.split('/')[0];
        const ok =
          ENGINE_ALLOWED_PACKAGES.has(pkg ?? '') ||
          (isTest && (TEST_PACKAGES.has(ref.spec) || ref.spec.startsWith('node:') || TEST_PACKAGES.has(pkg ?? '')));
        if (!ok) problems.push(`${where} engine imports package ${ref.spec}: the engine is pure`);
      }
    }
    if (isTest) continue;
    source.split('\n').forEach((text, i) => {
      if (/\bas unknown as\b/.test(text))
        problems.push(`${path}:${i + 1} 'as unknown as' outside tests: make the types agree instead`);
      if (layer !== 'engine') return;
      if (/\bMath\.random\b/.test(text))
        problems.push(`${path}:${i + 1} Math.random in the engine: use the seeded Rng`);
      if (/\bperformance\.now\b/.test(text))
        problems.push(`${path}:${i + 1} performance.now in the engine: use the Clock`);
    });
  }
  for (const cycle of importCycles(workerEdges)) {
    problems.push(`${cycle[0]} runtime import cycle in src/worker among: ${cycle.join(', ')}`);
  }
  for (const cycle of importCycles(acyclicEdges)) {
    problems.push(`${cycle[0]} import cycle (import type counts) among: ${cycle.join(', ')}`);
  }
  return problems;
}

/** The files of each import cycle: Tarjan's strongly connected components of more than one file, or a file importing itself. */
function importCycles(edges: ReadonlyMap<string, { to: string }[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    const selfLoop = (edges.get(v) ?? []).some((e) => e.to === v);
    if (component.length > 1 || selfLoop) cycles.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

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

function main(): void {
  const root = resolve(import.meta.dirname ?? '.', '..');
  const files = walk(join(root, 'src')).map((p) => ({
    path: relative(root, p).split(/[\\/]/).join('/'),
    source: readFileSync(p, 'utf8'),
  }));
  const problems = checkLayers(files);
  if (problems.length > 0) {
    console.error(`Layer rules broken (${problems.length}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log('Layer rules: ok');
}

if (/check-layers\.ts$/.test(process.argv[1] ?? '')) main();
