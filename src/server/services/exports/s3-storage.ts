// Exports' files in an S3-compatible bucket (EXPORT_STORAGE=s3), for deployments whose exports outgrow their database:
// written as they stream, by a multipart upload of 8 MiB parts (S3 wants 5 MiB at least but for the last), or by one
// PUT for a file smaller than a part; read back as a stream. The AWS SDK (@aws-sdk/client-s3) signs every request
// (SigV4). Its checksums are sent only where an operation requires one: S3-compatible services (R2, MinIO, older Ceph)
// refused the SDK's newer default checksums. A process that dies mid-upload leaves an incomplete upload that S3 keeps
// until a lifecycle rule aborts it (docs/deploy.md: AbortIncompleteMultipartUpload after a day).
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { config } from '@/server/core/config';
import type { ByteSink } from './file-writers';

/** The bytes a part holds (all but the last). */
const PART_BYTES = 8 << 20;

export interface FileSink extends ByteSink {
  /** Writes what is left and makes the file whole. */
  close(): Promise<void>;
  /** Drops what was written (an upload begun is aborted). */
  abort(): Promise<void>;
}

let cached: { settings: string; client: S3Client; bucket: string } | null = null;

/** The client and bucket of the current settings (a test changes them). */
function bucket(): { client: S3Client; bucket: string } {
  const settings = config();
  if (!settings.EXPORT_S3_BUCKET) throw new Error('EXPORT_STORAGE=s3 needs EXPORT_S3_BUCKET');
  const key = JSON.stringify([
    settings.EXPORT_S3_BUCKET,
    settings.EXPORT_S3_REGION,
    settings.EXPORT_S3_ENDPOINT,
    settings.EXPORT_S3_ACCESS_KEY_ID,
    settings.EXPORT_S3_SECRET_ACCESS_KEY,
  ]);
  if (cached?.settings !== key) {
    cached?.client.destroy();
    const client = new S3Client({
      region: settings.EXPORT_S3_REGION,
      ...(settings.EXPORT_S3_ENDPOINT && { endpoint: settings.EXPORT_S3_ENDPOINT, forcePathStyle: true }),
      ...(settings.EXPORT_S3_ACCESS_KEY_ID &&
        settings.EXPORT_S3_SECRET_ACCESS_KEY && {
          credentials: {
            accessKeyId: settings.EXPORT_S3_ACCESS_KEY_ID,
            secretAccessKey: settings.EXPORT_S3_SECRET_ACCESS_KEY,
          },
        }),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    cached = { settings: key, client, bucket: settings.EXPORT_S3_BUCKET };
  }
  return cached;
}

/** The key of an export's file: under the prefix, by export, named as it downloads. */
export function s3KeyOf(exportId: string, fileId: string, name: string): string {
  return `${config().EXPORT_S3_PREFIX}${exportId}/${fileId}/${name}`;
}

export function s3Sink(key: string, contentType: string): FileSink {
  const { client, bucket: Bucket } = bucket();
  let uploadId: string | undefined;
  const parts: { ETag: string; PartNumber: number }[] = [];
  let pending: Uint8Array[] = [];
  let size = 0;
  const take = () => {
    const whole = Buffer.concat(pending, size);
    pending = [];
    size = 0;
    return whole;
  };
  const uploadPart = async (body: Buffer) => {
    uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType })))
      .UploadId!;
    const PartNumber = parts.length + 1;
    const { ETag } = await client.send(
      new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }),
    );
    parts.push({ ETag: ETag!, PartNumber });
  };
  return {
    async write(bytes) {
      pending.push(bytes);
      size += bytes.byteLength;
      if (size >= PART_BYTES) await uploadPart(take());
    },
    async close() {
      if (!uploadId) {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: take(), ContentType: contentType }));
        return;
      }
      if (size) await uploadPart(take());
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    },
    async abort() {
      pending = [];
      if (uploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }));
    },
  };
}

/** A stored file's bytes, as the bucket streams them. */
export async function* s3Bytes(key: string): AsyncGenerator<Uint8Array> {
  const { client, bucket: Bucket } = bucket();
  const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: key }));
  if (!Body) return;
  yield* Body as AsyncIterable<Uint8Array>;
}

/** Removes the files' objects (a key already gone is no error: S3 answers 204 for it too). */
export async function removeS3Objects(keys: string[]): Promise<void> {
  const { client, bucket: Bucket } = bucket();
  for (const Key of keys) await client.send(new DeleteObjectCommand({ Bucket, Key }));
}
