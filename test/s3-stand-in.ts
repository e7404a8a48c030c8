// A local S3-compatible server for the tests of exports kept in a bucket, written from Amazon S3's API reference: the
// path-style requests the app makes (PutObject, CreateMultipartUpload, UploadPart, CompleteMultipartUpload,
// AbortMultipartUpload, GetObject, DeleteObject) with their documented answers and errors (NoSuchBucket, NoSuchKey,
// NoSuchUpload, EntityTooSmall for a part under 5 MiB that is not the last, InvalidPart), each request's Signature
// Version 4 checked against the one key it knows (SignatureDoesNotMatch, InvalidAccessKeyId), and the payload's
// SHA-256 checked when the request states it. Objects live in memory.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3StandIn {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The objects kept, by key. */
  objects: Map<string, Buffer>;
  /** Multipart uploads begun and neither completed nor aborted. */
  uploads: Map<string, { key: string; parts: Map<number, Buffer> }>;
  /** Every request, as `METHOD key?query`, in order. */
  requests: string[];
  close(): Promise<void>;
}

const MIN_PART_BYTES = 5 << 20;

const etagOf = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding, as SigV4's canonical request wants it. */
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

function xml(res: http.ServerResponse, status: number, body: string): void {
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function s3Error(res: http.ServerResponse, status: number, code: string, message: string): void {
  xml(
    res,
    status,
    `<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomUUID()}</RequestId></Error>`,
  );
}

/** Whether the request's SigV4 Authorization header is the one the key makes for it (null), or why not. */
function signatureProblem(
  req: http.IncomingMessage,
  url: URL,
  body: Buffer,
  accessKeyId: string,
  secret: string,
): [string, string] | null {
  const header = req.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return ['AccessDenied', 'Requests must be signed with AWS Signature Version 4.'];
  const [, keyId, day, region, signedHeaders, signature] = match;
  if (keyId !== accessKeyId) return ['InvalidAccessKeyId', 'The AWS access key ID you provided does not exist.'];
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (/^[0-9a-f]{64}$/.test(payloadHash) && payloadHash !== sha256(body))
    return ['XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.'];
  const query = [...url.searchParams.entries()]
    .map(([name, value]) => [encode(name), encode(value)])
    .sort(([a, x], [b, y]) => (a === b ? x!.localeCompare(y!) : a!.localeCompare(b!)))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = signedHeaders!
    .split(';')
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', String(req.headers['x-amz-date']), scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), 's3'), 'aws4_request');
  if (createHmac('sha256', key).update(toSign).digest('hex') !== signature)
    return ['SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.'];
  return null;
}

export async function startS3StandIn(): Promise<S3StandIn> {
  const bucket = 'aso-exports-test';
  const accessKeyId = 'AKIASTANDIN000000001';
  const secretAccessKey = 'stand-in-secret-access-key-0000000000000';
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const requests: string[] = [];

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://s3.test');
    const [, bucketName = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const method = req.method ?? 'GET';
    requests.push(`${method} ${key}${url.search}`);
    const problem = signatureProblem(req, url, body, accessKeyId, secretAccessKey);
    if (problem) return s3Error(res, 403, ...problem);
    if (bucketName !== bucket) return s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist.');
    const uploadId = url.searchParams.get('uploadId');

    if (method === 'POST' && url.searchParams.has('uploads')) {
      const id = randomUUID();
      uploads.set(id, { key, parts: new Map() });
      return xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key)
        return s3Error(res, 404, 'NoSuchUpload', 'The specified multipart upload does not exist.');
      if (method === 'PUT') {
        upload.parts.set(Number(url.searchParams.get('partNumber')), body);
        res.writeHead(200, { ETag: etagOf(body) });
        return res.end();
      }
      if (method === 'DELETE') {
        uploads.delete(uploadId);
        res.writeHead(204);
        return res.end();
      }
      if (method === 'POST') {
        const listed = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const parts = listed.map((number) => upload.parts.get(number));
        if (parts.some((part) => !part))
          return s3Error(res, 400, 'InvalidPart', 'One or more of the specified parts could not be found.');
        if (parts.slice(0, -1).some((part) => part!.byteLength < MIN_PART_BYTES))
          return s3Error(res, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size.');
        const whole = Buffer.concat(parts as Buffer[]);
        objects.set(key, whole);
        uploads.delete(uploadId);
        return xml(
          res,
          200,
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etagOf(whole)}</ETag></CompleteMultipartUploadResult>`,
        );
      }
    }
    if (method === 'PUT') {
      objects.set(key, body);
      res.writeHead(200, { ETag: etagOf(body) });
      return res.end();
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = objects.get(key);
      if (!object) return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      res.writeHead(200, {
        'Content-Length': object.byteLength,
        'Content-Type': 'application/octet-stream',
        ETag: etagOf(object),
      });
      return res.end(method === 'GET' ? object : undefined);
    }
    if (method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    s3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    uploads,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
