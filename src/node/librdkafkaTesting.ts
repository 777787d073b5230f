/**
 * Test support for the tests where librdkafka judges the Node host: confluent-kafka (python,
 * src/node/clients/confluent.py) and kcat, run as their own processes. A live client prints one
 * JSON line per record it saw acknowledged or read, then one closing object.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const KCAT = '/usr/bin/kcat';
export const PYTHON = '/usr/bin/python3';
export const CONFLUENT = join(dirname(fileURLToPath(import.meta.url)), 'clients', 'confluent.py');

/** Why kcat or confluent-kafka cannot run here, or null. */
export const librdkafkaMissing = (() => {
  if (!existsSync(KCAT)) return `${KCAT} not found (apt-get install kcat)`;
  if (!existsSync(PYTHON)) return `${PYTHON} not found (apt-get install python3-confluent-kafka)`;
  const probe = spawnSync(PYTHON, ['-c', 'import confluent_kafka'], { encoding: 'utf8' });
  return probe.status === 0 ? null : 'python3-confluent-kafka not installed (apt-get install python3-confluent-kafka)';
})();

/** A record a client saw: partition, offset, value. */
export type SeenRecord = [number, number, string];

/** A command's stdout, or its failure with stderr. */
export function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

export interface LiveClient {
  readonly child: ChildProcess;
  /** The closing object once the process exits (null if it printed none). */
  readonly done: Promise<Record<string, unknown> | null>;
  /** What it wrote on stderr so far (librdkafka's and Python's complaints). */
  stderr(): string;
}

/**
 * `confluent.py <args>` whose JSON lines are heard as they come: `onRecord` for each record line,
 * the last object line as `done`. Its stdin stays open (`follow` stops when it closes).
 */
export function confluentLive(args: string[], onRecord: (r: SeenRecord) => void): LiveClient {
  const child = spawn(PYTHON, [CONFLUENT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let pending = '';
  let closing: Record<string, unknown> | null = null;
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const parsed = JSON.parse(line) as SeenRecord | Record<string, unknown>;
      if (Array.isArray(parsed)) onRecord(parsed);
      else closing = parsed;
    }
  });
  const done = new Promise<Record<string, unknown> | null>((resolve) =>
    child.once('exit', () => {
      if (pending.trim()) closing = JSON.parse(pending) as Record<string, unknown>;
      resolve(closing);
    }),
  );
  return { child, done, stderr: () => stderr };
}

/** Every record of `topic` from the beginning, read by kcat: `partition:offset` -> value. */
export async function kcatReadAll(bootstrap: string, topic: string): Promise<Map<string, string>> {
  const lines = await run(KCAT, [
    '-b',
    bootstrap,
    '-C',
    '-t',
    topic,
    '-o',
    'beginning',
    '-e',
    '-q',
    '-f',
    '%p:%o %s\n',
  ]);
  const found = new Map<string, string>();
  for (const line of lines.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) found.set(line.slice(0, space), line.slice(space + 1));
  }
  return found;
}
