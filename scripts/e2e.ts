/**
 * `npm run test:e2e`: makes sure a Chromium exists, then runs the Playwright suite against the
 * production build in dist/ (npm test builds it first). As root with apt available it installs
 * Debian's chromium itself; otherwise it says exactly what to do.
 */
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './browser';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

function tryInstallDebianChromium(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) return false;
  console.log('No Chromium found: installing Debian chromium with apt-get (root) ...');
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
      stdio: 'inherit',
    });
  } catch {
    return false;
  }
  return existsSync('/usr/bin/chromium');
}

let choice = findChromium();
if (choice.source === 'none' && tryInstallDebianChromium()) choice = findChromium();
if (choice.source === 'none') {
  console.error(
    [
      'No Chromium for the end-to-end tests. Do one of:',
      '  - Debian/Ubuntu: sudo apt-get install -y chromium',
      '  - any OS with network access: npx playwright install chromium',
      '  - or point PLAYWRIGHT_CHROMIUM_PATH at a Chromium/Chrome binary.',
    ].join('\n'),
  );
  process.exit(1);
}
if (!existsSync('dist/index.html')) {
  console.log('dist/ is missing: building the site first ...');
  execSync('npx vite build', { stdio: 'inherit' });
}
console.log(`Chromium: ${choice.executablePath ?? "Playwright's own browser"} (${choice.source})`);
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
