// The bench's limit (scripts/bench.ts): a bare node:http server, nothing between the socket and the answer. `?body=<name>`
// answers the bytes of <name>.json in BENCH_BODY_DIR with the status and headers of <name>.head.json, as the Next.js
// baseline does (bench/baseline), read once and kept in memory; without it, `{"ok":true}`. What the fastest server on
// this machine answers with the same bytes: no framework, no routing, no work.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

const port = Number(process.env.PORT ?? 3902);
const directory = process.env.BENCH_BODY_DIR;
const stored = new Map();
const OK = { status: 200, headers: [['content-type', 'application/json']], body: Buffer.from('{"ok":true}') };

function answerFor(name) {
  let answer = stored.get(name);
  if (answer === undefined) {
    const head = JSON.parse(readFileSync(path.join(directory, `${name}.head.json`), 'utf8'));
    answer = { status: head.status, headers: head.headers, body: readFileSync(path.join(directory, `${name}.json`)) };
    stored.set(name, answer);
  }
  return answer;
}

createServer((request, response) => {
  const query = request.url.indexOf('?body=');
  const name = query === -1 ? null : request.url.slice(query + 6);
  const answer = directory && name && /^[a-z0-9-]{1,40}$/.test(name) ? answerFor(name) : OK;
  response.writeHead(answer.status, [...answer.headers.flat(), 'content-length', String(answer.body.length)]);
  response.end(answer.body);
}).listen(port, '127.0.0.1');
