import type { Worker } from 'node:worker_threads';
import { joinSteps, ownBytes, runAtOnce, runInSlices, type SliceClock, sharedBuffer, startWorker } from '../threads/index.js';
import {
  type CommitInput,
  type Committed,
  CorpusModel,
  type CorpusRow,
  type FoundEntry,
  type SeedBodies,
  type Seeded,
  type Staged,
  type StagedEntries,
  type StageInput,
  StaleCorpusError,
} from './corpus-model.js';
import { type FromCorpus, PART, type ToCorpus } from './corpus-protocol.js';
import type { Engine } from './engine.js';
import type { BaseSegment } from './text-index.js';
import type { FoundMentions } from './to-review.js';

/** The corpus model as the catalog builder uses it: on a worker thread (a server) or in this thread (tests, tools). */
export interface CorpusEngine {
  stage(input: StageInput, clock?: SliceClock): Promise<Staged>;
  /** A stage sent in parts as they are read (`stage` is one part), so the caller holds one part at a time. */
  beginStage(head: StageHead, clock?: SliceClock): StageSink;
  commit(input: CommitInput, clock?: SliceClock): Promise<Committed>;
  /**
   * The search index's base segment of the last full stage's texts, its rows in this order (the stage
   * index of the row at each position; transferred to the engine): made beside the caller's render.
   */
  textSegment(order: Int32Array): Promise<BaseSegment>;
  /** Take over a revision loaded from a snapshot (see CorpusModel.seed): says whether it read the rows from `image` or the bodies. */
  seed(revision: number, bodies: SeedBodies, image?: Buffer | null): Promise<Seeded>;
  /** The held corpus as bytes if it is at `revision`, for a later seed (see CorpusModel.image). */
  image(revision: number): Promise<Buffer | null>;
  close(): Promise<void>;
}

export type StageHead = Pick<StageInput, 'business' | 'basedOn'>;

export interface StageSink {
  add(rows: CorpusRow[], changed?: string[]): Promise<void>;
  end(): Promise<Staged>;
  /** Drops the stage (its read failed): nothing is answered, and the next stage starts clean. */
  abort(): void;
}

/** Adds mention entries (a stage's, or a part of them the corpus thread sent) to a map of them by id; a later entry for an id replaces an earlier one. */
function addFound(into: Map<string, FoundMentions>, entries: readonly FoundEntry[]): void {
  for (const [id, technicians, services, service_areas] of entries) into.set(id, { technicians, services, service_areas });
}

/** A stage's answer as the catalog reads it: its mentions by id. */
function stagedOf(entries: StagedEntries): Staged {
  const found = new Map<string, FoundMentions>();
  addFound(found, entries.found);
  return { ...entries, found };
}

/** `stage` as one part of a sink. */
async function stageWhole(engine: CorpusEngine, input: StageInput, clock?: SliceClock): Promise<Staged> {
  const sink = engine.beginStage({ business: input.business, basedOn: input.basedOn }, clock);
  await sink.add(input.rows, input.changed);
  return sink.end();
}

/** The model in the calling thread: the same results, with the work on the caller's event loop. */
export class LocalCorpus implements CorpusEngine {
  private readonly model: CorpusModel;

  constructor(engine: Engine) {
    this.model = new CorpusModel(engine);
  }

  async stage(input: StageInput): Promise<Staged> {
    return stagedOf(this.model.stage(input));
  }

  beginStage(head: StageHead): StageSink {
    const model = this.model;
    let begun: Error | null = null;
    // Thrown by the sink's end, as the worker's answer would be.
    try {
      model.stageBegin(head.business, head.basedOn);
    } catch (err) {
      begun = err as Error;
    }
    return {
      async add(rows, changed = []) {
        if (!begun) model.stageRows(rows, changed);
      },
      async end() {
        if (begun) throw begun;
        return stagedOf(model.stageEnd());
      },
      abort() {
        model.stageAbort();
      },
    };
  }

