// Worker thread: the corpus model (analyses, insights, per_review body) of CorpusWorker.
import { parentPort, workerData } from 'node:worker_threads';
import { errorText, ownBytes, sharedBuffer } from '../threads/index.js';
import { CorpusModel, StaleCorpusError } from './corpus-model.js';
import { type FromCorpus, PART, type ToCorpus } from './corpus-protocol.js';
import { loadEngine } from './engine.js';

const port = parentPort!;
const send = (m: FromCorpus) => port.postMessage(m);
// Bodies in shared memory, so the main thread serves them as they are.
let model: CorpusModel;
let outbox: Omit<Extract<FromCorpus, { t: 'staged-part' }>, 't' | 'id'>[] = [];

const asBuffer = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function handle(m: ToCorpus): void {
  try {
    switch (m.t) {
      // Each part is staged as it arrives: its rows (and their analyses' JSON) are let go before the next.
      case 'stage-begin':
        model.stageBegin(m.business, m.basedOn);
        return;
      case 'stage-part':
        model.stageRows(m.rows, m.changed);
        return;
      case 'stage-abort':
        model.stageAbort();
        return;
      case 'stage-end': {
        const { found, analysed, failed } = model.stageEnd();
        const made = [...analysed];
        outbox = [];
        // A failed review is among those analysed: `made` is never shorter.
        for (let i = 0; i < Math.max(found.length, made.length); i += PART)
          outbox.push({ found: found.slice(i, i + PART), analysed: made.slice(i, i + PART), failed: failed.slice(i, i + PART) });
        send({ t: 'staged', id: m.id, parts: outbox.length });
        return;
      }
      case 'stage-take':
        send({ t: 'staged-part', id: m.id, ...outbox.shift()! });
        return;
      case 'commit': {
        const done = model.commit({
          revision: m.revision,
          freshIds: m.freshIds.length === 0 ? [] : asBuffer(m.freshIds).toString('utf8').split('\n'),
          freshPositions: m.freshPositions,
          removedPositions: m.removedPositions,
          newest: m.newest,
          publicBaseUrl: m.publicBaseUrl,
        });
        send({
          t: 'committed',
          id: m.id,
          core: done.core,
          body: [...done.body],
          layout: done.layout,
          digest: done.digest,
          feedJson: done.feeds.json,
          feedAtom: done.feeds.atom,
        });
        return;
      }
      case 'text-segment': {
        const { offsets, postings } = model.textSegment(m.order);
        port.postMessage({ t: 'text-segment', id: m.id, offsets, postings } satisfies FromCorpus, [
          offsets.buffer as ArrayBuffer,
          postings.buffer as ArrayBuffer,
        ]);
        return;
      }
      case 'seed': {
        const seeded = model.seed(
          m.revision,
          {
            reviews: m.reviews.map(asBuffer),
            reviewsLayout: asBuffer(m.reviewsLayout),
            insights: m.insights.map(asBuffer),
            insightsLayout: asBuffer(m.insightsLayout),
          },
          m.image && asBuffer(m.image),
        );
        send({ t: 'seeded', id: m.id, ...seeded });
        return;
      }
      case 'image': {
        const image = model.image(m.revision);
        const bytes = image && ownBytes(image);
        port.postMessage({ t: 'image', id: m.id, bytes } satisfies FromCorpus, bytes ? [bytes.buffer as ArrayBuffer] : []);
        return;
      }
    }
  } catch (err) {
    send({
      t: 'failed',
      id: m.id,
      message: errorText(err),
      stale: err instanceof StaleCorpusError,
    });
  }
}

// The engine loads asynchronously; messages that arrive meanwhile wait, in order (one posted before a
// listener exists would be lost).
const early: ToCorpus[] = [];
port.on('message', (m: ToCorpus) => (model ? handle(m) : early.push(m)));
const engine = await loadEngine((workerData as { engine: string }).engine);
model = new CorpusModel(engine, sharedBuffer);
for (const m of early.splice(0)) handle(m);
