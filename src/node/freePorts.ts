/**
 * Ports for tests that start brokers: `count` consecutive ports on 127.0.0.1 that are free now,
 * from a random base. Fixed ports collided when two test files (or two checkouts' runs) started
 * brokers at once and one failed with EADDRINUSE.
 */
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free ports between 20,000 and 60,000. */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = randomInt(20_000, 60_000 - count);
    let free = true;
    for (let p = base; p < base + count && free; p++) free = await isFree(p);
    if (free) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
