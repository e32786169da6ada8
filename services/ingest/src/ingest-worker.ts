/**
 * The preparing thread of the parallel file ingest (parallel-ingest.ts): reads the files, decodes and checks each
 * record, packs each batch for the store (compact encoding, hash-form content, dictionary ids) and hands it to the
 * writing thread as a transferable ArrayBuffer, up to `depth` batches ahead of what is stored. The store is this
 * thread's own connection to the same file: for the dictionary and the tables' first events (read), and for a batch
 * that must go the ordinary way (written, when nothing else is in flight).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { fileBatches, type FileBatch } from './file-ingest.ts';
import { IngestPipeline, type PreparedIngest } from './pipeline.ts';
import type { FromWriter, IngestWorkerData, ToWriter } from './parallel-ingest.ts';

const port = parentPort!;
const data = workerData as IngestWorkerData;
const post = (m: ToWriter, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

/** Messages from the writer, in order. */
const inbox: FromWriter[] = [];
let wake: (() => void) | null = null;
port.on('message', (m: FromWriter) => {
  inbox.push(m);
  wake?.();
});
const nextMessage = async (): Promise<FromWriter> => {
  while (!inbox.length) await new Promise<void>((r) => (wake = r));
  wake = null;
  return inbox.shift()!;
};

interface InFlight {
  n: number;
  prepared: PreparedIngest;
  batch: FileBatch;
}

async function main(): Promise<void> {
  const store = new SqliteEventStore(data.storePath, { mustExist: true });
  try {
    const fixedNow = data.now;
    const pipeline = new IngestPipeline(store, fixedNow === null ? Date.now : () => fixedNow);
    const preparer = store.preparer();
    let generation = 0;
    let n = 0;
    const inFlight: InFlight[] = [];
    /** batches to prepare again (after a refusal), before the next one read */
    const again: FileBatch[] = [];

    /**
     * Handles the next message; returns how many batches a refusal put back to be prepared again (0 for an ack):
     * a batch not yet in flight goes after them, to keep the order.
     */
    const handleNext = async (): Promise<number> => {
      const m = await nextMessage();
      if (m.kind === 'ack') {
        const done = inFlight.shift()!;
        if (done.n !== m.n) throw new Error(`stored batch ${m.n}, expected ${done.n}`);
        pipeline.applyPrepared(done.prepared, m.results);
        return 0;
      }
      // refused: it and every batch after it are void; it goes the ordinary way, the others are prepared again
      const voided = inFlight.splice(0);
      if (voided[0]?.n !== m.n) throw new Error(`refused batch ${m.n}, expected ${voided[0]?.n}`);
      generation++;
      pipeline.forgetTables();
      preparer.reset();
      const rest = voided.slice(1).map((f) => f.batch);
      again.unshift(...rest);
      await ordinary(voided[0].batch);
      return rest.length;
    };

    /** A batch the ordinary way, through this thread's connection, once nothing else is in flight. */
    const ordinary = async (batch: FileBatch): Promise<void> => {
      while (inFlight.length) {
        const back = await handleNext();
        if (back) {
          again.splice(back, 0, batch);
          return;
        }
      }
      const t0 = performance.now();
      const result = await pipeline.submit(batch.inputs);
      preparer.reset(); // the dictionary was written here: the next ids are read again
      post({
        kind: 'stored',
        generation,
        result,
        events: batch.inputs.length,
        ms: performance.now() - t0,
        path: batch.path,
        records: batch.records,
      });
    };

    const send = async (batch: FileBatch): Promise<void> => {
      if (!batch.inputs.length) {
        post({ kind: 'progress', path: batch.path, records: batch.records });
        return;
      }
      while (inFlight.length >= data.depth) {
        const back = await handleNext();
        if (back) {
          again.splice(back, 0, batch);
          return;
        }
      }
      const prepared = await pipeline.prepare(batch.inputs, preparer);
      if (prepared === null) return ordinary(batch);
      const id = n++;
      inFlight.push({ n: id, prepared, batch });
      post(
        {
          kind: 'batch',
          generation,
          n: id,
          batch: prepared.batch,
          tables: prepared.tables.length,
          rejectsPart: prepared.rejects.length > 0,
          events: batch.inputs.length,
          path: batch.path,
          records: batch.records,
        },
        [prepared.batch],
      );
    };

    const source = fileBatches(data.paths, {
      batchSize: data.batchSize,
      ...(data.firstBatchSize === undefined ? {} : { firstBatchSize: data.firstBatchSize }),
      ...(data.maxKeptBytes === undefined ? {} : { maxKeptBytes: data.maxKeptBytes }),
      ...(data.maxBlockSize === undefined ? {} : { maxBlockSize: data.maxBlockSize }),
      onWarning: (message) => post({ kind: 'warning', message }),
    });
    for await (const batch of source) {
      await send(batch);
      while (again.length) await send(again.shift()!);
    }
    while (inFlight.length || again.length) {
      if (inFlight.length) await handleNext();
      while (again.length) await send(again.shift()!);
    }
    const t = pipeline.totals;
    post({
      kind: 'done',
      byReason: [...t.byReason],
      sequence: t.sequence,
    });
  } finally {
    await store.close();
  }
}

main().catch((err: Error) => {
  post({ kind: 'failed', message: err.message, stack: err.stack ?? '' });
});
