/**
 * One exchange of each kind through the endpoint before the server listens. The first MCP requests
 * compile the SDK's JSON-RPC schemas and load its transports: done on the first client's request, that
 * added 30–80 ms to the longest event-loop pause of a server still building its first revision.
 * Returns each answer's status (all 2xx when every leg was exercised).
 */
export async function warmUp(handle: (request: Request) => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  const send = async (init: RequestInit) => {
    const res = await handle(new Request(WARM_UP_URL, init));
    await res.arrayBuffer();
    statuses.push(res.status);
    return res;
  };
  const post = (body: object, headers: Record<string, string> = {}) =>
    send({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  // 2025 era: a whole session.
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: SESSION_REVISION, capabilities: {}, clientInfo: { name: 'warm-up', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id');
  if (session) {
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': SESSION_REVISION };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);
    await send({ method: 'DELETE', headers });
  }
  // 2026-07-28: one stateless request with its envelope.
  await post(
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION,
          'io.modelcontextprotocol/clientInfo': { name: 'warm-up', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
    { 'mcp-protocol-version': STATELESS_REVISION, 'mcp-method': 'tools/list' },
  );
  return statuses;
}

const WARM_UP_URL = 'http://127.0.0.1/mcp';
const SESSION_REVISION = '2025-11-25';
export const STATELESS_REVISION = '2026-07-28';
