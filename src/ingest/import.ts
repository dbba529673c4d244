import {
  type AnalysisContext,
  type CandidateKeys,
  type ReviewFields,
  type ReviewIdentity,
  type ReviewInput,
  type ReviewUpdate,
  type Revision,
  reviewVersion,
  type Store,
} from '../store/index.js';
import type { AnalyseReviews, AnalysisSource } from './analyse-reviews.js';
import { TEXT_FIXES, type TextFix } from './clean-text.js';
import { formatRef, type RowError, type RowRef } from './errors.js';
import type { RawRow } from './formats.js';
import { hashOf, reviewId } from './identity.js';
import { type NormalizedReview, normalizeRow, type Resolvers, resolversFor } from './normalize.js';

export interface ImportOptions {
  /** Write the valid rows and report the others instead of writing nothing. */
  skipInvalid?: boolean;
  /** Unpublish reviews of the file's sources that the file no longer contains. */
  sync?: boolean;
  now?: string;
  /**
   * Analyse the published rows this import writes with this (before the write transaction) and store
   * the analyses in the same transaction as the reviews. Without it the server analyses them.
   */
  analyze?: AnalyseReviews;
  /** Rows written so far, of those to write. */
  onProgress?: (done: number, total: number) => void;
  onAnalysisProgress?: (done: number, total: number) => void;
}

export interface ImportReport {
  added: number;
  updated: number;
  unchanged: number;
  unpublished: number;
  invalid: RowError[];
  /** The new data revision, or null when nothing changed (or nothing was written). */
  revision: Revision | null;
  written: boolean;
  /** --sync was asked for but not applied, because some rows were invalid. */
  syncSkipped: boolean;
  /** Valid rows whose texts cleaning changed, by kind of change (a row may count under several). */
  cleaned: Record<TextFix, number>;
}

type Existing = ReviewIdentity;

/** Rows per write, so progress moves in steps. */
const BATCH = 500;

/** Up to this many rows, an import reads only the stored reviews its rows could match, not all of them. */
const KEYED_READ_MAX = 2_000;

/**
 * The stored reviews an import must compare its rows with: all of them for --sync (it unpublishes
 * what the file lacks) or a large file; otherwise those sharing a platform id or a fingerprint with a
 * row, so adding one review to a 100k corpus reads a handful of rows.
 */
function candidateKeys(valid: NormalizedReview[], sync: boolean): CandidateKeys {
  if (sync || valid.length > KEYED_READ_MAX) return 'all';
  const platformIds = new Map<string, string[]>();
  for (const n of valid) {
    if (!n.record.source_review_id) continue;
    const ids = platformIds.get(n.record.source) ?? [];
    ids.push(n.record.source_review_id);
    platformIds.set(n.record.source, ids);
  }
  return { platformIds, fingerprints: [...new Set(valid.map((n) => n.fingerprint))] };
}

/**
 * Each row normalized and checked, a repeat of an earlier row reported as invalid. `rows` is emptied, so
 * a large file's parsed values are let go of before its analyses and its write (what a small machine's
 * heap ran out on); a function of its own, so that nothing of the loop (its last row) stays in the
 * import's frame.
 */
function validateRows(rows: RawRow[], resolvers: Resolvers, now: string): { valid: NormalizedReview[]; invalid: RowError[] } {
  const valid: NormalizedReview[] = [];
  const invalid: RowError[] = [];
  const seen = new Map<string, RowRef>();
  for (const row of rows) {
    const n = normalizeRow(row, resolvers, now);
    if (Array.isArray(n)) {
      invalid.push(...n);
      continue;
    }
    const first = seen.get(n.key);
    if (first) {
      invalid.push({
        line: row.line,
        index: row.index,
        field: n.record.source_review_id ? 'source_review_id' : '',
        reason: `duplicate of ${formatRef(first)} (same ${n.record.source_review_id ? 'source and source_review_id' : 'source, author, date and text'})`,
      });
      continue;
    }
    seen.set(n.key, { line: row.line, index: row.index });
    valid.push(n);
  }
  rows.length = 0;
  return { valid, invalid };
}

/**
 * Validates every row (emptying `rows`, see validateRows), then applies the valid ones in ONE
 * transaction: insert new reviews, update changed ones, leave equal ones alone. Re-importing the same
 * file writes nothing and makes no revision.
 */
