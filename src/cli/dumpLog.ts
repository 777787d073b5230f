/**
 * `npm run dump-log -- <file>... [--print-data] [--deep-iteration]`: prints segment files the way
 * Kafka's `kafka-dump-log.sh --files <file>` does (`--files a,b` is accepted too). Reads `.log`,
 * `.index`, `.timeindex` and KRaft `.checkpoint` files written by glassbox or by a real broker.
 * An index is cross-checked against the `.log` (and `.index`) beside it when they exist.
 *
 * Exit status: 0 when every file is valid; 1 when anything is corrupt or mismatched (reported on
 * stderr as `<file>: position <n>: <what>`); 2 for a usage error or an unreadable file.
 * The formatting lives in src/engine/codec/dumpLog.ts; this file only does argv and the file system.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dumpSegmentFile, segmentFileKind } from '../engine';

const USAGE =
  'usage: npm run dump-log -- <file>... [--print-data] [--deep-iteration]   (or --files <file>[,<file>...])';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

function readSibling(path: string, suffix: string): Uint8Array | null {
  const stem = basename(path).split('.')[0] ?? '';
  const sibling = join(dirname(path), stem + suffix);
  return existsSync(sibling) ? new Uint8Array(readFileSync(sibling)) : null;
}

/** Runs the tool and returns its exit status. */
export function main(argv: readonly string[], io: CliIo = consoleIo): number {
  const files: string[] = [];
  const options = { printData: false, deepIteration: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--print-data') options.printData = true;
    else if (arg === '--deep-iteration') options.deepIteration = true;
    else if (arg === '--files') files.push(...(argv[++i] ?? '').split(',').filter((f) => f !== ''));
    else if (arg === '--help' || arg === '-h') {
      io.out(USAGE);
      return 0;
    } else if (arg.startsWith('--')) {
      io.err(`unknown option ${arg}\n${USAGE}`);
      return 2;
    } else files.push(arg);
  }
  if (files.length === 0) {
    io.err(USAGE);
    return 2;
  }

  let status = 0;
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(file));
    } catch (e) {
      io.err(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      status = 2;
      continue;
    }
    const kind = segmentFileKind(file);
    const siblings =
      kind === 'index'
        ? { log: readSibling(file, '.log') }
        : kind === 'timeindex'
          ? { log: readSibling(file, '.log'), index: readSibling(file, '.index') }
          : {};
    const result = dumpSegmentFile(file, bytes, options, siblings);
    for (const line of result.stdout) io.out(line);
    for (const line of result.stderr) io.err(line);
    if (!result.ok && status === 0) status = 1;
  }
  return status;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = main(process.argv.slice(2));
}
