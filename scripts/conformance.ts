/**
 * `npm run conformance [-- --quick] [--tests 0001,0030] [--timeout 180] [--no-write]`:
 * librdkafka's own test suite judges the Node host (`npm run broker`), as a client library's
 * maintainers judge a broker. Debian's source package `librdkafka` (the version the machine's
 * kcat links) brings the suite; its test-runner is built once into a cache directory
 * (GLASSBOX_CACHE, default ~/.cache/glassbox). Every test that applies to a Kafka 3.9
 * ZooKeeper-mode broker runs alone, against a fresh three-broker host, with a time limit; the
 * table (test, result, seconds, first failure line) is printed and written to
 * docs/CONFORMANCE.md, with the tests that do not apply and why.
 *
 * Not part of `npm test`: building the suite takes minutes and the full run about an hour.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

interface Options {
  quick: boolean;
  only?: string[];
  timeoutS: number;
  write: boolean;
  port: number;
}

/** One test of librdkafka's `tests/test.c` table, as declared there. */
export interface SuiteTest {
  id: string;
  name: string;
  flags: string[];
  /** The cluster configuration it needs (tests/scenarios/<scenario>.json). */
  scenario: string;
}

/** The runner's colour codes (ESC [ ... m). */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export type Verdict = 'PASSED' | 'FAILED' | 'SKIPPED' | 'TIMEOUT';

export interface TestResult {
  test: SuiteTest;
  verdict: Verdict;
  seconds: number;
  firstFailure: string;
}

/**
 * The quick subset: produce, consume, groups, offsets, admin and idempotence, each test short on
 * a 2-core machine.
 */
export const QUICK = [
  '0001',
  '0002',
  '0005',
  '0007',
  '0008',
  '0012',
  '0013',
  '0014',
  '0015',
  '0019',
  '0021',
  '0029',
  '0030',
  '0031',
  '0034',
  '0035',
  '0036',
  '0041',
  '0042',
  '0044',
  '0063',
  '0071',
  '0073',
  '0082',
  '0090',
  '0092',
  '0099',
];

/** Tests that cannot apply to this broker, with the reason (beyond the flags read from test.c). */
export const NOT_APPLICABLE: Record<string, string> = {
  '0052': "needs Kafka's shell scripts (kafka-topics.sh via KAFKA_PATH) to create its topic",
  '0077': "needs Kafka's shell scripts (kafka-configs.sh via KAFKA_PATH) to alter a topic's config",
  '0115': 'needs a SASL listener (producer authorization errors)',
  '0119': 'needs a SASL listener (consumer authorization errors)',
  '0126': 'needs an OAUTHBEARER/OIDC listener',
};

/** Tests that exercise transactions, which the host does not serve yet (issue 27). */
export const TRANSACTIONS: Record<string, string> = {
  '0055': 'its transactional sub-test needs InitProducerId with a transactional.id (issue 27)',
  '0061': 'read_committed consumption of transactional batches (issue 27)',
  '0098': 'transactional producer and consumer (issue 27)',
  '0103': 'transactions (issue 27)',
  '0129': 'aborted transactions in fetch responses (issue 27)',
};

/** Reads the suite's table of tests (`struct test tests[]` in tests/test.c). */
export function readSuite(testC: string): SuiteTest[] {
  const from = testC.indexOf('struct test tests[] = {');
  const table = testC.slice(from, testC.indexOf('\n};', from));
  const out: SuiteTest[] = [];
  // Each entry runs from its `_TEST(` to the next one: the flags, then optional named fields.
  for (const entry of table.split('_TEST(').slice(1)) {
    const m = /^(\d{4})_(\w+),\s*([^,)]*)/.exec(entry);
    if (!m) continue;
    const [, id = '', name = '', flagText = ''] = m;
    const flags = flagText
      .split('|')
      .map((f) => f.trim())
      .filter((f) => f.startsWith('TEST_F_'));
    // A test runs in the scenarios its `.scenario` names ("default" when it names none).
    const scenario = /\.scenario\s*=\s*"([^"]*)"/.exec(entry)?.[1]?.split(',')[0] ?? 'default';
    if (!out.some((t) => t.id === id && t.name === name)) out.push({ id, name, flags, scenario });
  }
  return out;
}

/**
 * The broker configs of librdkafka's test scenarios (tests/scenarios/*.json, which its trivup
 * clusters start with), as `npm run broker` overrides.
 */
export const SCENARIOS: Record<string, string[]> = {
  default: ['auto.create.topics.enable=true', 'num.partitions=4', 'default.replication.factor=3'],
  noautocreate: ['auto.create.topics.enable=false', 'num.partitions=4', 'default.replication.factor=3'],
};

