// Where an export's files are kept: in PostgreSQL by default (export_file_chunks, a mebibyte a row), so that the
// embedded database and a deployment of several processes need nothing else; every process that serves a download
// reads what any worker wrote. A file is written in order and read back in order, a chunk at a time.
import { db } from '@/server/db';
import type { ByteSink } from './file-writers';

/** The bytes a stored chunk holds at most. */
const CHUNK_BYTES = 1 << 20;

/** A sink that keeps a file's bytes in chunks of CHUNK_BYTES, each written as it fills. */
export function databaseSink(fileId: string): ByteSink & { close(): Promise<void> } {
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
  };
}

/** A stored file's bytes, in order, one chunk read at a time. */
export async function* storedChunks(fileId: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const chunk = await db.exportFileChunk.findUnique({
      where: { fileId_seq: { fileId, seq } },
      select: { data: true },
    });
    if (!chunk) return;
    yield chunk.data;
  }
}
