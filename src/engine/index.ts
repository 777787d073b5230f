// Public surface of the engine. A plain list of re-exports; append yours below.
export { crc32c, defaultPartition, murmur2, toPositive } from './codec';
