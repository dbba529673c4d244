import pg from 'pg';

/**
 * PostgreSQL LISTEN on a channel with its own connection (a pooled one cannot listen).
 * Reconnects with backoff after a lost connection; the caller keeps polling as the fallback, so a
 * notification missed while disconnected is only late, never lost.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retryMs = 500;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onRevision: () => void,
    private readonly onError: (err: Error) => void,
  ) {}

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, keepAlive: true });
    const retry = (err: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      if (this.stopped) return;
      this.onError(err);
      this.timer = setTimeout(() => void this.connect(), this.retryMs).unref();
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    };
    this.client = client;
    client.on('error', retry);
    client.on('end', () => retry(new Error('revision listener connection ended')));
    client.on('notification', () => this.onRevision());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.retryMs = 500;
      // Anything committed while we were away is picked up now.
      this.onRevision();
    } catch (err) {
      retry(err as Error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }
}
