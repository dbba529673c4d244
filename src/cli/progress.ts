import cliProgress from 'cli-progress';

/** A progress bar on a terminal; silent when output is piped or in CI logs. */
export function progress(label: string): { update(done: number, total: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label.padEnd(10)} {bar} {percentage}% | {value}/{total} | {eta_formatted} left`,
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 200,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      if (done === total || done % 200 === 0) bar.update(done);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
