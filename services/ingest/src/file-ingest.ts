import { readEventsFile } from '@table-audit/schemas';
import type { IngestInput, IngestPipeline, IngestResult } from './pipeline.ts';

/** Avro object container files → event store, in batches; a damaged block is kept as a reject and reading goes on. */
export async function ingestFiles(
  paths: readonly string[],
  pipeline: IngestPipeline,
  options: {
    batchSize?: number;
    onProgress?: (p: { path: string; records: number; bytesRead?: number }) => void;
  } = {},
): Promise<IngestResult> {
  const total: IngestResult = { accepted: 0, alreadyStored: 0, rejected: 0 };
  const add = (r: IngestResult) => {
    total.accepted += r.accepted;
    total.alreadyStored += r.alreadyStored;
    total.rejected += r.rejected;
  };
  for (const path of paths) {
    let batch: IngestInput[] = [];
    let records = 0;
    for await (const item of readEventsFile(path)) {
      records++;
      if ('error' in item) {
        batch.push({
          source: { kind: 'file', path, block: item.block, index: item.index ?? -1 },
          error: `${item.error.code}: ${item.error.message}`,
          raw: item.bytes,
        });
      } else {
        const { block, index, ...event } = item;
        batch.push({ source: { kind: 'file', path, block, index }, event });
      }
      if (batch.length >= (options.batchSize ?? 5_000)) {
        add(await pipeline.submit(batch));
        batch = [];
        options.onProgress?.({ path, records });
      }
    }
    add(await pipeline.submit(batch));
    options.onProgress?.({ path, records });
  }
  return total;
}
