/**
 * `npm run broker -- --brokers 3 --port 9092 [--host 127.0.0.1] [--topic demo:3:3] [--data DIR]
 * [--override num.partitions=3 ...] [--http-port 8080] [--dist dist]`: the engine in Node, its
 * brokers listening on consecutive ports for real Kafka clients, its files in DIR (a restart on
 * DIR recovers the cluster) or in memory, and the page (the built site) on
 * http://<host>:<http-port>, attached to that engine. `--override` sets a broker config as
 * kafka-server-start.sh's does (server.properties).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrokerConfigInput } from '../engine/index';
import { NodeHost } from './NodeHost';
import { PageServer } from './PageServer';

interface Args {
  brokers: number;
  port: number;
  host: string;
  data?: string;
  /** The page's HTTP port (0: any free port). */
  httpPort: number;
  /** The built site the page is served from. */
  dist: string;
  topics: { name: string; partitions: number; replicationFactor: number }[];
  brokerConfig: BrokerConfigInput;
}

export function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    brokers: 3,
    port: 9092,
    host: '127.0.0.1',
    httpPort: 8080,
    dist: fileURLToPath(new URL('../../dist', import.meta.url)),
    topics: [],
    brokerConfig: {},
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    if (flag === '--brokers') args.brokers = positive(flag, value);
    else if (flag === '--port') args.port = positive(flag, value);
    else if (flag === '--host') args.host = value;
    else if (flag === '--data') args.data = value;
    else if (flag === '--http-port') args.httpPort = value === '0' ? 0 : positive(flag, value);
    else if (flag === '--dist') args.dist = value;
    else if (flag === '--topic') {
      const [name, partitions = '1', rf = '1'] = value.split(':');
      if (!name) throw new Error('--topic needs name[:partitions[:replication factor]]');
      args.topics.push({ name, partitions: positive(flag, partitions), replicationFactor: positive(flag, rf) });
    } else if (flag === '--override') {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new Error('--override needs name=value');
      // The engine validates the name and value when the cluster starts (createBrokerConfig).
      Object.assign(args.brokerConfig, { [value.slice(0, eq)]: value.slice(eq + 1) });
    } else throw new Error(`unknown flag ${flag}`);
  }
  return args;
}

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} takes a positive whole number, not "${value}"`);
  return n;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const host = await NodeHost.open(args);
  await host.start();
  const page = new PageServer(host, { host: args.host, port: args.httpPort, dist: args.dist });
  await page.start();
  const ports = host.listeners.listening().map((id) => `broker ${id} on ${args.host}:${args.port + id - 1}`);
  console.log(`glassbox: Kafka 3.9 (ZooKeeper mode) engine; ${ports.join(', ')}`);
  console.log(`glassbox: the page, attached to this engine: ${page.origin}/`);
  if (!existsSync(join(args.dist, 'index.html')))
    console.log(`glassbox: ${args.dist} holds no built page yet: run \`npm run build\` first`);
  const stop = () => void Promise.all([page.stop(), host.stop()]).then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1]?.endsWith('brokerMain.ts')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
