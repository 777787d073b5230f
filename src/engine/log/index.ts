/**
 * The partition log (Kafka's storage layer: UnifiedLog -> LocalLog -> LogSegments -> LogSegment ->
 * OffsetIndex/TimeIndex). Entry points:
 *  - `new UnifiedLog({dir, config, clock, writer})` / `await UnifiedLog.load(store, dir, config, clock)`
 *    (the latter returns a LogRecoveryReport of what recovery did, per segment);
 *  - appendAsLeader / appendAsFollower, fetch(offset, maxBytes, maxOffset?), truncateTo,
 *    truncateFullyAndStartAt, deleteOldSegments (retention), compact (log cleaner), flush / maybeFlush;
 *  - lookup(offset) and lookupByTimestamp(ts): the answer plus a LookupStep[] trace for the UI;
 *  - segmentInfos(): per-segment sizes, flushed vs unflushed bytes, index fill.
 * Config keys are Kafka's (LogConfig.ts); errors are KafkaErrors with Kafka's names.
 */
export * from './AbstractIndex';
export * from './FileRecords';
export * from './LeaderEpochFileCache';
export * from './LogCleaner';
export * from './LogConfig';
export * from './LogFileUtils';
export * from './LogLoader';
export * from './LogSegment';
export * from './LogSegments';
export * from './LookupTrace';
export * from './OffsetIndex';
export * from './LocalLog';
export * from './OffsetLookup';
export * from './UnifiedLog';
export * from './StoreWriter';
export * from './TimeIndex';
export * from './RecordLocator';