/** Why a test does not apply to a Kafka 3.9 ZooKeeper-mode broker, or undefined if it does. */
export function whyNotApplicable(t: SuiteTest): string | undefined {
  if (t.flags.includes('TEST_F_LOCAL')) return 'runs without a broker (librdkafka against itself or its mock cluster)';
  if (!SCENARIOS[t.scenario]) return `needs librdkafka's "${t.scenario}" test scenario`;
  if (t.flags.includes('TEST_F_KNOWN_ISSUE'))
    return 'marked TEST_F_KNOWN_ISSUE by librdkafka: skipped by its own runner';
  return NOT_APPLICABLE[t.id];
}

/** The verdict and first failure line of one `test-runner` run's output. */
export function judge(
  output: string,
  exitCode: number | null,
  timedOut: boolean,
): Omit<TestResult, 'test' | 'seconds'> {
  const lines = output.replace(ANSI_COLOUR, '').split('\n');
  // The runner prints `### Test "<name> (<sub-test>)" failed at <file>:<line>: ###` and then the
  // assertion's message on the next line: the message says what the broker did wrong.
  const at = lines.findIndex((l) => /^### Test .* failed/.test(l.trim()));
  const failure =
    at >= 0
      ? `${lines[at + 1]?.trim() ?? ''} (${(lines[at] ?? '').trim().replace(/^### Test "([^"]*)".*/, '$1')})`
      : (lines.find((l) => /TEST FAILURE|Test \S+ FAILED/.test(l)) ?? '');
  const firstFailure = failure.trim().slice(0, 240);
  if (timedOut) return { verdict: 'TIMEOUT', firstFailure };
  if (/Test \S+ SKIPPED/.test(output) && !/Test \S+ FAILED/.test(output)) {
    const reason = lines.find((l) => /SKIPPING|skipping|Skipping/.test(l)) ?? '';
    return {
      verdict: 'SKIPPED',
      firstFailure: reason
        .replace(/^\[[^\]]*\]\s*/, '')
        .trim()
        .slice(0, 240),
    };
  }
  if (exitCode === 0 && /Test \S+ PASSED|ALL TESTS PASSED/.test(output)) return { verdict: 'PASSED', firstFailure: '' };
  return { verdict: 'FAILED', firstFailure };
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { quick: false, timeoutS: 180, write: true, port: 19092 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') o.quick = true;
    else if (a === '--no-write') o.write = false;
    else if (a === '--tests') o.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--timeout') o.timeoutS = Number(argv[++i]);
    else if (a === '--port') o.port = Number(argv[++i]);
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

function sh(cmd: string, cwd?: string): void {
  execSync(cmd, { cwd, stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** librdkafka's source tree with its test-runner built, from Debian's source package. */
function ensureSuite(): string {
  const cache = process.env.GLASSBOX_CACHE ?? join(homedir(), '.cache', 'glassbox');
  mkdirSync(cache, { recursive: true });
  let src = readdirSync(cache).find((d) => /^librdkafka-\d/.test(d));
  if (!src) {
    const isRoot = process.getuid?.() === 0;
    if (!isRoot)
      throw new Error('librdkafka source missing: run as root once (apt-get source needs deb-src and build deps)');
    const srcList = '/etc/apt/sources.list.d/debian-src.sources';
    if (!existsSync(srcList) && existsSync('/etc/apt/sources.list.d/debian.sources')) {
      const deb = readFileSync('/etc/apt/sources.list.d/debian.sources', 'utf8');
      writeFileSync(srcList, deb.replace(/^Types: deb$/gm, 'Types: deb-src'));
    }
    sh('apt-get update -qq');
    sh('apt-get build-dep -y -qq librdkafka');
    sh('apt-get source -qq librdkafka', cache);
    src = readdirSync(cache).find((d) => /^librdkafka-\d/.test(d));
    if (!src) throw new Error('apt-get source librdkafka brought no source tree');
  }
  const dir = join(cache, src);
  if (!existsSync(join(dir, 'tests', 'test-runner'))) {
    // SASL, SSL and the external compressors are not needed to judge a plaintext broker.
    if (!existsSync(join(dir, 'Makefile.config')))
      sh(
        './configure --disable-ssl --disable-gssapi --disable-sasl --disable-zstd --disable-lz4-ext --disable-curl',
        dir,
      );
    sh('make -j2 libs', dir);
    sh('make -j2 -C tests build', dir);
  }
  return dir;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`port ${port} did not open`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

async function startBroker(
  port: number,
  scenario: string,
): Promise<{ proc: ChildProcess; data: string; log: () => string }> {
  const overrides = (SCENARIOS[scenario] ?? []).flatMap((o) => ['--override', o]);
  const data = mkdtempSync(join(tmpdir(), 'glassbox-conformance-'));
  // One process (node with tsx's loader), so its exit means no broker writes the data dir any more.
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/node/brokerMain.ts',
      '--brokers',
      '3',
      '--port',
      String(port),
      '--http-port',
      '0',
      '--data',
      data,
      ...overrides,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  for (const p of [port, port + 1, port + 2]) await waitForPort(p, 60_000);
  return { proc, data, log: () => out };
}

function stopBroker(b: { proc: ChildProcess; data: string }): Promise<void> {
  return new Promise((resolve) => {
    const kill = setTimeout(() => b.proc.kill('SIGKILL'), 10_000);
    b.proc.once('exit', () => {
      clearTimeout(kill);
      rmSync(b.data, { recursive: true, force: true, maxRetries: 5 });
      resolve();
    });
    b.proc.kill('SIGTERM');
  });
}

function runOne(testsDir: string, t: SuiteTest, timeoutS: number, quick: boolean): Promise<TestResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const proc = spawn('./test-runner', ['-S', '-p1', ...(quick ? ['-Q'] : [])], {
      cwd: testsDir,
      env: {
        ...process.env,
        LD_LIBRARY_PATH: '../src:../src-cpp',
        TESTS: `${t.id}_${t.name}`,
        TEST_SCENARIO: t.scenario,
        TEST_KAFKA_VERSION: '3.9.0',
        TEST_LEVEL: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
    });
    proc.stderr.on('data', (d) => {
      out += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, timeoutS * 1000);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      resolve({ test: t, seconds, ...judge(out, code, timedOut) });
    });
  });
}

export function table(results: readonly TestResult[], skipped: readonly { test: SuiteTest; why: string }[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const passed = results.filter((r) => r.verdict === 'PASSED').length;
  const lines = [
    '# librdkafka conformance',
    '',
    `librdkafka ${process.env.RDKAFKA_VERSION ?? '2.0.2'}'s own test suite (Debian's source package) against \`npm run broker -- --brokers 3\`,`,
    'one test at a time with `TEST_KAFKA_VERSION=3.9.0`, each on a fresh host started with the configs of its scenario. Written by `npm run conformance`.',
    '',
    `**${passed} passed** of ${results.length} run; ${skipped.length} do not apply (listed below).`,
    '',
    '| test | result | seconds | first failure line |',
    '| --- | --- | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.test.id}_${r.test.name} | ${r.verdict}${TRANSACTIONS[r.test.id] && r.verdict !== 'PASSED' ? ' (expected: transactions)' : ''} | ${r.seconds.toFixed(1)} | ${esc(r.firstFailure)} |`,
    ),
    '',
    '## Tests that do not apply',
    '',
    '| test | why |',
    '| --- | --- |',
    ...skipped.map((s) => `| ${s.test.id}_${s.test.name} | ${esc(s.why)} |`),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const dir = ensureSuite();
  const testsDir = join(dir, 'tests');
  const suite = readSuite(readFileSync(join(testsDir, 'test.c'), 'utf8'));
  const skipped: { test: SuiteTest; why: string }[] = [];
  const toRun: SuiteTest[] = [];
  for (const t of suite) {
    if (o.only && !o.only.includes(t.id)) continue;
    if (!o.only && o.quick && !QUICK.includes(t.id)) continue;
    const why = whyNotApplicable(t);
    if (why) skipped.push({ test: t, why });
    else toRun.push(t);
  }
  writeFileSync(
    join(testsDir, 'test.conf'),
    [
      `bootstrap.servers=127.0.0.1:${o.port},127.0.0.1:${o.port + 1},127.0.0.1:${o.port + 2}`,
      'test.timeout.multiplier=3',
      '',
    ].join('\n'),
  );
  const results: TestResult[] = [];
  for (const t of toRun) {
    // A fresh host per test: one test's topics, groups and throttles never judge the next.
    const broker = await startBroker(o.port, t.scenario);
    const r = await runOne(testsDir, t, o.timeoutS, o.quick);
    await stopBroker(broker);
    results.push(r);
    console.log(`${t.id}_${t.name}  ${r.verdict}  ${r.seconds.toFixed(1)} s  ${r.firstFailure}`);
  }
  const md = table(results, skipped);
  if (o.write && !o.only && !o.quick) writeFileSync(join(ROOT, 'docs', 'CONFORMANCE.md'), md);
  const passed = results.filter((r) => r.verdict === 'PASSED').length;
  const expected = results.filter((r) => r.verdict !== 'PASSED' && TRANSACTIONS[r.test.id]).length;
  const failed = results.length - passed - expected;
  console.log(`${passed} passed, ${failed} failed (${expected} expected failures: transactions, issue 27)`);
  process.exit(failed > 0 ? 1 : 0);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  });
}
