import { Writable } from 'node:stream';
import { pino } from 'pino';

/** A logger whose lines the test reads, parsed. */
export function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/** Whether a log line says the corpus thread took `revision` over (its `from` says how). */
export const tookOver =
  (revision: number) =>
  (l: { msg?: unknown; revision?: unknown }): boolean =>
    l.msg === 'corpus thread took the revision over' && l.revision === revision;
