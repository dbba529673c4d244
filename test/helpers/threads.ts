import { readdirSync, readFileSync } from 'node:fs';

/** Each thread of process `pid` (this one by default) by id, with its nice value; empty once it has exited. */
export function niceByThread(pid: number | 'self' = 'self'): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    }
  } catch {
    // The process (or one thread) ended between the listing and the read.
  }
  return out;
}
