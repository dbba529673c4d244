/** Where a bad input row is: a line for line-based formats (NDJSON, CSV), an index for JSON arrays. */
export interface RowRef {
  line?: number;
  index?: number;
}

export interface RowError extends RowRef {
  field: string;
  reason: string;
}

export const formatRef = (r: RowRef) => (r.line !== undefined ? `line ${r.line}` : r.index !== undefined ? `item ${r.index}` : 'file');

export const formatRowError = (e: RowError) => `${formatRef(e)}: ${e.field ? `${e.field}: ` : ''}${e.reason}`;

/** The whole file is unreadable (not UTF-8, not JSON, unknown format): nothing can be imported. */
export class ImportFileError extends Error {
  constructor(readonly errors: RowError[]) {
    super(errors.map(formatRowError).join('\n'));
  }
}
