import type { ScenarioAction } from '../types';

/** What a person just did, in words for the metrics' "since" line ("you killed broker 2"). */
export function actionLabel(a: ScenarioAction): string {
  switch (a.op) {
    case 'killBroker':
      return `you killed broker ${a.broker}`;
    case 'powerFailBroker':
      return `you cut broker ${a.broker}'s power`;
    case 'stopBroker':
      return `you stopped broker ${a.broker} (controlled shutdown)`;
    case 'restartBroker':
      return `you restarted broker ${a.broker}`;
    case 'isolateBroker':
      return `you cut broker ${a.broker} off the network`;
    case 'healBroker':
      return `you reconnected broker ${a.broker}`;
    case 'addBroker':
      return 'you added a broker';
    case 'createTopic':
      return `you created topic ${a.name}`;
    case 'setUnclean':
      return `you set unclean.leader.election.enable=${a.enabled} on ${a.topic}`;
    case 'alterTopicConfig':
      return `you changed ${Object.keys(a.configs).join(', ')} of ${a.topic}`;
    case 'electPreferredLeaders':
      return 'you ran a preferred leader election';
    case 'reassignPartitions':
      return `you reassigned ${a.topic}-${a.partition} to [${a.replicas.join(', ')}]`;
    case 'produceDemoRecords':
      return `you produced ${a.count} to ${a.topic}`;
    case 'addGroup':
      return `you added group ${a.group}`;
    case 'removeGroup':
      return `you removed group ${a.group}`;
    case 'setAssignor':
      return `you set ${a.group}'s assignor to ${a.assignor}`;
    case 'setProtocol':
      return `you set ${a.group}'s protocol to ${a.protocol}`;
    case 'setCommitMode':
      return `you set ${a.group}'s commits to ${a.mode}`;
    case 'setStaticMembership':
      return `you ${a.enabled ? 'gave' : 'took'} ${a.group}'s consumers ${a.enabled ? 'a' : 'their'} group.instance.id`;
    case 'addConsumer':
      return `you added a consumer to ${a.group}`;
    case 'moveConsumer':
      return a.group === null ? `you stopped ${a.name}` : `you moved ${a.name} to ${a.group}`;
    case 'removeConsumer':
      return `you removed ${a.name}`;
    case 'crashConsumer':
      return `you crashed ${a.name}`;
    case 'produceRecord':
      return `you sent a record to ${a.topic}`;
    case 'produceRecords':
      return `you sent records to ${a.topic}`;
    case 'configureProducer':
      return `you set the producer's ${Object.keys(a.settings).join(', ')}`;
  }
}
