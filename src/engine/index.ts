// Public surface of the engine. A plain list of re-exports; append yours below.
export { crc32c, defaultPartition, murmur2, toPositive } from './codec';
export type { AssignReplicasOptions, BrokerRackInfo, PlacementStep } from './cluster/ReplicaPlacement';
export {
  assignReplicasToBrokers,
  assignReplicasToBrokersWithSteps,
  getRackAlternatedBrokerList,
} from './cluster/ReplicaPlacement';
export * from './cluster/requests';