export async function importRows(store: Store, rows: RawRow[], readErrors: RowError[], opts: ImportOptions = {}): Promise<ImportReport> {
  const now = opts.now ?? new Date().toISOString();
  const business = await store.getBusiness();
  const { valid, invalid: found } = validateRows(rows, resolversFor(business), now);
  const invalid = [...readErrors, ...found];
  invalid.sort((a, b) => (a.line ?? a.index ?? 0) - (b.line ?? b.index ?? 0));
  const cleaned = Object.fromEntries(TEXT_FIXES.map((f) => [f, 0])) as Record<TextFix, number>;
  for (const n of valid) for (const f of n.fixed) cleaned[f]++;
  const report: ImportReport = {
    added: 0,
    updated: 0,
    unchanged: 0,
    unpublished: 0,
    invalid,
    revision: null,
    written: false,
    syncSkipped: Boolean(opts.sync) && invalid.length > 0,
    cleaned,
  };
  if (invalid.length > 0 && !opts.skipInvalid) return report;
  const sync = Boolean(opts.sync);
  const analysis: AnalysisContext | null = opts.analyze && business ? { engine: opts.analyze.engine, business } : null;

  // Analysing takes long and needs no lock: it runs before the write transaction on what the rows will
  // be (planned against a plain read), and the transaction writes those analyses with the reviews, so
  // a review and its analysis commit together (a killed import leaves neither). A row that turns out
  // different inside the transaction (another import in between) is analysed there.
  const prepared = new Map<string, { version: string; analysis: string }>();
  let notice: Promise<void> | null = null;
  if (analysis) {
    const planned = planWrites(valid, await store.reviewCandidates(candidateKeys(valid, sync)), now);
    const targets = analysisTargets(planned);
    if (targets.length > 0) {
      // Analysing takes a second or more (loading the engine): a server gets ready to build on its
      // revision meanwhile, so the commit is served sooner. A hint: written beside the analysis, and an
      // announcement that cannot be written (a busy or read-only table) costs only that.
      notice = store.announceWrite().catch(() => {});
      const out = await opts.analyze!.analyse(
        analysis.business,
        targets.map((t) => t.input),
        opts.onAnalysisProgress,
      );
      targets.forEach((t, i) => prepared.set(t.input.id, { version: t.version, analysis: out[i] }));
    }
  }

  // Done before the write, which takes the same lock.
  await notice;
  await store.writeRevision(async (w) => {
    const existing = await w.candidates(candidateKeys(valid, sync));
    const planned = planWrites(valid, existing, now);
    report.added = planned.inserts.length;
    report.updated = planned.updates.length;
    report.unchanged = planned.unchanged;
    // A row that failed validation may still be a live review: never unpublish on an incomplete file.
    const sources = new Set(valid.map((n) => n.record.source));
    const gone =
      sync && invalid.length === 0
        ? existing.filter((e) => e.published && sources.has(e.source) && !planned.touched.has(e.id)).map((e) => e.id)
        : [];
    report.unpublished = gone.length;
    // An import that changes nothing makes no revision; otherwise every written row names it, so catalog
    // builds read only rows changed after the revision they hold.
    if (planned.inserts.length + planned.updates.length + gone.length === 0) return;
    const { revision, reviews } = await w.begin(
      now,
      `import: ${report.added} added, ${report.updated} updated, ${report.unpublished} unpublished`,
    );
    report.revision = revision;
    let done = 0;
    const total = planned.inserts.length + planned.updates.length;
    for (const u of planned.updates) {
      await reviews.update(u.id, u.set);
      opts.onProgress?.(++done, total);
    }
    for (let i = 0; i < planned.inserts.length; i += BATCH) {
      const batch = planned.inserts.slice(i, i + BATCH);
      await reviews.insert(batch);
      opts.onProgress?.((done += batch.length), total);
    }
    await reviews.unpublish(gone);
    if (analysis) {
      const targets = analysisTargets(planned);
      const late = targets.filter((t) => prepared.get(t.input.id)?.version !== t.version);
      const lateAnalyses =
        late.length > 0
          ? await opts.analyze!.analyse(
              analysis.business,
              late.map((t) => t.input),
            )
          : [];
      late.forEach((t, i) => prepared.set(t.input.id, { version: t.version, analysis: lateAnalyses[i] }));
      const items = targets.map((t) => ({ reviewId: t.input.id, version: t.version, analysis: prepared.get(t.input.id)!.analysis }));
      await w.saveAnalyses(items, analysis);
    }
  });
  report.written = true;
  return report;
}

