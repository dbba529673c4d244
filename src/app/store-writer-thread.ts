// Worker thread: writes what the catalog source stores (analyses, snapshots) on a connection of its own.
import { parentPort, workerData } from 'node:worker_threads';
import type { StoredSnapshot } from '../domain/index.js';
import { Store } from '../store/index.js';
import type { FromWriter, ToWriter } from './store-writer.js';

const port = parentPort!;
const store = Store.open((workerData as { databaseUrl: string }).databaseUrl, { poolSize: 2 });
const asBuffer = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

// One write at a time, in the order asked.
let queue: Promise<void> = Promise.resolve();
port.on('message', (m: ToWriter) => {
  queue = queue.then(async () => {
    try {
      const s = await store;
      if (m.t === 'close') {
        await s.close();
        port.postMessage({ id: m.id } satisfies FromWriter);
        port.close();
        return;
      }
      if (m.t === 'corpus-image') {
        port.postMessage({ id: m.id, stored: await s.saveCorpusImage(m.key, asBuffer(m.bytes)) } satisfies FromWriter);
        return;
      }
      if (m.t === 'analyses') await s.saveAnalyses(m.items, m.ctx);
      else if (m.t === 'checkpoint') await s.checkpoint();
      else {
        const snap: StoredSnapshot = {
          ...m.snapshot,
          reviews: asBuffer(m.snapshot.reviews),
          insights: asBuffer(m.snapshot.insights),
          layout: asBuffer(m.snapshot.layout),
        };
        await s.saveSnapshot(snap);
      }
      port.postMessage({ id: m.id } satisfies FromWriter);
    } catch (err) {
      port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies FromWriter);
    }
  });
});
