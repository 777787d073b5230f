/**
 * Finds a Chromium for Playwright, in this order: an explicit path from PLAYWRIGHT_CHROMIUM_PATH
 * (or CHROMIUM_PATH), Debian's /usr/bin/chromium, Playwright's own downloaded browser. Returns
 * undefined when only Playwright's own browser should be used (its default lookup).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface BrowserChoice {
  executablePath: string | undefined;
  source: 'env' | 'debian' | 'playwright' | 'none';
}

export function findChromium(): BrowserChoice {
  const explicit = process.env.PLAYWRIGHT_CHROMIUM_PATH || process.env.CHROMIUM_PATH;
  if (explicit) {
    if (!existsSync(explicit)) {
      throw new Error(`PLAYWRIGHT_CHROMIUM_PATH points at ${explicit}, which does not exist.`);
    }
    return { executablePath: explicit, source: 'env' };
  }
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(p)) return { executablePath: p, source: 'debian' };
  }
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return { executablePath: undefined, source: 'playwright' };
  } catch {
    // Playwright has no browser of its own here.
  }
  return { executablePath: undefined, source: 'none' };
}
