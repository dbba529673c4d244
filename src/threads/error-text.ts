/** An error as text to post to another thread or to report: its stack where it has one (a thread's error crosses as text). */
export const errorText = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));
