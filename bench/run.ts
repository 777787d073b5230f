import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult, BenchSuite } from './harness.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const filterIdx = args.indexOf('--filter');
const filter = filterIdx >= 0 ? args[filterIdx + 1] : undefined;

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();

const results: BenchResult[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchSuite };
  const suite = mod.default;
  if (filter && !suite.name.includes(filter) && !file.includes(filter)) continue;
  if (!json) console.log(`\n# ${suite.name}`);
  await suite.run((r) => {
    results.push(r);
    if (json) {
      console.log(JSON.stringify(r));
    } else {
      const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
      const peer = r.peer !== undefined ? `  peer ${fmt(r.peer)}` : '';
      const ratio = r.ratio !== undefined ? `  ratio ${r.ratio.toFixed(2)}x` : '';
      const target = r.target
        ? `  target ${r.target}${r.met === undefined ? '' : r.met ? ' (met)' : ' (NOT met)'}`
        : '';
      console.log(`${r.name.padEnd(52)} ${fmt(r.value).padStart(14)} ${r.unit}${peer}${ratio}${target}`);
    }
  });
}
if (!json) {
  const missed = results.filter((r) => r.met === false);
  console.log(`\n${results.length} figures, ${missed.length} below target`);
}
