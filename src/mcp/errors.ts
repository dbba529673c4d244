/**
 * A JSON-RPC error answered at the HTTP layer, in the shape the SDK's transports use: the request's id
 * when one was read, else null.
 */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { status, headers });
}
