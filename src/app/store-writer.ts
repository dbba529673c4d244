import type { Worker } from 'node:worker_threads';
import type { AnalysisContext, AnalysisWrite, SnapshotKey } from '../store/index.js';
import { joinSteps, ownBytes, runInSlices, type SliceClock, sharedBuffer, startWorker } from '../threads/index.js';

type SnapshotMessage = {
  revision: number;
  base_url: string;
  engine: string;
  insights_core: string;
  created_at: string;
  reviews: Uint8Array;
  insights: Uint8Array;
  layout: Uint8Array;
};

export type ToWriter =
  | { t: 'analyses'; id: number; items: AnalysisWrite[]; ctx: AnalysisContext }
  | { t: 'snapshot'; id: number; snapshot: SnapshotMessage }
  | { t: 'corpus-image'; id: number; key: SnapshotKey; bytes: Uint8Array }
  | { t: 'checkpoint'; id: number }
  | { t: 'close'; id: number };
/** `stored`: what a corpus image write says (Store.saveCorpusImage). */
export type FromWriter = { id: number; error?: string; stored?: boolean };

/** Rows per message: serialising one writes about 200 KB (a few milliseconds even into fresh memory). */
const PART = 200;
/** Analysis parts sent ahead of the one being written: 3,200 rows in flight. */
const IN_FLIGHT = 16;

/**
 * A shared-memory copy of a buffer, made a slice at a time, so the thread reads it without another
 * copy (none when it is in shared memory already).
 */
const shared = async (b: Buffer, clock: SliceClock): Promise<Uint8Array> =>
  b.buffer instanceof SharedArrayBuffer ? b : runInSlices(joinSteps([b], sharedBuffer), clock);

/**
 * Writes on a thread of its own with its own connection: SQLite writes run on the calling thread
 * (a 25 MB snapshot row takes about 100 ms to insert and commit), and the PostgreSQL client turns a
 * large bytea into hex text on it. Requests never wait for either.
 */
export class StoreWriter {
  private readonly worker: Worker;
  private readonly calls = new Map<number, { resolve(m: FromWriter): void; reject(err: Error): void }>();
  private nextId = 0;

  constructor(databaseUrl: string) {
    this.worker = startWorker('store-writer-thread', import.meta.url, { databaseUrl });
    this.worker.on('message', (m: FromWriter) => {
      const call = this.calls.get(m.id);
      this.calls.delete(m.id);
      if (this.calls.size === 0) this.worker.unref();
      if (m.error) call?.reject(new Error(m.error));
      else call?.resolve(m);
    });
    const fail = (err: Error) => {
      for (const c of this.calls.values()) c.reject(err);
      this.calls.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the store writer thread exited (code ${code})`)));
    // An idle thread does not keep the process alive; one with a write under way does.
    this.worker.unref();
  }

  private send(m: ToWriter, transfer: ArrayBuffer[] = []): Promise<FromWriter> {
    this.worker.ref();
    const done = new Promise<FromWriter>((resolve, reject) => this.calls.set(m.id, { resolve, reject }));
    // Awaited by the caller, possibly after more parts are sent: a failure meanwhile is not unhandled.
    done.catch(() => {});
    this.worker.postMessage(m, transfer);
    return done;
  }

  async saveAnalyses(items: AnalysisWrite[], ctx: AnalysisContext, clock: SliceClock): Promise<void> {
    // A few parts in flight, not all: the thread's queue would otherwise hold a copy of every analysis
    // at once (a gigabyte for a million reviews analysed on a first start).
    const inFlight: Promise<unknown>[] = [];
    for (let i = 0; i < items.length; i += PART) {
      if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
      inFlight.push(this.send({ t: 'analyses', id: this.nextId++, items: items.slice(i, i + PART), ctx }));
      if (clock.due()) await clock.pause();
    }
    await Promise.all(inFlight);
  }

  async saveSnapshot(
    snap: Omit<SnapshotMessage, 'reviews' | 'insights' | 'layout'> & { reviews: Buffer; insights: Buffer; layout: Buffer },
    clock: SliceClock,
  ): Promise<void> {
    const [reviews, insights, layout] = [
      await shared(snap.reviews, clock),
      await shared(snap.insights, clock),
      await shared(snap.layout, clock),
    ];
    await this.send({ t: 'snapshot', id: this.nextId++, snapshot: { ...snap, reviews, insights, layout } });
  }

  /**
   * Stores a corpus image beside its snapshot (Store.saveCorpusImage: false when one is kept already or
   * the snapshot is gone). Its memory is handed over: the caller reads it no more.
   */
  async saveCorpusImage(key: SnapshotKey, bytes: Buffer): Promise<boolean> {
    const sent = ownBytes(bytes);
    const m = await this.send({ t: 'corpus-image', id: this.nextId++, key, bytes: sent }, [sent.buffer as ArrayBuffer]);
    return m.stored === true;
  }

  async checkpoint(): Promise<void> {
    await this.send({ t: 'checkpoint', id: this.nextId++ });
  }

  async close(): Promise<void> {
    await this.send({ t: 'close', id: this.nextId++ }).catch(() => {});
    await this.worker.terminate();
  }
}
