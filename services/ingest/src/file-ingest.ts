import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DEFAULT_MAX_KEPT_BYTES,
  NotAnEventsFileError,
  readEventsFileChunks,
  type EventsFileItem,
  type FileRegion,
} from '@table-audit/schemas';
import type { TableEvent } from '@table-audit/schemas/events';
import type { IngestInput, IngestPipeline, IngestResult } from './pipeline.ts';

/** Events per submitted batch: one transaction each (the whole batch, every table and the rejects, in one commit). */
export const DEFAULT_FILE_BATCH = 20_000;

export interface FileIngestOptions {
  batchSize?: number;
  onProgress?: (p: { path: string; records: number; result: IngestResult }) => void;
  /** called with every submitted batch and how long its submit took (ms) */
  onBatch?: (events: number, ms: number) => void;
  /**
   * Told what deserves a warning without being a reject: a file whose codec carries no checksum (null, deflate,
   * zstandard here), in which a damaged byte can change an event without being seen.
   */
  onWarning?: (message: string) => void;
  /** the most bytes a reject keeps; a longer region is kept as a reference to the file (default 1 MiB) */
  maxKeptBytes?: number;
  /** the most bytes a block may declare or decompress to (default 64 MiB) */
  maxBlockSize?: number;
}

/** The code of a reject for a file the reader failed on for a reason of its own (an I/O error, say). */
export const READ_FAILED = 'READ_FAILED';

/**
 * Avro object container files → event store, in batches. Nothing in a file stops the ingest: a damaged block or
 * record is kept as a reject (its bytes, or a reference to the region of the file when it is large) and reading
 * goes on; a file that is not an events file, or that the reader fails on, is kept as a reject (whole, or by
 * reference) and the next file is read. Paths are made absolute so that the same file ingested again from
 * elsewhere is recognised: its events are stored once, and its rejects kept once.
 */
export async function ingestFiles(
  paths: readonly string[],
  pipeline: IngestPipeline,
  options: FileIngestOptions = {},
): Promise<IngestResult> {
  const total: IngestResult = { accepted: 0, alreadyStored: 0, rejected: 0 };
  for await (const { path, records, inputs, fileDone } of fileBatches(paths, options)) {
    if (inputs.length) {
      const t0 = performance.now();
      const r = await pipeline.submit(inputs);
      options.onBatch?.(inputs.length, performance.now() - t0);
      total.accepted += r.accepted;
      total.alreadyStored += r.alreadyStored;
      total.rejected += r.rejected;
    }
    if (inputs.length || fileDone) options.onProgress?.({ path, records, result: { ...total } });
  }
  return total;
}

/** A batch of a file's inputs, with how many records of the file were read by its end. */
export interface FileBatch {
  path: string;
  records: number;
  inputs: IngestInput[];
  /** the file's last batch (possibly empty) */
  fileDone: boolean;
}

/**
 * The files' items as batches of inputs (batchSize each, a file's last batch shorter): what ingestFiles submits, and
 * what the preparing thread of the parallel ingest prepares. A path that does not lead to a file is refused before
 * anything is read.
 */
export async function* fileBatches(
  paths: readonly string[],
  options: Omit<FileIngestOptions, 'onProgress' | 'onBatch'> & {
    /** the size of the very first batch (default batchSize): a pipeline has something to write sooner */
    firstBatchSize?: number;
  } = {},
): AsyncGenerator<FileBatch> {
  let batchSize = options.firstBatchSize ?? options.batchSize ?? DEFAULT_FILE_BATCH;
  const maxKept = options.maxKeptBytes ?? DEFAULT_MAX_KEPT_BYTES;
  const absolute = paths.map((p) => resolve(p));
  // A path that does not lead to a file is the caller's mistake, not an input: refuse before ingesting anything.
  for (const [i, path] of absolute.entries()) {
    const s = await stat(path).catch((err: Error) => {
      throw new Error(`${paths[i]}: cannot be read (${err.message})`);
    });
    if (!s.isFile()) throw new Error(`${paths[i]}: is not a file`);
  }
  for (const path of absolute) {
    let batch: IngestInput[] = [];
    let records = 0;
    const chunks = readEventsFileChunks(path, {
      maxKeptBytes: maxKept,
      ...(options.maxBlockSize === undefined ? {} : { maxBlockSize: options.maxBlockSize }),
      onInfo: (info) => {
        if (info.protection === null)
          options.onWarning?.(
            `${path}: codec ${info.codec} carries no checksum: a damaged byte can change an event without being ` +
              `seen (write snappy, whose blocks carry a CRC32)`,
          );
      },
    });
    for (;;) {
      // Only what the reader throws is about the file; what the consumer of the batches throws is not.
      let next: IteratorResult<EventsFileItem[]>;
      try {
        next = await chunks.next();
      } catch (err) {
        batch.push(await fileReject(path, err as Error, records, maxKept));
        break;
      }
      if (next.done) break;
      for (const item of next.value) {
        records++;
        batch.push(toInput(path, item));
        if (batch.length >= batchSize) {
          yield { path, records, inputs: batch, fileDone: false };
          batch = [];
          batchSize = options.batchSize ?? DEFAULT_FILE_BATCH;
        }
      }
    }
    yield { path, records, inputs: batch, fileDone: true };
  }
}

function toInput(path: string, item: EventsFileItem): IngestInput {
  if (!('error' in item))
    return {
      source: { kind: 'file', path, block: item.block, index: item.index },
      event: { type: item.type, data: item.data } as TableEvent,
    };
  const region: FileRegion & { dataRange?: { start: number; end: number } } = item.dataRange
    ? { ...item.region, dataRange: item.dataRange }
    : item.region;
  return {
    source:
      item.index === undefined
        ? { kind: 'file', path, block: item.block }
        : { kind: 'file', path, block: item.block, index: item.index },
    error: `${item.error.code}: ${item.error.message}`,
    code: item.error.code,
    raw: item.bytes,
    ...(item.bytes === null ? { rawRef: region } : {}),
  };
}

/**
 * The reject of a whole file the reader refused or failed on: block -1 (the file's header, before any block). The
 * file is kept whole when it is small, else as a reference (its length and SHA-256).
 */
async function fileReject(path: string, err: Error, records: number, maxKept: number): Promise<IngestInput> {
  const code = err instanceof NotAnEventsFileError ? err.code : READ_FAILED;
  const reason =
    err instanceof NotAnEventsFileError
      ? `${err.code}: ${err.message}`
      : `${READ_FAILED}: ${path}: reading failed after ${records} item(s), which are kept (${err.name}: ${err.message}); the file is kept by reference`;
  const kept = await keep(path, maxKept).catch((e: Error) => ({
    raw: null,
    rawRef: { path, offset: 0, length: -1, error: e.message },
  }));
  return { source: { kind: 'file', path, block: -1 }, error: reason, code, ...kept };
}

/** The whole file when it is at most `maxKept` bytes; else a reference to it with its SHA-256. */
async function keep(
  path: string,
  maxKept: number,
): Promise<{ raw: Buffer; rawRef?: undefined } | { raw: null; rawRef: FileRegion }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size <= maxKept) {
      const buffer = Buffer.alloc(size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await file.read(buffer, filled, size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { raw: buffer.subarray(0, filled) };
    }
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(1024 * 1024);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length, length);
      if (bytesRead === 0) break;
      hash.update(chunk.subarray(0, bytesRead));
      length += bytesRead;
    }
    return { raw: null, rawRef: { path, offset: 0, length, sha256: hash.digest('hex') } };
  } finally {
    await file.close();
  }
}
