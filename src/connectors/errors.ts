/** A sync failure whose message names the source and what the operator can do; safe to log and show (no secret). */
export class SyncError extends Error {
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
  }
}

/** A page the platform sent that does not have the documented shape: the whole run is rejected. */
export class MalformedPageError extends SyncError {}
