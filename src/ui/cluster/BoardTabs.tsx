/**
 * The board on screen: tabs for the cluster (brokers, controller, znodes), the
 * consumer groups and the scenarios (lessons, presets, the link). Starts the board when mounted (from the page's
 * link, or the default demo) and shows refused actions and unreadable links in words.
 */
import { useEffect } from 'react';
import type { Session } from '../session';
import { GroupsTab } from '../groups/GroupsTab';
import { ScenarioTab } from '../scenarios/ScenarioTab';
import { ClusterTab } from './ClusterTab';
import { advance, connectBoard, startScenario } from './boardClient';
import type { BoardTab } from './boardSlice';
import { setBoard, useBoard, useUi } from '../store';
import { formatClock } from '../time/formatClock';
import './board.css';
import { DismissButton } from '../chrome/DismissButton';
import { TabList } from '../chrome/TabList';

const TABS: { id: BoardTab; label: string }[] = [
  { id: 'cluster', label: 'Brokers & controller' },
  { id: 'groups', label: 'Consumer groups' },
  { id: 'scenarios', label: 'Scenarios' },
];

export function BoardTabs({ session }: { session: Session }) {
  useEffect(() => connectBoard(session), [session]);
  const view = useBoard((s) => s.view);
  const tab = useBoard((s) => s.tab);
  // The Node host's clock is the wall clock: nothing here fast-forwards it (PageSeats refuses it too).
  const attached = useUi((s) => s.host !== null);
  return (
    <section
      className="board"
      aria-label="Cluster control plane"
      data-testid="board"
      data-ready={String(view !== null)}
      data-preset={view?.preset ?? ''}
      data-brokers={view?.brokers.length ?? 0}
    >
      <div className="board-header">
        <TabList
          prefix="board"
          tabs={TABS}
          selected={tab}
          label="Control plane views"
          onSelect={(id) => setBoard({ tab: id })}
        />
        <div className="board-clockbar">
          {view && (
            // The clock is shown once, in the top bar; this marks the instant the board's view is of.
            <span className="visually-hidden" data-testid="board-clock" data-now={view.nowMs}>
              board at {formatClock(view.nowMs)}
            </span>
          )}
          {view &&
            !attached &&
            [1000, 10_000].map((ms) => (
              <button
                key={ms}
                type="button"
                className="btn btn-xs"
                data-testid={`board-advance-${ms}`}
                title="Fast-forward the cluster's clock"
                onClick={() => void advance(session, ms)}
              >
                +{ms / 1000} s
              </button>
            ))}
        </div>
      </div>
      <LinkNotice session={session} />
      <BoardError />
      <div id="board-body" role="tabpanel" aria-labelledby={`board-tab-${tab}`} className="board-body">
        {!view ? (
          <p className="muted">Starting the brokers…</p>
        ) : tab === 'cluster' ? (
          <ClusterTab session={session} view={view} />
        ) : tab === 'groups' ? (
          <GroupsTab session={session} view={view} />
        ) : (
          <ScenarioTab session={session} view={view} />
        )}
      </div>
    </section>
  );
}

/** Why the page's link was not opened (unreadable, or it would discard records), with a way to open it anyway. */
function LinkNotice({ session }: { session: Session }) {
  const notice = useBoard((s) => s.linkNotice);
  const pendingLink = useBoard((s) => s.pendingLink);
  if (!notice) return null;
  return (
    <p className="board-notice" role="status" data-testid="link-notice">
      {notice}{' '}
      {pendingLink && (
        <button
          type="button"
          className="btn btn-xs"
          data-testid="link-open"
          onClick={() => void startScenario(session, pendingLink, 'Opening this link')}
        >
          Open the link anyway…
        </button>
      )}{' '}
      <DismissButton size="xs" onDismiss={() => setBoard({ linkNotice: null, pendingLink: null })} />
    </p>
  );
}

/** The last refused action, in words (its KafkaError), until dismissed. */
function BoardError() {
  const error = useBoard((s) => s.error);
  if (!error) return null;
  return (
    <p className="board-error" role="alert" data-testid="board-error">
      {error} <DismissButton size="xs" onDismiss={() => setBoard({ error: null })} />
    </p>
  );
}
