import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { NotAnEventsFileError, readEventsFile } from '@table-audit/schemas';
import type { TableEvent } from '@table-audit/schemas/events';
import type { IngestInput, IngestPipeline, IngestResult } from './pipeline.ts';

/** Events per submitted batch: big enough that each table's append carries many events (one transaction each). */
export const DEFAULT_FILE_BATCH = 20_000;
/** The most of a file that is not an events file kept in its reject. */
const HEAD_KEPT = 64 * 1024;

export interface FileIngestOptions {
  batchSize?: number;
  onProgress?: (p: { path: string; records: number; result: IngestResult }) => void;
  /** called with every submitted batch and how long its submit took (ms) */
  onBatch?: (events: number, ms: number) => void;
}

/**
 * Avro object container files → event store, in batches; a damaged block is kept as a reject (its bytes, file and
 * block number) and reading goes on, as it does after a file that is not an events file at all (kept as a reject
 * with its first bytes). Paths are made absolute so that the same file ingested again from elsewhere is
 * recognised: its events are stored once, and its rejects kept once.
 */
export async function ingestFiles(
  paths: readonly string[],
  pipeline: IngestPipeline,
  options: FileIngestOptions = {},
): Promise<IngestResult> {
  const batchSize = options.batchSize ?? DEFAULT_FILE_BATCH;
  const absolute = paths.map((p) => resolve(p));
  // A path that does not lead to a file is the caller's mistake, not an input: refuse before ingesting anything.
  for (const [i, path] of absolute.entries()) {
    const s = await stat(path).catch((err: Error) => {
      throw new Error(`${paths[i]}: cannot be read (${err.message})`);
    });
    if (!s.isFile()) throw new Error(`${paths[i]}: is not a file`);
  }
  const total: IngestResult = { accepted: 0, alreadyStored: 0, rejected: 0 };
  const submit = async (batch: IngestInput[]) => {
    if (!batch.length) return;
    const t0 = performance.now();
    const r = await pipeline.submit(batch);
    options.onBatch?.(batch.length, performance.now() - t0);
    total.accepted += r.accepted;
    total.alreadyStored += r.alreadyStored;
    total.rejected += r.rejected;
  };
  for (const path of absolute) {
    let batch: IngestInput[] = [];
    let records = 0;
    try {
      for await (const item of readEventsFile(path)) {
        records++;
        if ('error' in item) {
          batch.push({
            source:
              item.index === undefined
                ? { kind: 'file', path, block: item.block }
                : { kind: 'file', path, block: item.block, index: item.index },
            error: `${item.error.code}: ${item.error.message}`,
            code: item.error.code,
            raw: item.bytes,
          });
        } else {
          batch.push({
            source: { kind: 'file', path, block: item.block, index: item.index },
            event: { type: item.type, data: item.data } as TableEvent,
          });
        }
        if (batch.length >= batchSize) {
          await submit(batch);
          batch = [];
          options.onProgress?.({ path, records, result: { ...total } });
        }
      }
    } catch (err) {
      if (!(err instanceof NotAnEventsFileError)) throw err;
      // block -1: the file's header, before any block
      batch.push({
        source: { kind: 'file', path, block: -1 },
        error: `${err.code}: ${err.message}`,
        code: err.code,
        raw: await head(path),
      });
    }
    await submit(batch);
    options.onProgress?.({ path, records, result: { ...total } });
  }
  return total;
}

async function head(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_KEPT);
    const { bytesRead } = await file.read(buffer, 0, HEAD_KEPT, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
