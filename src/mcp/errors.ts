/** A JSON-RPC error answered at the HTTP layer, in the shape the SDK's transports use (id null: no request was read). */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}
