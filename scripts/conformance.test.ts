import { describe, expect, it } from 'vitest';
import { cppOnlyMains, judge, judgeEntry, QUICK, readSuite, whyNotApplicable } from './conformance';

// Excerpts of librdkafka 2.0.2's tests/test.c table and of its test-runner's output, as the
// conformance runner reads them.
const TEST_C = `
struct test tests[] = {
    {.name = "<MAIN>", .flags = TEST_F_LOCAL},
    _TEST(0000_unittests,
          TEST_F_LOCAL,
          _THRES(.ucpu = 100.0, .scpu = 20.0, .rss = 900.0)),
    _TEST(0001_multiobj, 0),
    _TEST(0047_partial_buf_tmout, TEST_F_KNOWN_ISSUE),
    _TEST(0049_consume_conn_close, TEST_F_SOCKEM, TEST_BRKVER(0, 9, 0, 0)),
    _TEST(0052_msg_timestamps, 0, TEST_BRKVER(0, 10, 0, 0)),
`;

const FAILED_0030 = [
  '\x1b[36m[0030_offset_commit          /  5.260s] TEST FAILURE',
  '\x1b[0m\x1b[31m### Test "0030_offset_commit (do_nonexist_commit:497)" failed at 0030-offset_commit.c:479:nonexist_offset_commit_cb() at Mon Dec  7 14:26:48 2026: ###',
  'Test assertion failed: "err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART": expected unknown Topic or partition, not Success',
  '\x1b[0m\x1b[36m[<MAIN>                      /  6.342s] TEST FAILURE',
].join('\n');

const PASSED_0001 = [
  '\x1b[36m[0001_multiobj               /  1.112s] \x1b[32m================= Test 0001_multiobj PASSED =================\x1b[0m',
  '============== ALL TESTS PASSED ==============',
].join('\n');

describe('conformance runner', () => {
  it("reads the suite's table with each test's flags", () => {
    const suite = readSuite(TEST_C);
    expect(suite.map((t) => `${t.id}_${t.name}`)).toEqual([
      '0000_unittests',
      '0001_multiobj',
      '0047_partial_buf_tmout',
      '0049_consume_conn_close',
      '0052_msg_timestamps',
    ]);
    expect(suite[3]?.flags).toEqual(['TEST_F_SOCKEM']);
    expect(suite.map((t) => t.scenario)).toEqual(['default', 'default', 'default', 'default', 'default']);
  });

  it('says why a test does not apply: local, known issue, or needing what a broker cannot give', () => {
    const why = readSuite(TEST_C).map(whyNotApplicable);
    expect(why[0]).toMatch(/without a broker/);
    expect(why[1]).toBeUndefined();
    expect(why[2]).toMatch(/KNOWN_ISSUE/);
    expect(why[3]).toBeUndefined();
    expect(why[4]).toMatch(/kafka-topics\.sh/);
  });

  it("takes the assertion's message as the first failure line", () => {
    const r = judge(FAILED_0030, 134, false);
    expect(r.verdict).toBe('FAILED');
    expect(r.firstFailure).toBe(
      'Test assertion failed: "err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART": expected unknown Topic or partition, not Success (0030_offset_commit (do_nonexist_commit:497))',
    );
  });

  it('passes only a run that exits 0 and says PASSED; a killed run is a timeout', () => {
    expect(judge(PASSED_0001, 0, false).verdict).toBe('PASSED');
    expect(judge(PASSED_0001, 1, false).verdict).toBe('FAILED');
    expect(judge('', null, true).verdict).toBe('TIMEOUT');
  });

  it('builds a skipping stand-in only for the entry points no C file defines (the C++ tests)', () => {
    // librdkafka 2.0.2's tests/test.c declares every test with _TEST_DECL; 0053_stats is C++.
    const testC = '_TEST_DECL(0001_multiobj);\n_TEST_DECL(0053_stats);\n_TEST_DECL(0053_stats_timing);\n';
    const c = ['int main_0001_multiobj(int argc, char **argv) {\n  return 0;\n}\n'];
    expect(cppOnlyMains(testC, c)).toEqual(['main_0053_stats', 'main_0053_stats_timing']);
  });

  it('the quick subset CI runs holds at least 20 tests, none that cannot apply', () => {
    const testC = `struct test tests[] = {\n${QUICK.map((id) => `    _TEST(${id}_t, 0),`).join('\n')}\n};`;
    const suite = readSuite(testC);
    expect(suite.length).toBeGreaterThanOrEqual(20);
    expect(suite.map(whyNotApplicable).filter(Boolean)).toEqual([]);
  });

  it("judges each entry of a test number from its own lines (the runner runs a number's entries together)", () => {
    // librdkafka 2.0.2 test.c: TESTS is matched against the test number, so TESTS=0045 runs
    // 0045_subscribe_update_topic_remove and 0045_subscribe_update_non_exist_and_partchange in one go.
    const run = [
      '[0045_subscribe_update_non_exist_and_partchange/  0.001s] ================= Running test 0045_subscribe_update_non_exist_and_partchange =================',
      '[0045_subscribe_update_non_exist_and_partchange/  9.100s] ================= Test 0045_subscribe_update_non_exist_and_partchange PASSED =================',
      '[0045_subscribe_update_topic_remove /  0.001s] ================= Running test 0045_subscribe_update_topic_remove =================',
      '[0045_subscribe_update_topic_remove / 20.600s] TEST FAILURE',
      '### Test "0045_subscribe_update_topic_remove (do_test_topic_remove:298: Topic removal testing)" failed at test.c:5400:test_kafka_topics() at Mon Dec  7 14:26:48 2026: ###',
      'test_kafka_topics: KAFKA_PATH and BROKERS must be set',
      '[<MAIN>                      / 21.000s] TEST FAILURE',
    ].join('\n');
    expect(judgeEntry(run, '0045_subscribe_update_non_exist_and_partchange', 134, false).verdict).toBe('PASSED');
    const removed = judgeEntry(run, '0045_subscribe_update_topic_remove', 134, false);
    expect(removed.verdict).toBe('FAILED');
    expect(removed.firstFailure).toMatch(/^test_kafka_topics: KAFKA_PATH and BROKERS must be set/);
    expect(judgeEntry(run, '0045_subscribe_update', 0, false).verdict).toBe('SKIPPED');
  });

  it("a test that needs Kafka's shell scripts does not apply, by its full name", () => {
    const suite = readSuite(
      'struct test tests[] = {\n    _TEST(0045_subscribe_update, 0),\n    _TEST(0045_subscribe_update_topic_remove, 0),\n};',
    );
    expect(suite.map(whyNotApplicable)).toEqual([undefined, expect.stringMatching(/kafka-topics\.sh/)]);
  });

  it('a manual test does not apply (librdkafka 2.0.2 test.c: 8000_idle is TEST_F_MANUAL)', () => {
    const suite = readSuite('struct test tests[] = {\n    _TEST(8000_idle, TEST_F_MANUAL),\n};');
    expect(whyNotApplicable(suite[0] as (typeof suite)[number])).toMatch(/TEST_F_MANUAL/);
  });
});