interface PlannedWrites {
  inserts: ReviewInput[];
  updates: { id: string; set: ReviewUpdate }[];
  unchanged: number;
  /** Stored reviews the file matched (written or not): --sync keeps them. */
  touched: Set<string>;
}

/** Between stored rows with one fingerprint: the one without a platform id (the one a fallback is for), then the smallest id. */
const preferredMatch = (a: Existing, b: Existing) =>
  (a.source_review_id == null) !== (b.source_review_id == null) ? a.source_review_id == null : a.id < b.id;

/** What importing `valid` over `existing` writes: new rows, changed rows and the count of equal ones. */
function planWrites(valid: NormalizedReview[], existing: Existing[], now: string): PlannedWrites {
  const byKey = new Map<string, Existing>();
  const byFingerprint = new Map<string, Existing>();
  for (const e of existing) {
    byKey.set(e.source_review_id ? `id\u0000${e.source}\u0000${e.source_review_id}` : `fp\u0000${e.fingerprint}`, e);
    // Several stored rows may share a fingerprint (same text from two platform ids): the fallback
    // picks one by a fixed rule, so the full and the keyed read (whose row orders differ) agree.
    const held = byFingerprint.get(e.fingerprint);
    if (!held || preferredMatch(e, held)) byFingerprint.set(e.fingerprint, e);
  }
  // The same review seen once without a platform id and once with one (a CSV, then an export) is one
  // review: fall back to the fingerprint when either side has no id.
  const find = (n: NormalizedReview) => {
    const hit = byKey.get(n.key);
    if (hit) return hit;
    const same = byFingerprint.get(n.fingerprint);
    return same && (same.source_review_id == null || n.record.source_review_id == null) ? same : undefined;
  };
  const out: PlannedWrites = { inserts: [], updates: [], unchanged: 0, touched: new Set() };
  for (const n of valid) {
    const r = n.record;
    const content_hash = hashOf([r.text, r.rating, r.owner_reply]);
    // The record's fields pass through by name (a new review field needs nothing here); these are derived.
    const { verification, published_at, updated_at: importedUpdatedAt, technicians, services, service_area, ...same } = r;
    const base: ReviewFields = {
      ...same,
      fingerprint: n.fingerprint,
      published: r.verified,
      published_at: published_at ?? `${r.date}T00:00:00.000Z`,
      technicians: n.technicians,
      services: n.services,
      service_area: n.service_area,
      verification: verification ?? { method: r.source === 'direct' ? 'manual' : 'platform' },
      content_hash,
    };
    const prev = find(n);
    if (!prev) {
      const updated_at = importedUpdatedAt ?? base.published_at;
      out.inserts.push({
        ...base,
        id: reviewId(n.key, base.published_at),
        updated_at,
        first_seen_at: now,
        version: reviewVersion(base, updated_at),
      });
      continue;
    }
    out.touched.add(prev.id);
    // updated_at moves only when the text, rating or owner reply changes; the version covers what is stored.
    const updated_at =
      prev.content_hash === content_hash
        ? prev.updated_at
        : importedUpdatedAt && importedUpdatedAt > prev.updated_at
          ? importedUpdatedAt
          : now;
    const version = reviewVersion(base, updated_at);
    if (prev.version === version) out.unchanged++;
    // A source id learnt for a review first imported without one is kept (and the key is then the id).
    else
      out.updates.push({
        id: prev.id,
        set: { ...base, source_review_id: base.source_review_id ?? prev.source_review_id, updated_at, version },
      });
  }
  return out;
}

/** The published rows a plan writes, as analysis inputs with the version their analysis is of. */
function analysisTargets(p: PlannedWrites): { input: AnalysisSource; version: string }[] {
  const rows = [...p.inserts, ...p.updates.map((u) => ({ id: u.id, ...u.set }))];
  return rows
    .filter((r) => r.published)
    .map((r) => ({ input: { id: r.id, rating: r.rating, text: r.text, title: r.title, language: r.language }, version: r.version }));
}
