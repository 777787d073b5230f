import type { ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BoardGroupView, BoardView } from '../../engine/apps/types';
import { byIdentity } from '../byIdentity';
import {
  type BrokerDrawnState,
  brokerDrawn,
  brokerWords,
  controllerDrawn,
  NO_CONTROLLER_WORDS,
} from '../cluster/brokerDrawn';
import { Term } from '../glossary/Term';
import { isTermName } from '../glossary/terms';
import { useBoard } from '../store';
import { PartitionGlance } from './PartitionGlance';

/**
 * The cluster at a glance, above the partition logs, so the first screen shows it whole: each
 * broker (alive, down or isolated; the controller marked with its epoch; how many partitions it
 * leads), the shown topic's partitions across the brokers, and each consumer group (state and
 * generation; while a new group waits out group.initial.rebalance.delay.ms, that wait in words).
 * The full board with every replica is further down the page. Group states and generations are
 * glossary terms; the broker entries are links, so their words stay plain.
 */
/** Each broker as `id|drawn state|words|controller (0, 1, or 'gone')|leaders|rack`, once per view. */
const brokerKeys = byIdentity((view: BoardView | null) => {
  if (!view) return [];
  const controller = controllerDrawn(view);
  return view.brokers.map((b) => {
    const d = brokerDrawn(b, view.nowMs, view.config.sessionTimeoutMs);
    const badge = controller.broker !== b.id ? '0' : controller.processGone ? 'gone' : '1';
    return `${b.id}|${d.state}|${brokerWords(d)}|${badge}|${b.leaderCount}|${b.rack ?? ''}`;
  });
});
const groupKeys = byIdentity((groups: BoardGroupView[] | undefined) =>
  (groups ?? []).map(
    (g) =>
      `${g.groupId}|${g.state}|${g.generation}|${g.initialRebalanceDelayMs ?? ''}|${g.members.length}|${coordinatorGone(g) ?? ''}`,
  ),
);

/**
 * A group whose coordinator is gone (its __consumer_offsets partition has no live leader yet: the
 * coordinator's broker was killed): Kafka answers COORDINATOR_NOT_AVAILABLE and the group has no
 * state to describe — not "Empty, generation 0". Returns the last generation it completed, or
 * null when the group has a coordinator (or never had one: a new group, the legacy ZooKeeper one).
 */
function coordinatorGone(g: BoardGroupView): number | null {
  if (g.coordinator !== null || g.protocol !== 'coordinator' || g.clients) return null;
  const last = g.generations[g.generations.length - 1];
  return last ? last.generation : null;
}

export function ClusterStrip() {
  // Derived once per board view (byIdentity), compared as strings: a view that changes nothing here redraws nothing.
  const brokers = useBoard(useShallow((s) => brokerKeys(s.view ?? null)));
  const epoch = useBoard((s) => s.view?.controllerEpoch ?? 0);
  const groups = useBoard(useShallow((s) => groupKeys(s.view?.groups)));
  if (brokers.length === 0) return null;
  return (
    <nav className="cluster-strip" aria-label="Cluster at a glance">
      <ul className="strip-brokers">
        {brokers.map((key) => {
          const [id, state, words, controller, leaders, rack] = key.split('|');
          return (
            <li key={id}>
              <a
                href={`#broker-${id}`}
                className={`strip-broker ${state}`}
                data-testid={`strip-broker-${id}`}
                data-drawn-state={state}
                onClick={(e) => {
                  e.preventDefault();
                  document.querySelector(`[data-testid="broker-${id}"]`)?.scrollIntoView({ behavior: 'smooth' });
                }}
              >
                <span className="strip-dot" aria-hidden="true" />
                broker {id}
                {controller !== '0' && (
                  <span className="strip-controller" data-testid={`strip-controller-${id}`}>
                    controller · epoch {epoch}
                    {controller === 'gone' ? ' (held until its session expires)' : ''}
                  </span>
                )}
                <span className="muted">
                  {stripWords(state as BrokerDrawnState, words ?? '', Number(leaders))}
                  {rack ? ` · ${rack}` : ''}
                </span>
              </a>
            </li>
          );
        })}
        {brokers.every((k) => k.split('|')[3] === '0') && (
          <li className="strip-election" data-testid="no-controller-strip">
            {NO_CONTROLLER_WORDS}
          </li>
        )}
      </ul>
      <PartitionGlance />
      {groups.length > 0 && (
        <ul className="strip-groups">
          {groups.map((key) => {
            const [id, state, generation, delayMs, members, gone] = key.split('|');
            if (gone)
              return (
                <StripGroup key={id} id={id} state={state} drawnState="unavailable">
                  <span className="muted">
                    no <Term name="coordinator">coordinator</Term>: COORDINATOR_NOT_AVAILABLE until its
                    __consumer_offsets partition has a new leader · last <Term name="generation">generation</Term>{' '}
                    {gone}
                  </span>
                </StripGroup>
              );
            // The legacy ZooKeeper consumer has no coordinator and no generations: its members
            // rebalance themselves on ZooKeeper watches.
            if (state === 'ZooKeeper')
              return (
                <StripGroup key={id} id={id} state={state} drawnState="ZooKeeper">
                  <span className="muted">
                    ZooKeeper consumer: no coordinator; its members rebalance themselves under /consumers/{id}
                  </span>
                </StripGroup>
              );
            return (
              <StripGroup key={id} id={id} state={state} drawnState={state}>
                <span className="muted">
                  {state !== undefined && isTermName(state) ? <Term name={state} /> : state} ·{' '}
                  <Term name="generation">generation</Term> {generation}
                </span>
                {delayMs ? (
                  <span className="strip-group-wait" data-testid={`strip-group-wait-${id}`}>
                    {' '}
                    — {members} member{members === '1' ? '' : 's'} joined; a new group waits
                    group.initial.rebalance.delay.ms ({Number(delayMs) / 1000} s, longer while more join) so they share
                    its first generation
                  </span>
                ) : null}
              </StripGroup>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

/**
 * A group on the strip: its state as the engine has it (data-state) and the class it is drawn
 * with; a group whose coordinator is gone is also marked data-drawn-state.
 */
function StripGroup({
  id,
  state,
  drawnState,
  children,
}: {
  id: string | undefined;
  state: string | undefined;
  drawnState: string | undefined;
  children: ReactNode;
}) {
  return (
    <li
      className={`strip-group state-${drawnState}`}
      data-testid={`strip-group-${id}`}
      data-state={state}
      {...(drawnState === 'unavailable' ? { 'data-drawn-state': 'coordinator-unavailable' } : {})}
    >
      group <strong>{id}</strong> {children}
    </li>
  );
}

/**
 * A broker's words on the strip: how many partitions it leads while alive; while its session
 * outlives its process, that countdown and the leaderships ZooKeeper still gives it (the
 * controller has not moved them yet).
 */
function stripWords(state: BrokerDrawnState, words: string, leaders: number): string {
  if (state === 'alive') return `${leaders} leaders`;
  if (state === 'session-alive' && leaders > 0) return `${words}; still leader of ${leaders} in ZooKeeper`;
  return words;
}
