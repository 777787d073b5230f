/**
 * The engine's commands: one op-tagged union, EngineCommand, that Engine.apply dispatches. A
 * command that is refused throws a KafkaError and changes nothing. The app layer's scenario actions
 * (ScenarioAction in engine/apps) use the same words for the commands the engine has, and the
 * fault schedules (FaultStep) take its broker commands, so a kill from the page, from a link and
 * from a Jepsen-style schedule is the same command.
 */
import type { AddBrokerOptions, Cluster, CreateTopicOptions } from './cluster/Cluster';
import type { GroupProtocol } from './consumerApps/ConsumerApplications';
import type { AssignmentStrategy } from './clients/consumer/ConsumerConfig';
import type { ProducerConfigInput } from './producer/ProducerConfig';
import type { ProducerRecordInput, SendManyOptions } from './producer/ProducerRegistry';

/** The command table: op -> [arguments, result]. Add new commands here. */
export interface EngineCommandTable {
  addBroker: [AddBrokerOptions, number];
  /** The process dies: no controlled shutdown, the session expires (kill -9). */
  killBroker: [{ broker: number }, undefined];
  /** The machine loses power: what the disk had not made durable is lost with it. */
  powerFailBroker: [{ broker: number }, undefined];
  /** A controlled shutdown (leadership moved away first). */
  stopBroker: [{ broker: number }, undefined];
  restartBroker: [{ broker: number }, undefined];
  /** The broker is cut off from the network (it keeps running). */
  isolateBroker: [{ broker: number }, undefined];
  healBroker: [{ broker: number }, undefined];
  createTopic: [CreateTopicOptions, number[][]];
  createPartitions: [{ topic: string; totalCount: number; assignment?: number[][] }, number[][]];
  deleteTopic: [{ topic: string }, undefined];
  alterTopicConfig: [
    { topic: string; configs: Record<string, string | number | boolean | string[] | null> },
    undefined,
  ];
  electPreferredLeaders: [{ partitions?: { topic: string; partition: number }[] }, undefined];
  reassignPartitions: [{ moves: { topic: string; partition: number; replicas: number[] }[] }, undefined];
  setNetworkLatency: [{ latencyMs: number; between?: [number, number] }, undefined];
  // --- consumer groups ---
  createConsumer: [
    {
      consumerId: string;
      groupId: string;
      config?: Record<string, unknown>;
      topics?: string[];
      pollIntervalMs?: number;
    },
    undefined,
  ];
  subscribeConsumer: [{ consumerId: string; topics: string[] }, undefined];
  crashConsumer: [{ consumerId: string }, undefined];
  closeConsumer: [{ consumerId: string }, undefined];
  moveConsumer: [{ consumerId: string; groupId: string }, undefined];
  setGroupAssignor: [{ groupId: string; strategy: AssignmentStrategy }, undefined];
  setGroupProtocol: [{ groupId: string; protocol: GroupProtocol }, undefined];
  deleteConsumerGroup: [{ groupId: string }, undefined];
  // --- producers: client ids are returned by createProducer (default producer-1, producer-2, ...) ---
  createProducer: [{ config?: ProducerConfigInput }, string];
  /** Returns the record's send id; its deliveryReport event carries the same id. */
  send: [{ producer: string; record: ProducerRecordInput }, number];
  sendMany: [{ producer: string } & SendManyOptions, number[]];
  /** Kafka's close(): finishes sending first; `force` is close(Duration.ZERO). */
  closeProducer: [{ producer: string; force?: boolean }, undefined];
}

export type EngineCommandOp = keyof EngineCommandTable;

/** One command: its op and its arguments in one object (`{ op: 'killBroker', broker: 2 }`). */
export type EngineCommand<K extends EngineCommandOp = EngineCommandOp> = {
  [P in K]: { op: P } & EngineCommandTable[P][0];
}[K];

export type EngineCommandResult<K extends EngineCommandOp> = EngineCommandTable[K][1];

/** A command's arguments without its op (what the Cluster method of the same name takes). */
export function argumentsOf<C extends { op: string }>(command: C): Omit<C, 'op'> {
  const { op: _op, ...args } = command;
  return args;
}

/** The commands that happen to a broker: the page's, a link's and a fault schedule's. */
export type BrokerCommand = EngineCommand<
  'killBroker' | 'powerFailBroker' | 'stopBroker' | 'restartBroker' | 'isolateBroker' | 'healBroker'
>;

export const BROKER_COMMAND_OPS: readonly BrokerCommand['op'][] = [
  'killBroker',
  'powerFailBroker',
  'stopBroker',
  'restartBroker',
  'isolateBroker',
  'healBroker',
];

export function isBrokerCommand(c: { op: string }): c is BrokerCommand {
  return isBrokerCommandOp(c.op);
}

/** Whether an op (a scenario link's, still unchecked) names a broker command. */
export function isBrokerCommandOp(op: unknown): op is BrokerCommand['op'] {
  return (BROKER_COMMAND_OPS as readonly unknown[]).includes(op);
}

/**
 * Runs a broker command on a cluster (the fault schedules drive a Cluster, not an Engine): each
 * op is the Cluster method of the same name (which refuses an unknown broker with its KafkaError).
 */
export function runBrokerCommand(cluster: Cluster, c: BrokerCommand): void {
  cluster[c.op](c.broker);
}
