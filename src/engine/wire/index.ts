/** Kafka's wire protocol: message schemas as data, one codec over them, and the headers. */
export * from './apis/apiVersions';
export * from './apis/metadata';
export * from './headers';
export * from './schema';
export * from './wireCodec';
