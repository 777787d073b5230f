// The codec layer: Kafka's byte formats, byte-exact. See each module's header for its format.
export * from './compression';
export * from './crc32c';
export * from './murmur2';
export * from './recordBatch';
export * from './utf8';
export * from './varint';
export * from './bytes';
export * from './dumpLog';
export * from './producerSnapshot';
export * from './memoryRecords';
export * from './logInputStream';
