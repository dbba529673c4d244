import type { ImportRecordInput } from '../domain/index.js';

/** One page of a platform's reviews, mapped to import records. */
export interface ConnectorPage {
  records: ImportRecordInput[];
  /** The newest change time among the page's reviews (RFC 3339), null for an empty page. */
  newest: string | null;
}

/**
 * A review platform: the reviews changed since a checkpoint (every review when it is null), a page at
 * a time. A page that does not have the documented shape throws MalformedPageError; any other failure
 * a SyncError naming the source and the fix.
 */
export interface Connector {
  changedSince(checkpoint: string | null): AsyncGenerator<ConnectorPage>;
}

export const newestOf = (times: (string | null | undefined)[]): string | null =>
  times.reduce<string | null>((max, t) => (t && (!max || t > max) ? t : max), null);
