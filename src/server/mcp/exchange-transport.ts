// A transport of the SDK's `Transport` interface that carries many HTTP exchanges at once to one long-lived `Server`:
// the MCP endpoint's path for a plain tool call (./mcp-endpoint.ts). The SDK's stateless leg builds, per request, a
// `Server`, a web Request and Response, a streamable HTTP transport with its streams and abort signals; on the hot
// path that costs more than the tool call's own work. Here the `Server` (its JSON-RPC dispatch and validation) is the
// SDK's, made once; this transport hands it each request's message with that request's authInfo and gives back its
// response.
//
// Two clients may use the same JSON-RPC id at the same time (a stateless client often sends every call as id 1), and
// the `Server` keeps its in-flight requests by id: each message goes in under an id of the transport's own, and its
// response comes back under the client's.
import type {
  AuthInfo,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResponse,
  Transport,
} from '@modelcontextprotocol/server';

interface PendingExchange {
  clientId: JSONRPCRequest['id'];
  answer: (response: JSONRPCResponse) => void;
  refuse: (error: Error) => void;
}

const closed = () => new Error('The MCP server closed before it answered.');

export class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  #lastId = 0;
  #closed = false;
  readonly #pending = new Map<number, PendingExchange>();

  async start(): Promise<void> {}

  /** Refuses the exchanges still waiting, and any asked after: a caller never waits on a server that is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const exchange of pending) exchange.refuse(closed());
    this.onclose?.();
  }

  /**
   * The `Server`'s response to `request`. Only requests whose handlers send nothing but their response come this way
   * (a notification or request of the server's would have no stream to go to: such exchanges take the SDK's leg).
   */
  exchange(request: JSONRPCRequest, authInfo: AuthInfo): Promise<JSONRPCResponse> {
    if (this.#closed) return Promise.reject(closed());
    const id = (this.#lastId = this.#lastId === Number.MAX_SAFE_INTEGER ? 1 : this.#lastId + 1);
    return new Promise((answer, refuse) => {
      this.#pending.set(id, { clientId: request.id, answer, refuse });
      this.onmessage?.({ ...request, id }, { authInfo });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || !('result' in message || 'error' in message) || typeof message.id !== 'number') return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    // The spread keeps the members' order, so the answer serialises as the SDK's own transport would write it.
    pending.answer({ ...message, id: pending.clientId } as JSONRPCResponse);
  }
}

/**
 * The SSE answer the SDK's streamable HTTP transport writes for one JSON-RPC response, headers in the order it sends
 * them.
 */
export function eventStreamAnswer(response: JSONRPCResponse): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  return {
    status: 200,
    headers: {
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'content-type': 'text/event-stream',
      'x-accel-buffering': 'no',
    },
    body: `event: message\ndata: ${JSON.stringify(response)}\n\n`,
  };
}
