export type { AnalyseReviews, AnalysisSource } from './analyse-reviews.js';
export { describeCleaning, type TextFix } from './clean-text.js';
export { formatRowError, ImportFileError, type RowError } from './errors.js';
export { FORMATS, type Format, type RawRow } from './formats.js';
export { googleToRecord } from './google.js';
export { fingerprint, hashOf, reviewId } from './identity.js';
export { type ImportOptions, type ImportReport, importRows } from './import.js';
export { type FileImportReport, importFile } from './import-file.js';
