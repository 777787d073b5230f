/**
 * Runs a one-key perturbation through the commands the page's buttons send (act() for the
 * board, the producer panel's produce), and says what it did in `shortcutSaid`; the
 * controller log and the board then show what the engine made of it.
 */
import { errorText } from '../errorText';
import { act } from '../cluster/boardClient';
import type { Session } from '../session';
import { getBoard, uiStore } from '../store';
import {
  crashTarget,
  isolatedBroker,
  leaderBroker,
  restartTarget,
  selectedPartition,
  type ShortcutKey,
} from './shortcuts';

function say(text: string): void {
  uiStore.setState({ shortcutSaid: text });
}

/** The topic shown and the partition chosen in the event log (focus), if any. */
function selection(): { topic: string | null; partition: number | null; group: string | null } {
  const { focus } = getBoard();
  const topic = uiStore.getState().selectedTopic;
  const chosen = focus?.partitions.find((k) => topic !== null && k.startsWith(`${topic}-`));
  const partition = chosen && topic !== null ? Number(chosen.slice(topic.length + 1)) : null;
  return { topic, partition, group: focus?.groups[0] ?? null };
}

async function perturb(session: Session, key: 'k' | 'i' | 'r' | 'c'): Promise<void> {
  const view = getBoard().view;
  if (!view) return say('The cluster is not open yet.');
  const sel = selection();
  if (key === 'k' || key === 'i') {
    const healing = key === 'i' ? isolatedBroker(view) : null;
    if (healing !== null) {
      if (await act(session, { op: 'healBroker', broker: healing })) say(`I: healed broker ${healing}.`);
      return;
    }
    const p = selectedPartition(view, sel.topic, sel.partition);
    const b = leaderBroker(view, p);
    if (!p || !b)
      return say(`${key.toUpperCase()}: ${p ? `${p.topic}-${p.partition} has no live leader` : 'no topic'} to aim at.`);
    const op = key === 'k' ? 'killBroker' : 'isolateBroker';
    if (await act(session, { op, broker: b.id }))
      say(
        `${key.toUpperCase()}: ${key === 'k' ? 'killed' : 'isolated'} broker ${b.id}, leader of ${p.topic}-${p.partition}.`,
      );
    return;
  }
  if (key === 'r') {
    const b = restartTarget(view);
    if (b === null) return say('R: no broker is down.');
    if (await act(session, { op: 'restartBroker', broker: b })) say(`R: restarted broker ${b}.`);
    return;
  }
  const name = crashTarget(view, sel.group);
  if (name === null) return say('C: no running consumer to crash.');
  if (await act(session, { op: 'crashConsumer', name })) say(`C: crashed consumer ${name}.`);
}

/** P: one record with the producer panel's current topic, key and value (its Send button's command). */
async function produceOne(session: Session): Promise<void> {
  const d = uiStore.getState().producerDraft;
  const topic = d?.topic || uiStore.getState().view?.partitions[0]?.topic;
  if (!topic) return say('P: no topic to produce to.');
  const key = d ? d.key : 'user-1';
  const value = d?.value ?? 'hello, kafka';
  try {
    const r = await session.call('produceRecord', { topic, key, value, headers: d?.headers ?? [] });
    uiStore.setState({ lastChoice: r.choice, selectedTopic: topic });
    say(`P: produced one record to ${topic} (key ${key === null ? 'null' : `"${key}"`}).`);
  } catch (e) {
    say(`P: refused. ${errorText(e)}`);
  }
}

/** Runs the shortcut `key` (the help's `?` is the caller's; Space and → are the clock's). */
export function runShortcut(session: Session, key: ShortcutKey): void {
  switch (key) {
    case ' ':
      session.togglePlay();
      return;
    case 'ArrowRight':
      session.step();
      return;
    case 'p':
      void produceOne(session);
      return;
    case 'k':
    case 'i':
    case 'r':
    case 'c':
      void perturb(session, key);
      return;
    case '?':
      return;
  }
}
