export { importFile, type FileImportReport } from './import-file.js';
export { importRows, type ImportOptions, type ImportReport } from './import.js';
export { analyzePending, analysisContext } from './analyze.js';
export { FORMATS, type Format, type RawRow, detectFormat, parseFile } from './formats.js';
export { ImportFileError, formatRowError, type RowError } from './errors.js';
export { decodeUtf8 } from './decode.js';
export { type TextFix, describeCleaning } from './clean-text.js';
export { fingerprint, hashOf, reviewId } from './identity.js';
