/** Every lesson, in the order the picker lists them: storage, producer, replication, controller, groups. */
import type { Lesson } from '../types';
import { accumulator } from './accumulator';
import { acks } from './acks';
import { assignors } from './assignors';
import { compaction } from './compaction';
import { controllerFailover } from './controllerFailover';
import { delivery } from './delivery';
import { groupCoordinator } from './groupCoordinator';
import { isr } from './isr';
import { offsetLookup } from './offsetLookup';
import { partitioner } from './partitioner';
import { placement } from './placement';
import { reassignment } from './reassignment';
import { retention } from './retention';
import { segments } from './segments';
import { staticMembership } from './staticMembership';
import { timeLookup } from './timeLookup';
import { uncleanElection } from './uncleanElection';
import { zookeeperConsumer } from './zookeeperConsumer';

export const LESSONS: readonly Lesson[] = [
  segments,
  offsetLookup,
  timeLookup,
  retention,
  compaction,
  partitioner,
  accumulator,
  acks,
  isr,
  controllerFailover,
  uncleanElection,
  placement,
  reassignment,
  groupCoordinator,
  assignors,
  delivery,
  staticMembership,
  zookeeperConsumer,
];
