/** Kafka's wire protocol: message schemas as data, one codec over them, and the headers. */
export * from './apis/apiVersions';
export * from './apis/createTopics';
export * from './apis/describeCluster';
export * from './apis/describeConfigs';
export * from './apis/fetch';
export * from './apis/groupAdmin';
export * from './apis/groups';
export * from './apis/initProducerId';
export * from './apis/listOffsets';
export * from './apis/metadata';
export * from './apis/offsetForLeaderEpoch';
export * from './apis/produce';
export * from './headers';
export * from './schema';
export * from './wireCodec';
