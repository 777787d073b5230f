import { useShallow } from 'zustand/react/shallow';
import type { PlaneBrokerView, PlaneGroupView } from '../../engine/apps/types';
import { byIdentity } from '../byIdentity';
import { Term } from '../glossary/Term';
import { isTermName } from '../glossary/terms';
import { usePlane } from '../store';
import { PartitionGlance } from './PartitionGlance';

/**
 * The cluster at a glance, above the partition logs, so the first screen shows it whole: each
 * broker (alive, down or isolated; the controller marked with its epoch; how many partitions it
 * leads), the shown topic's partitions across the brokers, and each consumer group (state and
 * generation; while a new group waits out group.initial.rebalance.delay.ms, that wait in words).
 * The full board with every replica is further down the page. Group states and generations are
 * glossary terms; the broker entries are links, so their words stay plain.
 */
const brokerKeys = byIdentity((brokers: PlaneBrokerView[] | undefined) =>
  (brokers ?? []).map(
    (b) =>
      `${b.id}|${b.alive ? (b.isolated ? 'isolated' : 'alive') : 'down'}|${b.controller ? 1 : 0}|${b.leaderCount}|${b.rack ?? ''}`,
  ),
);
const groupKeys = byIdentity((groups: PlaneGroupView[] | undefined) =>
  (groups ?? []).map(
    (g) => `${g.groupId}|${g.state}|${g.generation}|${g.initialRebalanceDelayMs ?? ''}|${g.members.length}`,
  ),
);

export function ClusterStrip() {
  // Derived once per plane view (byIdentity), compared as strings: a view that changes nothing here redraws nothing.
  const brokers = usePlane(useShallow((s) => brokerKeys(s.view?.brokers)));
  const epoch = usePlane((s) => s.view?.controllerEpoch ?? 0);
  const groups = usePlane(useShallow((s) => groupKeys(s.view?.groups)));
  if (brokers.length === 0) return null;
  return (
    <nav className="cluster-strip" aria-label="Cluster at a glance">
      <ul className="strip-brokers">
        {brokers.map((key) => {
          const [id, status, controller, leaders, rack] = key.split('|');
          return (
            <li key={id}>
              <a
                href={`#broker-${id}`}
                className={`strip-broker ${status}`}
                data-testid={`strip-broker-${id}`}
                onClick={(e) => {
                  e.preventDefault();
                  document.querySelector(`[data-testid="broker-${id}"]`)?.scrollIntoView({ behavior: 'smooth' });
                }}
              >
                <span className="strip-dot" aria-hidden="true" />
                broker {id}
                {controller === '1' && <span className="strip-controller">controller · epoch {epoch}</span>}
                <span className="muted">
                  {status !== 'alive' ? status : `${leaders} leaders`}
                  {rack ? ` · ${rack}` : ''}
                </span>
              </a>
            </li>
          );
        })}
      </ul>
      <PartitionGlance />
      {groups.length > 0 && (
        <ul className="strip-groups">
          {groups.map((key) => {
            const [id, state, generation, delayMs, members] = key.split('|');
            return (
              <li
                key={id}
                className={`strip-group state-${state}`}
                data-testid={`strip-group-${id}`}
                data-state={state}
              >
                group <strong>{id}</strong>{' '}
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
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}
