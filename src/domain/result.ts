/** The outcome of an operation that fails in an expected way: a value, or the reason it has none. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };
