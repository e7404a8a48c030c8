import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { eventStreamAnswer, ExchangeTransport } from './exchange-transport';

/** A Server whose tool call answers with the argument it was given, once the test releases it. */
async function connectedServer() {
  const releases = new Map<string, () => void>();
  const server = new Server({ name: 'exchange test', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async (request, context) => {
    const tag = String(request.params.arguments?.tag);
    await new Promise<void>((release) => releases.set(tag, release));
    return { content: [{ type: 'text', text: `${tag} for ${context.http?.authInfo?.clientId}` }] };
  });
  const transport = new ExchangeTransport();
  await server.connect(transport);
  return { transport, releases };
}

const call = (id: string | number, tag: string) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { tag } },
});
const auth = (clientId: string) => ({ token: 'token', clientId, scopes: [] });

describe('ExchangeTransport', () => {
  it('keeps requests of the same id apart, whichever the Server answers first, each with its own authInfo', async () => {
    const { transport, releases } = await connectedServer();
    const first = transport.exchange(call(1, 'a'), auth('client a'));
    const second = transport.exchange(call(1, 'b'), auth('client b'));
    await expect.poll(() => releases.size).toBe(2);
    releases.get('b')!();
    releases.get('a')!();
    expect(await second).toEqual({
      result: { content: [{ type: 'text', text: 'b for client b' }] },
      jsonrpc: '2.0',
      id: 1,
    });
    expect(await first).toEqual({
      result: { content: [{ type: 'text', text: 'a for client a' }] },
      jsonrpc: '2.0',
      id: 1,
    });
  });

  it('gives a string id back as it came, on an error too', async () => {
    const { transport, releases } = await connectedServer();
    const answer = transport.exchange(call('call-7', 'c'), auth('client c'));
    await expect.poll(() => releases.size).toBe(1);
    releases.get('c')!();
    expect((await answer).id).toBe('call-7');
    const unknown = await transport.exchange(
      { jsonrpc: '2.0', id: 'call-8', method: 'no/such/method' },
      auth('client c'),
    );
    expect(unknown).toMatchObject({ jsonrpc: '2.0', id: 'call-8', error: { code: -32601 } });
  });

  it('refuses the exchanges still waiting when it closes, and any asked after', async () => {
    const { transport, releases } = await connectedServer();
    const waiting = transport.exchange(call(1, 'd'), auth('client d'));
    await expect.poll(() => releases.size).toBe(1);
    await transport.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(transport.exchange(call(2, 'e'), auth('client e'))).rejects.toThrow(/closed/);
    // The Server's late answer to a refused exchange goes nowhere.
    releases.get('d')!();
  });

  it('frames the answer as one SSE message event', () => {
    const answer = eventStreamAnswer({ result: {}, jsonrpc: '2.0', id: 1 });
    expect(answer.body).toBe('event: message\ndata: {"result":{},"jsonrpc":"2.0","id":1}\n\n');
    expect(answer.headers['content-type']).toBe('text/event-stream');
  });
});
