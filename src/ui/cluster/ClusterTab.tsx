/**
 * The cluster view: operator actions, brokers by rack with their replicas, the controller's
 * narration, the placement being animated and the coordination store's znodes.
 */
import { memo, useState } from 'react';
import type { BoardView } from '../../engine/apps/types';
import type { Session } from '../session';
import { BrokerBoard } from './BrokerBoard';
import { CreateTopicDialog } from './CreateTopicDialog';
import { ApiLegend } from './ApiLegend';
import { MessageLegend, MessageTokens } from './MessageTokens';
import { PlacementShow } from './PlacementShow';
import { act } from './boardClient';
import { StoryPanel } from './StoryPanel';
import { ZnodeTree } from './ZnodeTree';
import { controllerDrawn, NO_CONTROLLER_WORDS } from './brokerDrawn';
import { Options } from '../forms/Options';
import { Term } from '../glossary/Term';

/** The worker sends messages to draw only for clusters up to this size (ClusterApps' MESSAGE_BROKERS_MAX). */
const DRAWN_MESSAGES_MAX_BROKERS = 12;
/** The consumers' box names this many consumers, then says how many more. */
const CONSUMERS_NAMED_MAX = 6;

export function ClusterTab({ session, view }: { session: Session; view: BoardView }) {
  const racks = [...new Set(view.brokers.map((b) => b.rack).filter((r): r is string => r !== null))].sort();
  const [rack, setRack] = useState<string>('');
  const userTopics = view.topics.filter((t) => !t.internal);
  const produceTopic = userTopics[0]?.name;
  // A real client's member is drawn by its client.id (as its requests are), the board's by name.
  const consumerNames = [...new Set(view.consumers.map((c) => c.client?.clientId ?? c.name))];
  const known = new Set(consumerNames);
  const producers = [
    ...new Set(view.messages.flatMap((m) => (m.client === null || known.has(m.client) ? [] : [m.client]))),
  ].sort();
  // Every consumer, not only those with a message in flight, so the box keeps its size.
  const consumers =
    consumerNames.length > CONSUMERS_NAMED_MAX
      ? `${consumerNames.slice(0, CONSUMERS_NAMED_MAX).join(', ')} +${consumerNames.length - CONSUMERS_NAMED_MAX}`
      : consumerNames.join(', ');
  return (
    <div className="cluster-tab">
      <div className="board-toolbar">
        <span className="controller-summary" data-testid="controller-summary">
          <Term name="controller">Controller</Term>: {controllerSummary(view)} ·{' '}
          <Term name="controller epoch">epoch</Term> {view.controllerEpoch}
        </span>
        <label className="inline">
          <span className="visually-hidden">Rack of the new broker</span>
          <select value={rack} onChange={(e) => setRack(e.target.value)} aria-label="Rack of the new broker">
            <option value="">{racks.length > 0 ? `rack: ${racks[0]}` : 'no rack'}</option>
            <Options values={racks.slice(1)} label={(r) => `rack: ${r}`} />
          </select>
        </label>
        <button
          type="button"
          className="btn"
          data-testid="add-broker"
          onClick={() => void act(session, { op: 'addBroker', rack: rack || racks[0] || null })}
        >
          Add broker
        </button>
        <button
          type="button"
          className="btn"
          data-testid="preferred-election"
          onClick={() => void act(session, { op: 'electPreferredLeaders' })}
          title="kafka-leader-election --election-type PREFERRED: move leadership back to each partition's first replica"
        >
          Preferred-leader election
        </button>
        {produceTopic && (
          <button
            type="button"
            className="btn"
            data-testid="board-produce"
            onClick={() => void act(session, { op: 'produceDemoRecords', topic: produceTopic, count: 20 })}
            title="20 keyed records through the producer with acks=all"
          >
            Produce 20 to {produceTopic} (acks=all)
          </button>
        )}
        <span
          className="muted small"
          data-testid="board-produced"
          data-acked={view.produced.acked}
          data-failed={view.produced.failed}
        >
          acked {view.produced.acked} · failed {view.produced.failed}
          {view.produced.lastError ? ` (${view.produced.lastError})` : ''}
        </span>
        <CreateTopicDialog session={session} view={view} />
      </div>
      <TopicConfigs
        session={session}
        topics={userTopics.map((t) => `${t.name}|${t.uncleanLeaderElection}|${t.minInsyncReplicas}`).join(',')}
      />
      {view.lost.length > 0 && (
        <ul className="lost-list" aria-label="Offsets lost to unclean elections" data-testid="lost-offsets">
          {view.lost.map((l) => (
            <li key={`${l.topic}-${l.partition}-${l.atMs}`} className="lost">
              {l.topic}-{l.partition}: offsets {l.from}–{l.to - 1} lost when broker {l.newLeader} became leader
              uncleanly
              {l.committedFrom !== null && l.committedTo !== null
                ? ` (${l.committedTo - l.committedFrom} acknowledged records among them)`
                : ''}
            </li>
          ))}
        </ul>
      )}
      <div className="cluster-grid">
        <div className="board-with-messages">
          {view.brokers.length <= DRAWN_MESSAGES_MAX_BROKERS && (
            <div
              className="producers-node"
              data-testid="producers-node"
              title="Producer clients: their Produce requests travel to each partition's leader"
            >
              Producers{producers.length > 0 ? `: ${producers.join(', ')}` : ''}
            </div>
          )}
          {view.brokers.length <= DRAWN_MESSAGES_MAX_BROKERS && (
            <div
              className="producers-node consumers-node"
              data-testid="consumers-node"
              title="Consumer clients: their group requests (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, OffsetCommit) travel to the group's coordinator, their fetches to the leaders"
            >
              Consumers{consumers ? `: ${consumers}` : ''}
            </div>
          )}
          <MessageLegend view={view} />
          <ApiLegend view={view} />
          <BrokerBoard session={session} view={view} />
          <MessageTokens view={view} />
        </div>
        <div className="cluster-side">
          <PlacementShow />
          <StoryPanel />
          <ZnodeTree znodes={view.znodes} nowMs={view.nowMs} />
        </div>
      </div>
    </div>
  );
}

/**
 * Each user topic's unclean-election switch. Its props are a string (name|unclean|min ISR per
 * topic), so the checkboxes are not rendered again for every view while producing.
 */
const TopicConfigs = memo(function TopicConfigs({ session, topics }: { session: Session; topics: string }) {
  const list = topics === '' ? [] : topics.split(',').map((t) => t.split('|'));
  return (
    <div className="topic-configs">
      {list.map(([name = '', unclean, minIsr]) => (
        <label
          key={name}
          className="check"
          title="unclean.leader.election.enable: let an out-of-sync replica lead (it may lose data)"
        >
          <input
            type="checkbox"
            data-testid={`unclean-${name}`}
            checked={unclean === 'true'}
            onChange={(e) => void act(session, { op: 'setUnclean', topic: name, enabled: e.target.checked })}
          />
          {name}: unclean.leader.election.enable · min.insync.replicas={minIsr}
        </label>
      ))}
    </div>
  );
});

/** The controller in words, as the board's badge and the strip draw it (brokerDrawn.ts). */
function controllerSummary(view: BoardView): string {
  const c = controllerDrawn(view);
  if (c.broker === null) return NO_CONTROLLER_WORDS;
  return c.processGone
    ? `broker ${c.broker} (process gone; /controller held until its session expires)`
    : `broker ${c.broker}`;
}
