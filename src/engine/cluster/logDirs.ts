/** Where a broker keeps its files in the Store (LogManager's log dirs, UnifiedLog's `<topic>-<partition>` dir names). */

/** Where a broker keeps a replica: `broker-<id><log.dir>/<topic>-<partition>`. */
export function replicaDir(brokerId: number, logDir: string, topic: string, partition: number): string {
  const dir = logDir.startsWith('/') ? logDir : `/${logDir}`;
  return `broker-${brokerId}${dir}/${topic}-${partition}`;
}

/** A broker's log dir in the Store: `broker-<id><log.dir>`. */
export function logDirPath(brokerId: number, logDir: string): string {
  return `broker-${brokerId}${logDir.startsWith('/') ? logDir : `/${logDir}`}`;
}
