// The codec layer: Kafka's byte formats, byte-exact. See each module's header for its format.
export * from './crc32c';
export * from './murmur2';
export * from './utf8';
export * from './varint';
