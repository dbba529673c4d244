import type { Business, Review } from '../domain/index.js';
import type { Revision } from '../store/index.js';
import type { AnalysisFailure } from './analyze-or-rate.js';
import type { CorpusRow, FoundEntry, Seeded } from './corpus-model.js';

/** Messages to the corpus thread. A stage is sent in parts, so no one message is large to copy. */
export type ToCorpus =
  | { t: 'stage-begin'; id: number; business: Business; basedOn: number | null }
  | { t: 'stage-part'; id: number; changed: string[]; rows: CorpusRow[] }
  | { t: 'stage-end'; id: number }
  /** The stage's read failed: drop what was staged, answer nothing. */
  | { t: 'stage-abort'; id: number }
  /** The next part of the staged answer: taken one at a time, since a port delivers every queued message in one turn. */
  | { t: 'stage-take'; id: number }
  /** `freshIds` joined by newlines, UTF-8 in shared memory: one buffer, not copied, instead of 100k small strings. */
  | {
      t: 'commit';
      id: number;
      revision: Revision;
      freshIds: Uint8Array;
      freshPositions: Int32Array;
      removedPositions: Int32Array;
      newest: Review[];
      publicBaseUrl: string;
    }
  /** The last full stage's text segment, its rows in this order (the stage index at each position). */
  | { t: 'text-segment'; id: number; order: Int32Array }
  | {
      t: 'seed';
      id: number;
      revision: number;
      /** Each body's parts, in shared memory. */
      reviews: Uint8Array[];
      reviewsLayout: Uint8Array;
      insights: Uint8Array[];
      insightsLayout: Uint8Array;
      /** The corpus image (CorpusModel.image) to read the rows from, transferred; null to read the bodies. */
      image: Uint8Array | null;
    }
  /** The held corpus as bytes, if it is at `revision` (CorpusModel.image). */
  | { t: 'image'; id: number; revision: number };

export type FromCorpus =
  | { t: 'staged'; id: number; parts: number }
  | { t: 'staged-part'; id: number; found: FoundEntry[]; analysed: [string, string][]; failed: AnalysisFailure[] }
  /** `body` (its parts) lives in shared memory: handed over without a copy. */
  | {
      t: 'committed';
      id: number;
      core: string;
      body: Uint8Array[];
      layout: Uint8Array;
      digest: Uint8Array;
      feedJson: Uint8Array;
      feedAtom: Uint8Array;
    }
  /** Transferred, not copied. */
  | { t: 'text-segment'; id: number; offsets: Int32Array; postings: Uint8Array }
  | ({ t: 'seeded'; id: number } & Seeded)
  /** Transferred, not copied. */
  | { t: 'image'; id: number; bytes: Uint8Array | null }
  | { t: 'failed'; id: number; message: string; stale: boolean };

/** Entries per message. */
export const PART = 500;