  async commit(input: CommitInput): Promise<Committed> {
    return this.model.commit(input);
  }

  async textSegment(order: Int32Array): Promise<BaseSegment> {
    return this.model.textSegment(order);
  }

  async seed(revision: number, bodies: SeedBodies, image: Buffer | null = null): Promise<Seeded> {
    return this.model.seed(revision, bodies, image);
  }

  async image(revision: number): Promise<Buffer | null> {
    return this.model.image(revision);
  }

  async close(): Promise<void> {}
}

interface Call {
  resolve(m: FromCorpus): void;
  reject(err: Error): void;
}

/** Ids joined per step of a commit: about 60 KB of string. */
const ID_STEP = 5000;
const asBuffer = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** A body's parts in shared memory, as the thread is handed them (the same bytes, not a copy). */
function shared(parts: readonly Buffer[]): Uint8Array[] {
  for (const b of parts)
    if (!(b.buffer instanceof SharedArrayBuffer))
      throw new Error('CorpusWorker.seed: the bodies must be in shared memory (decodeSnapshot)');
  return [...parts];
}

/**
 * The corpus model on its own thread: analysing reviews and building the insights (hundreds of
 * milliseconds to seconds at 100k reviews) never holds up requests. Messages go in parts of 500
 * rows, so copying any one of them is short too. A thread that fails is done; its owner starts another.
 */
export class CorpusWorker implements CorpusEngine {
  private readonly worker: Worker;
  private readonly calls = new Map<number, Call>();
  private nextId = 0;
  private dead: Error | null = null;

