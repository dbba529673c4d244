/** Process-local counters of the MCP endpoint, for /metrics. */
export class McpCounters {
  sessionsCreated = 0;
  /** initialize refused by the per-address token bucket (429). */
  sessionsRefusedRateLimited = 0;
  /** initialize refused because every slot was held by a session active within the last minute (503). */
  sessionsRefusedFull = 0;
}

/** Prometheus text exposition (version 0.0.4) of the counters. */
export function mcpMetricsText(c: McpCounters): string {
  return [
    '# HELP reviewcast_mcp_sessions_created_total Session-era MCP sessions created (this process).',
    '# TYPE reviewcast_mcp_sessions_created_total counter',
    `reviewcast_mcp_sessions_created_total ${c.sessionsCreated}`,
    '# HELP reviewcast_mcp_sessions_refused_total initialize requests refused, by reason (this process).',
    '# TYPE reviewcast_mcp_sessions_refused_total counter',
    `reviewcast_mcp_sessions_refused_total{reason="rate_limited"} ${c.sessionsRefusedRateLimited}`,
    `reviewcast_mcp_sessions_refused_total{reason="full"} ${c.sessionsRefusedFull}`,
    '',
  ].join('\n');
}
