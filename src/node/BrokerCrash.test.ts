/**
 * Issue 29's "done when": the broker process (`npm run broker -- --data DIR`) is killed with
 * SIGKILL while a real client (confluent-kafka, librdkafka) produces with acks=all, and restarted
 * on the same DIR: every record the client saw acknowledged is there, at its offset, and every
 * offset a consumer group committed before the kill is still committed.
 *
 * Kafka's guarantee here: LogSegment.append writes each append to the segment's FileChannel (the
 * OS page cache, which outlives the process) before the leader can count it replicated, and the
 * answer goes out only after; a process crash loses nothing written. glassbox's host writes each
 * append through to its files (StoreWriter.writeThrough) and answers only once the writes issued
 * so far are in the files (WireGateway's `written`).
 *
 * Needs python3-confluent-kafka and kcat (apt); skipped, the reason in its name, without them.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBroker, stopProcess } from './brokerProcess';
import { freePortRange } from './freePorts';
import {
  CONFLUENT,
  confluentLive,
  kcatReadAll,
  librdkafkaMissing,
  PYTHON,
  run,
  type SeenRecord,
} from './librdkafkaTesting';

const PORT = await freePortRange(8);
const BOOTSTRAP = `127.0.0.1:${PORT}`;
const data = mkdtempSync(join(tmpdir(), 'glassbox-crash-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) void stopProcess(c, 'SIGKILL');
  rmSync(data, { recursive: true, force: true });
});

/** `npm run broker` as its own process on `data`; resolves once its listeners are open. */
async function startBroker(): Promise<ChildProcess> {
  const { child } = await spawnBroker([
    ...['--brokers', '3', '--port', String(PORT), '--data', data, '--topic', 'crash:3:3'],
    ...['--http-port', '0', '--dist', join(data, 'no-page')],
  ]);
  children.push(child);
  return child;
}

/**
 * confluent-kafka's acks=all producer of `count` records at `rate` records/s; `onAck` hears each
 * acknowledged [partition, offset, value] as its delivery report arrives. Resolves when it exits.
 */
async function produce(prefix: string, count: number, rate: number, onAck: (ack: SeenRecord) => void): Promise<void> {
  const args = ['acks', BOOTSTRAP, 'crash', String(count), String(rate), '5000', prefix];
  const producer = confluentLive(args, onAck);
  children.push(producer.child);
  producer.child.stdin?.end();
  await producer.done;
}

describe('the Node host killed with SIGKILL during an acks=all produce', () => {
  it.skipIf(librdkafkaMissing !== null)(
    `keeps every acknowledged record and every committed offset across a restart on the same --data${librdkafkaMissing ? ` [skipped: ${librdkafkaMissing}]` : ''}`,
    async () => {
      let broker = await startBroker();
      const acked = new Map<string, string>();
      const ack = ([p, o, v]: SeenRecord) => acked.set(`${p}:${o}`, v);

      // 1,000 records, then a group reads them all and commits (commitSync): the offsets to keep.
      await produce('first', 1000, 100_000, ack);
      expect(acked.size).toBe(1000);
      const consumed = JSON.parse(await run(PYTHON, [CONFLUENT, 'consume', BOOTSTRAP, 'crash-group', 'crash', '1000']))
        .committed as Record<string, number>;
      // A partition the sticky partitioner gave no record has nothing committed (librdkafka's
      // OFFSET_INVALID, -1001): only the committed offsets add up to the records read.
      expect(
        Object.values(consumed)
          .filter((o) => o >= 0)
          .reduce((a, b) => a + b, 0),
      ).toBe(1000);

      // A second producer at 2,000 records/s; the broker dies by SIGKILL once 1,500 more are acknowledged.
      let killed = false;
      const second = produce('second', 20_000, 2000, (a) => {
        ack(a);
        if (!killed && acked.size >= 2500) {
          killed = true;
          broker.kill('SIGKILL');
        }
      });
      await new Promise<void>((resolve) => broker.once('exit', () => resolve()));
      expect(broker.signalCode).toBe('SIGKILL');
      await second;
      expect(acked.size).toBeGreaterThanOrEqual(2500);

      broker = await startBroker();
      // Every acknowledged record is read back at its offset (kcat: partition, offset, value per line).
      const found = await kcatReadAll(BOOTSTRAP, 'crash');
      const lost = [...acked].filter(([at, value]) => found.get(at) !== value);
      expect(lost).toEqual([]);
      // None twice: the idempotent producer's retries to the restarted broker were recognised by
      // their sequence numbers (its producer state came back from the snapshots and the log).
      const values = [...found.values()];
      expect(values.length - new Set(values).size, 'records written twice').toBe(0);
      // And the group's commits are still there.
      const committed = JSON.parse(await run(PYTHON, [CONFLUENT, 'committed', BOOTSTRAP, 'crash-group', 'crash', '3']));
      expect(committed).toEqual(consumed);
      await stopProcess(broker, 'SIGTERM');
    },
    120_000,
  );
});
