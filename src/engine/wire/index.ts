/** Kafka's wire protocol: message schemas as data, one codec over them, and the headers. */
export * from './apis/apiVersions';
export * from './apis/fetch';
export * from './apis/groups';
export * from './apis/initProducerId';
export * from './apis/listOffsets';
export * from './apis/metadata';
export * from './apis/produce';
export * from './headers';
export * from './schema';
export * from './wireCodec';
