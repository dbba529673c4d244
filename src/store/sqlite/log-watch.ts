import { realpathSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Listener } from '../dialect.js';

/**
 * Calls `onWrite` whenever the database's write-ahead log is written, by any process on this machine
 * (another process's commit, an import's write notice, this process's own writes): a hint to look now
 * rather than at the next poll, never the only way a change is seen. The folder is watched, not the
 * file: SQLite removes the log when its last connection closes and makes it again on the next write.
 */
export function watchLog(file: string, onWrite: () => void, onError: (err: Error) => void): Listener | null {
  try {
    // SQLite keeps the log beside the file a symbolic link leads to.
    const real = realpathSync(file);
    const log = `${basename(real)}-wal`;
    // A platform that cannot name the file changed (name null) still reports a change in the folder.
    const watcher = watch(dirname(real), { persistent: false }, (_event, name) => {
      if (name === null || name === log) onWrite();
    });
    watcher.on('error', (err) => {
      watcher.close();
      onError(err);
    });
    return {
      async stop() {
        watcher.close();
      },
    };
  } catch (err) {
    // No watch here (a file system without change events, the system's watch limit): polling remains.
    onError(err as Error);
    return null;
  }
}
