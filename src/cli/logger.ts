import { type Logger, pino } from 'pino';

const LEVELS: Record<number, { name: string; color: number }> = {
  10: { name: 'TRACE', color: 90 },
  20: { name: 'DEBUG', color: 36 },
  30: { name: 'INFO', color: 32 },
  40: { name: 'WARN', color: 33 },
  50: { name: 'ERROR', color: 31 },
  60: { name: 'FATAL', color: 35 },
};
/** pino's own fields, shown in the line's head (time, level, message) or not at all. */
const HEAD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

const paint = (color: boolean, code: number, text: string) => (color ? `\x1b[${code}m${text}\x1b[39m` : text);
const value = (v: unknown) => (typeof v === 'string' && v !== '' && !/[\s"=]/.test(v) ? v : JSON.stringify(v));

/** `key=value` pairs; nested objects (a request, a response) flatten to `req.url=/x`. */
function pairs(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? pairs(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k}=${value(v)}`],
  );
}

/**
 * One pino JSON line as a line for people: `12:01:02.345 INFO  message key=value …`, an error's stack
 * below it. A line that is not pino's JSON passes through unchanged.
 */
export function formatLogLine(line: string, opts: { color: boolean }): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level), color: 39 };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const rest = Object.fromEntries(Object.entries(entry).filter(([k]) => !HEAD.has(k)));
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const head = [paint(opts.color, 90, time), paint(opts.color, level.color, level.name.padEnd(5)), String(entry.msg ?? ''), ...pairs(rest)];
  const stack = err ? `\n${(err.stack ?? err.message ?? '').replace(/^/gm, '    ')}` : '';
  return `${head.join(' ')}${stack}\n`;
}

/**
 * The server's logger: JSON lines (for journald, containers, log shippers) unless stdout is a terminal,
 * where each entry is one readable line.
 */
export function processLogger(level: string, out: NodeJS.WriteStream = process.stdout): Logger {
  if (!out.isTTY) return pino({ level });
  const color = !process.env.NO_COLOR;
  return pino({ level }, { write: (line: string) => out.write(formatLogLine(line, { color })) });
}
