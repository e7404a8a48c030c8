// Requests as bytes on the wire, for what fetch and Playwright refuse to send: any method Node's parser accepts
// (TRACE, PROPFIND, …), and CONNECT, whose answer comes back on the bare socket.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** `headers`: a list sends the header once per value. `body`: sent as it is. */
export function sendRaw(
  host: string,
  port: number | string,
  method: string,
  path: string,
  headers: Record<string, string | string[]> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host, port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends a CONNECT and returns everything the server wrote before it closed the connection. */
export function connectRaw(host: string, port: number | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () =>
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    );
    let text = '';
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}