  constructor(engine: Engine) {
    this.worker = startWorker('corpus-thread', import.meta.url, { engine: engine.module });
    this.worker.on('message', (m: FromCorpus) => this.receive(m));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the corpus thread exited (code ${code})`)));
    // An idle thread does not keep the process alive; one with a call under way does.
    this.worker.unref();
  }

  get failed(): boolean {
    return this.dead !== null;
  }

  private fail(err: Error): void {
    this.dead ??= err;
    for (const c of this.calls.values()) c.reject(this.dead);
    this.calls.clear();
  }

  /** A call whose answer no one waits for any more. */
  private forget(id: number): void {
    if (this.calls.delete(id) && this.calls.size === 0) this.worker.unref();
  }

  private receive(m: FromCorpus): void {
    const call = this.calls.get(m.id);
    if (!call) return;
    this.forget(m.id);
    if (m.t === 'failed') call.reject(m.stale ? new StaleCorpusError(m.message) : new Error(`corpus thread: ${m.message}`));
    else call.resolve(m);
  }

  private call(id: number): Promise<FromCorpus> {
    if (!this.dead) this.worker.ref();
    const answer: Promise<FromCorpus> = this.dead
      ? Promise.reject(this.dead)
      : new Promise((resolve, reject) => this.calls.set(id, { resolve, reject }));
    // Awaited once the request is sent; a failure meanwhile is not an unhandled rejection.
    answer.catch(() => {});
    return answer;
  }

  private post(m: ToCorpus, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(m, transfer);
  }

  stage(input: StageInput, clock?: SliceClock): Promise<Staged> {
    return stageWhole(this, input, clock);
  }

  beginStage(head: StageHead, clock?: SliceClock): StageSink {
    const id = this.nextId++;
    const answer = this.call(id);
    this.post({ t: 'stage-begin', id, business: head.business, basedOn: head.basedOn });
    return {
      add: async (rows, changed = []) => {
        for (let i = 0; i < Math.max(changed.length, rows.length); i += PART) {
          this.post({ t: 'stage-part', id, changed: changed.slice(i, i + PART), rows: rows.slice(i, i + PART) });
          if (clock?.due()) await clock.pause();
        }
      },
      end: async () => {
        this.post({ t: 'stage-end', id });
        const { parts } = (await answer) as Extract<FromCorpus, { t: 'staged' }>;
        const staged: Staged = { found: new Map(), analysed: new Map(), failed: [] };
        for (let k = 0; k < parts; k++) {
          const take = this.nextId++;
          const part = this.call(take);
          this.post({ t: 'stage-take', id: take });
          const m = (await part) as Extract<FromCorpus, { t: 'staged-part' }>;
          addFound(staged.found, m.found);
          for (const [rid, json] of m.analysed) staged.analysed.set(rid, json);
          staged.failed.push(...m.failed);
          if (clock?.due()) await clock.pause();
        }
        return staged;
      },
      abort: () => {
        this.post({ t: 'stage-abort', id });
        this.forget(id);
      },
    };
  }

  async commit(input: CommitInput, clock?: SliceClock): Promise<Committed> {
    // UTF-8 in shared memory, made a slice at a time: at 100k the ids are a megabyte, which a string
    // join and a message's copy would each write into fresh memory in one go (see threads/join.ts).
    const pieces: Buffer[] = [];
    for (let i = 0; i < input.freshIds.length; i += ID_STEP) {
      pieces.push(Buffer.from(`${i > 0 ? '\n' : ''}${input.freshIds.slice(i, i + ID_STEP).join('\n')}`));
      if (clock?.due()) await clock.pause();
    }
    const freshIds = clock ? await runInSlices(joinSteps(pieces, sharedBuffer), clock) : runAtOnce(joinSteps(pieces, sharedBuffer));
    const id = this.nextId++;
    const answer = this.call(id);
    this.post(
      {
        t: 'commit',
        id,
        revision: input.revision,
        freshIds,
        freshPositions: input.freshPositions,
        removedPositions: input.removedPositions,
        newest: input.newest,
        publicBaseUrl: input.publicBaseUrl,
      },
      [input.freshPositions.buffer as ArrayBuffer, input.removedPositions.buffer as ArrayBuffer],
    );
    const m = (await answer) as Extract<FromCorpus, { t: 'committed' }>;
    return {
      core: m.core,
      body: m.body.map(asBuffer),
      layout: asBuffer(m.layout),
      digest: asBuffer(m.digest),
      feeds: { json: asBuffer(m.feedJson), atom: asBuffer(m.feedAtom) },
    };
  }

  async textSegment(order: Int32Array): Promise<BaseSegment> {
    const id = this.nextId++;
    const answer = this.call(id);
    this.post({ t: 'text-segment', id, order }, [order.buffer as ArrayBuffer]);
    const m = (await answer) as Extract<FromCorpus, { t: 'text-segment' }>;
    return { offsets: m.offsets, postings: m.postings };
  }

  /**
   * Sent at once (the bodies are shared, not copied), so the thread sees it before any later call. The
   * image's memory is handed over (transferred): the caller reads it no more.
   */
  async seed(revision: number, bodies: SeedBodies, image: Buffer | null = null): Promise<Seeded> {
    const id = this.nextId++;
    const answer = this.call(id);
    const sent = image && ownBytes(image);
    this.post(
      {
        t: 'seed',
        id,
        revision,
        reviews: shared(bodies.reviews),
        reviewsLayout: ownBytes(bodies.reviewsLayout),
        insights: shared(bodies.insights),
        insightsLayout: ownBytes(bodies.insightsLayout),
        image: sent,
      },
      sent ? [sent.buffer as ArrayBuffer] : [],
    );
    const { from, passedOver, state } = (await answer) as Extract<FromCorpus, { t: 'seeded' }>;
    return passedOver === undefined ? { from, state } : { from, passedOver, state };
  }

  async image(revision: number): Promise<Buffer | null> {
    const id = this.nextId++;
    const answer = this.call(id);
    this.post({ t: 'image', id, revision });
    const { bytes } = (await answer) as Extract<FromCorpus, { t: 'image' }>;
    return bytes && asBuffer(bytes);
  }

  async close(): Promise<void> {
    this.dead ??= new Error('the corpus thread was closed');
    await this.worker.terminate();
  }
}
