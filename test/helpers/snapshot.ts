import { SNAPSHOT_BYTES_FIELDS, type StoredSnapshot, type StoredSnapshotParts } from '../../src/domain/index.js';

/** A snapshot as the store reads it back (each bytes field in its parts), joined into the shape it was saved in. */
export const joinedSnapshot = (s: StoredSnapshotParts): StoredSnapshot =>
  ({
    ...s,
    ...Object.fromEntries(SNAPSHOT_BYTES_FIELDS.map((name) => [name, Buffer.concat(s[name])])),
  }) as unknown as StoredSnapshot;
