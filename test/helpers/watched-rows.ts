// Kept insight rows that report reads of their aspect mask: an entity builder reads it when it counts a
// row in or out, so a read of a row a revision did not change means a pass over the corpus. The row itself
// is watched, not a proxy of it: its aspects know their row, and a proxy would be another object, so the
// corpus could not find it among its rows and would pass over them all.

/** `row`, its aspect mask now reported to `onRead` (given the row) on every read. */
export function watchAspectMask<T extends { readonly aspectMask: number }>(row: T, onRead: (row: T) => void): T {
  const mask = row.aspectMask;
  return Object.defineProperty(row, 'aspectMask', {
    get: () => {
      onRead(row);
      return mask;
    },
  });
}
