// Where an export's files are kept, chosen by EXPORT_STORAGE when a file is begun and recorded on it
// (`export_files.storage`), so that a file is read and removed where it was written whatever the setting says later:
// - `postgres` (the default): in the app's database (export_file_chunks, a mebibyte a row), so that the embedded
//   database and a deployment of several processes need nothing else; every process that serves a download reads what
//   any worker wrote, a chunk at a time;
// - `s3`: in an S3-compatible bucket (./s3-storage.ts), for deployments whose exports outgrow their database.
import type { Prisma } from '@/generated/prisma/client';
import { config } from '@/server/core/config';
import { db } from '@/server/db';
import { removeS3Objects, s3Bytes, s3KeyOf, s3Sink, type FileSink } from './s3-storage';

export type { FileSink } from './s3-storage';

/** A file as its storage knows it. */
export interface StoredFile {
  id: string;
  storage: string;
  storageKey: string | null;
}

/** The bytes a stored chunk holds at most. */
const CHUNK_BYTES = 1 << 20;

/** Where a new file of an export goes: the storage of the moment, and its key there. */
export function newFileStorage(exportId: string, fileId: string, name: string) {
  return config().EXPORT_STORAGE === 's3'
    ? { storage: 's3', storageKey: s3KeyOf(exportId, fileId, name) }
    : { storage: 'postgres', storageKey: null };
}

/** Where a file's bytes are written, in order. */
export function fileSink(file: StoredFile, contentType: string): FileSink {
  return file.storage === 's3' ? s3Sink(file.storageKey!, contentType) : databaseSink(file.id);
}

/** A stored file's bytes, in order. */
export function storedBytes(file: StoredFile): AsyncGenerator<Uint8Array> {
  return file.storage === 's3' ? s3Bytes(file.storageKey!) : storedChunks(file.id);
}

/** Removes the files `where` names, their bytes first (an object removed twice is no error), then their rows. */
export async function removeFiles(where: Prisma.ExportFileWhereInput): Promise<number> {
  const inBuckets = await db.exportFile.findMany({
    where: { ...where, storage: 's3' },
    select: { storageKey: true },
  });
  const keys = inBuckets.flatMap((file) => (file.storageKey ? [file.storageKey] : []));
  if (keys.length) await removeS3Objects(keys);
  const { count } = await db.exportFile.deleteMany({ where });
  return count;
}

/** A sink that keeps a file's bytes in chunks of CHUNK_BYTES, each written as it fills. */
function databaseSink(fileId: string): FileSink {
  let seq = 0;
  let parts: Uint8Array[] = [];
  let size = 0;
  const store = async (bytes: Uint8Array) => {
    await db.exportFileChunk.create({ data: { fileId, seq: seq++, data: new Uint8Array(bytes) } });
  };
  const spill = async () => {
    const whole = Buffer.concat(parts, size);
    parts = [];
    size = 0;
    for (let start = 0; start < whole.byteLength; start += CHUNK_BYTES)
      await store(whole.subarray(start, start + CHUNK_BYTES));
  };
  return {
    async write(bytes) {
      parts.push(bytes);
      size += bytes.byteLength;
      if (size >= CHUNK_BYTES) await spill();
    },
    async close() {
      if (size) await spill();
    },
    // The chunks written go with the file's row (ON DELETE CASCADE).
    async abort() {
      parts = [];
    },
  };
}

async function* storedChunks(fileId: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const chunk = await db.exportFileChunk.findUnique({
      where: { fileId_seq: { fileId, seq } },
      select: { data: true },
    });
    if (!chunk) return;
    yield chunk.data;
  }
}
