import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The server's event-loop delay summary from /metrics, in milliseconds. */
export async function eventLoopDelay(url: string): Promise<{ p50: number; p99: number; max: number; count: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (re: RegExp) => Number(text.match(re)?.[1] ?? Number.NaN);
  return {
    p50: value(/^reviewcast_event_loop_delay_seconds\{quantile="0.5"\} (\S+)$/m) * 1000,
    p99: value(/^reviewcast_event_loop_delay_seconds\{quantile="0.99"\} (\S+)$/m) * 1000,
    max: value(/^reviewcast_event_loop_delay_max_seconds (\S+)$/m) * 1000,
    count: value(/^reviewcast_event_loop_delay_seconds_count (\S+)$/m),
  };
}

/** A request that only reads (`/healthz`), or one that writes to the store on the server's thread (an MCP
 * `initialize`: a rate-limit bucket and a session row; a refused one still takes from its bucket). */
const PROBES = {
  health: (url: string) => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) }),
  'mcp-initialize': (url: string) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      signal: AbortSignal.timeout(30_000),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pause-probe', version: '1' } },
      }),
    }),
};

/**
 * Sends a probe request every `everyMs` and keeps the slowest answer: the pause a client sees, measured
 * from outside as a cross-check of the server's own histogram. One untimed request goes first: a
 * process's first `fetch` loads undici and opens a connection (100–200 ms on Node 20), which is the
 * client's own start-up, not a pause of the server.
 */
export async function probeServer(
  url: string,
  kind: keyof typeof PROBES = 'health',
  everyMs = 20,
): Promise<{ stop(): Promise<{ slowestMs: number; probes: number; failures: number }> }> {
  await PROBES[kind](url).then((r) => r.arrayBuffer());
  let running = true;
  let slowestMs = 0;
  let probes = 0;
  let failures = 0;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      const ok = await PROBES[kind](url).then(
        async (r) => {
          await r.arrayBuffer();
          return r.ok || r.status === 429;
        },
        () => false,
      );
      const ms = performance.now() - t;
      probes++;
      if (!ok) failures++;
      slowestMs = Math.max(slowestMs, ms);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { slowestMs, probes, failures };
    },
  };
}

/** The bench process's own event-loop delay while probing: a slow answer it saw while it was itself stalled says nothing about the server. */
export function clientLoopDelay(): { stop(): number } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return {
    stop() {
      h.disable();
      return h.max / 1e6;
    },
  };
}

/** `reviewcast import FILE` in its own process, as an operator runs it; resolves with its output, rejects on a non-zero exit. */
export function cliImport(file: string, db: string, extra: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', file, '--database-url', db, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`import exited ${code}: ${out.slice(-2000)}`))));
  });
}

/** Reviews the server currently serves (from /readyz). */
export async function servedCount(url: string): Promise<number> {
  const r = await fetch(`${url}/readyz`).catch(() => null);
  return r?.ok ? ((await r.json()) as { reviews: number }).reviews : -1;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
