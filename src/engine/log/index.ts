// The partition log: segments, sparse indexes, lookup with a trace, recovery, retention, compaction.
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
export * from './PartitionLog';
export * from './StoreWriter';
export * from './TimeIndex';
export * from './RecordLocator';
