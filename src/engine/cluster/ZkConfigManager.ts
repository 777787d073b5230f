import { isKafkaError } from '../errors';
import type { CoordinationStore, Watcher } from './CoordinationStore';

/**
 * Config changes travel as Kafka's ZooKeeper mode sends them: AdminZkClient.changeEntityConfig
 * writes the entity's znode (`/config/topics/<t>`, `/config/brokers/<id>`), then a sequential
 * `/config/changes/config_change_<n>` notification naming it (`{"version":2,"entity_path":...}`);
 * every broker's ZkConfigManager watches `/config/changes`, and its ZkNodeChangeNotificationListener
 * processes the notifications past the last one it executed, re-reading each named entity and
 * handing its config to the handler of its type. So a change reaches the brokers asynchronously,
 * on the engine clock, one watch delivery after the write.
 */

export const CONFIG_CHANGES_PATH = '/config/changes';
const SEQUENCE_PREFIX = 'config_change_';
/** ZkNodeChangeNotificationListener's changeExpirationMs default: notifications older than this are purged. */
export const CONFIG_CHANGE_EXPIRATION_MS = 15 * 60 * 1000;

/**
 * ZooKeeper's PERSISTENT_SEQUENTIAL create: the name ends with the parent's cversion, ten digits.
 * Returns the path created.
 */
export function createConfigChangeNotification(zk: CoordinationStore, entityPath: string): string {
  if (!zk.exists(CONFIG_CHANGES_PATH)) zk.createRecursive(CONFIG_CHANGES_PATH, null);
  const cversion = zk.exists(CONFIG_CHANGES_PATH)?.cversion ?? 0;
  const path = `${CONFIG_CHANGES_PATH}/${SEQUENCE_PREFIX}${String(cversion).padStart(10, '0')}`;
  zk.create(path, { version: 2, entity_path: entityPath });
  return path;
}

/** ConfigHandlers by root entity type (ConfigType.TOPIC, ConfigType.BROKER). */
export interface ConfigHandlers {
  topics(topic: string, config: Readonly<Record<string, unknown>>): void;
  brokers(entity: string, config: Readonly<Record<string, unknown>>): void;
}

/** One broker's ZkConfigManager with its ZkNodeChangeNotificationListener. */
export class ZkConfigManager {
  private lastExecutedChange = -1;
  private deferred = false;
  private sessionId = 0;

  constructor(
    private readonly zk: CoordinationStore,
    private readonly handlers: ConfigHandlers,
    private readonly now: () => number,
    /** Whether the broker can reach the store now; a notification delivered while it cannot waits. */
    private readonly reachable: () => boolean,
  ) {}

  /**
   * ZkConfigManager.startup: the listener starts from nothing executed (so it processes every
   * notification still there), and every existing entity config is applied once to bootstrap.
   */
  startup(sessionId: number): void {
    this.sessionId = sessionId;
    this.lastExecutedChange = -1;
    this.deferred = false;
    this.processNotifications();
    for (const type of ['topics', 'brokers'] as const) {
      const root = `/config/${type}`;
      if (!this.zk.exists(root)) continue;
      for (const name of this.zk.getChildren(root)) this.dispatch(type, name);
    }
  }

  /** A new session (afterInitializingSession): the watch is set again and pending notifications processed. */
  onNewSession(sessionId: number): void {
    this.sessionId = sessionId;
    this.processNotifications();
  }

  /** Back in touch with the store: a notification that arrived while cut off is processed now. */
  processDeferred(): void {
    if (this.deferred) this.processNotifications();
  }

  private readonly watcher: Watcher = () => {
    if (this.sessionId === 0) return;
    if (!this.reachable()) {
      this.deferred = true;
      return;
    }
    this.processNotifications();
  };

  close(): void {
    this.sessionId = 0;
    this.deferred = false;
  }

  /** ZkNodeChangeNotificationListener.processNotifications, then purgeObsoleteNotifications. */
  private processNotifications(): void {
    this.deferred = false;
    if (this.sessionId === 0) return;
    if (!this.zk.exists(CONFIG_CHANGES_PATH)) this.zk.createRecursive(CONFIG_CHANGES_PATH, null);
    const watch = { sessionId: this.sessionId, watcher: this.watcher };
    const notifications = this.zk.getChildren(CONFIG_CHANGES_PATH, watch).sort();
    const now = this.now();
    for (const name of notifications) {
      const changeId = Number(name.slice(SEQUENCE_PREFIX.length));
      if (changeId <= this.lastExecutedChange) continue;
      const data = this.zk.tryGetData(`${CONFIG_CHANGES_PATH}/${name}`) as { entity_path?: string } | null;
      const entityPath = data?.entity_path ?? '';
      const slash = entityPath.indexOf('/');
      const type = entityPath.slice(0, slash);
      // A notification that names no known entity type is logged and skipped by Kafka.
      if (slash > 0 && (type === 'topics' || type === 'brokers')) this.dispatch(type, entityPath.slice(slash + 1));
      this.lastExecutedChange = changeId;
    }
    for (const name of notifications) {
      const path = `${CONFIG_CHANGES_PATH}/${name}`;
      const stat = this.zk.exists(path);
      if (!stat || now - stat.ctime <= CONFIG_CHANGE_EXPIRATION_MS) continue;
      try {
        this.zk.delete(path);
      } catch (e) {
        // Another broker purged it first.
        if (!isKafkaError(e, 'NO_NODE')) throw e;
      }
    }
  }

  /** AdminZkClient.fetchEntityConfig, handed to the type's handler. */
  private dispatch(type: 'topics' | 'brokers', entity: string): void {
    const d = this.zk.tryGetData(`/config/${type}/${entity}`) as { config?: Record<string, unknown> } | null;
    const config = { ...(d?.config ?? {}) };
    if (type === 'topics') this.handlers.topics(entity, config);
    else this.handlers.brokers(entity, config);
  }
}
