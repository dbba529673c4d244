import type { MemoBudget } from '../catalog/index.js';
import type { FastPathCounts } from './fast-path.js';

/** Prometheus text exposition (version 0.0.4) of the per-URL memos' byte budget. */
export function memoMetricsText(m: MemoBudget): string {
  const lines = [
    '# HELP reviewcast_memo_bytes Bytes held by the per-URL memos (rendered bodies, compressed variants, keys), counted; views of catalog bytes excluded.',
    '# TYPE reviewcast_memo_bytes gauge',
    `reviewcast_memo_bytes ${m.bytes}`,
  ];
  for (const [name, bytes] of [...m.bytesByName()].sort()) lines.push(`reviewcast_memo_bytes{memo="${name}"} ${bytes}`);
  lines.push(
    '# HELP reviewcast_memo_budget_bytes The configured budget of the per-URL memos (REVIEWCAST_MEMO_BYTES).',
    '# TYPE reviewcast_memo_budget_bytes gauge',
    `reviewcast_memo_budget_bytes ${m.maxBytes}`,
    '# HELP reviewcast_memo_entries Entries held by the per-URL memos.',
    '# TYPE reviewcast_memo_entries gauge',
    `reviewcast_memo_entries ${m.entries}`,
    '# HELP reviewcast_memo_evictions_total Entries dropped to stay within the budget (this process).',
    '# TYPE reviewcast_memo_evictions_total counter',
    `reviewcast_memo_evictions_total ${m.evictions}`,
    '# HELP reviewcast_memo_uncached_total Values not memoized because one alone would take over a sixteenth of the budget (this process).',
    '# TYPE reviewcast_memo_uncached_total counter',
    `reviewcast_memo_uncached_total ${m.uncached}`,
    '',
  );
  return lines.join('\n');
}

/** Prometheus text of the fast path: answers written ahead of Fastify (the rest of the requests went through it). */
export function fastPathMetricsText(c: FastPathCounts): string {
  return [
    '# HELP reviewcast_http_fast_path_responses_total Dataset GETs answered ahead of Fastify, with the same bytes its routes send (this process).',
    '# TYPE reviewcast_http_fast_path_responses_total counter',
    `reviewcast_http_fast_path_responses_total ${c.served}`,
    '',
  ].join('\n');
}
