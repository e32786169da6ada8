import { decodeEvent, type SchemaRegistry } from '@table-audit/schemas';
import type { TableEvent } from '@table-audit/schemas/events';
import type { EventConsumer, EventMessage } from './consumer.ts';
import { REJECT_CODES, type IngestInput, type IngestPipeline, type IngestResult } from './pipeline.ts';

/**
 * Failures that say nothing about the message: the registry could not be asked. The batch fails and is delivered
 * again later, rather than good events being kept as rejects.
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['REGISTRY_REQUEST']);

/** The largest message decoded (Kafka's own default limit, message.max.bytes, is about this); larger is a reject. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Decodes each message (Confluent wire format) with the writer schema its id names, resolved to the reader schema
 * this pipeline was built for (never the registry's latest: a version registered after this build must not change
 * what a message already stored decodes to); what does not decode carries its reason. Each event carries the id
 * of its writer schema and the fields its writer did not have (read as defaults), kept in the stored metadata.
 */
export async function decodeMessages(
  registry: SchemaRegistry,
  messages: readonly EventMessage[],
): Promise<IngestInput[]> {
  const out: IngestInput[] = [];
  for (const m of messages) {
    const source = { kind: 'kafka' as const, topic: m.topic, partition: m.partition, offset: m.offset };
    if (!m.value || m.value.length === 0) {
      out.push({
        source,
        error: 'empty message (a tombstone or a null value): nothing to decode',
        code: REJECT_CODES.emptyMessage,
        raw: m.value ?? null,
      });
      continue;
    }
    if (m.value.length > MAX_MESSAGE_BYTES) {
      out.push({
        source,
        error: `message of ${m.value.length.toLocaleString('en-US')} bytes: more than the ${MAX_MESSAGE_BYTES.toLocaleString('en-US')} bytes an event may take; not decoded`,
        code: REJECT_CODES.tooLarge,
        raw: m.value,
      });
      continue;
    }
    try {
      const e = await decodeEvent(registry, m.value);
      out.push({
        source,
        event: { type: e.type, data: e.data } as TableEvent,
        raw: m.value,
        provenance: { writerSchemaId: e.writerSchemaId, defaultedFields: e.defaultedFields },
      });
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.code && TRANSIENT_CODES.has(e.code)) throw err;
      out.push({
        source,
        error: `${e.code ?? e.name}: ${e.message}`,
        code: e.code ?? REJECT_CODES.undecodable,
        raw: m.value,
      });
    }
  }
  return out;
}

/** What a batch did, once it is durable: for logs and metrics (observability). */
export interface KafkaBatchReport {
  messages: readonly EventMessage[];
  result: IngestResult;
  /** decoding the batch's messages, in ms */
  decodeMs: number;
  /** the pipeline's validation and append (durable when it returns), in ms */
  appendMs: number;
  /**
   * per partition of the batch: the last offset stored and how many messages the partition held after it when
   * the batch was fetched (its high watermark minus the next offset); absent when the consumer gave no watermark
   */
  partitions: { topic: string; partition: number; offset: string; lag: number | null }[];
}

export interface KafkaIngestHooks {
  /** after each batch is durable (before its offsets are committed); batches stored together are reported as one */
  onBatchDone?: (report: KafkaBatchReport) => void;
  /** told when onBatchDone threw: the batch is durable all the same, and its offsets are committed */
  onHookError?: (error: unknown) => void;
}

/** Per topic and partition of a batch, the last message's offset and what the partition held after it. */
export function partitionLags(messages: readonly EventMessage[]): KafkaBatchReport['partitions'] {
  const last = new Map<string, EventMessage>();
  for (const m of messages) last.set(`${m.topic}\u0000${m.partition}`, m);
  return [...last.values()].map((m) => {
    let lag: number | null = null;
    if (m.highWatermark !== undefined && /^\d+$/.test(m.highWatermark) && /^\d+$/.test(m.offset)) {
      const behind = BigInt(m.highWatermark) - (BigInt(m.offset) + 1n);
      lag = Number(behind < 0n ? 0n : behind);
    }
    return { topic: m.topic, partition: m.partition, offset: m.offset, lag };
  });
}

/** A batch handed over by the consumer, waiting to be stored with those that came at the same time. */
interface Waiting {
  messages: EventMessage[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Kafka → event store: runs until stopped; offsets follow durable appends only.
 *
 * Batches handed over at the same time (several partitions' batches: see the consumer's
 * partitionsConsumedConcurrently) are stored together, in one submit (one transaction, one fsync), and each is
 * told it is durable only then: its partition's offset is committed after that, never before. A batch that comes
 * while a submit runs waits for the next one, which takes every batch waiting by then. A submit that fails fails
 * every batch in it (each is delivered again). Submits never overlap: the pipeline sees one batch at a time.
 */
export class KafkaIngest {
  readonly #waiting: Waiting[] = [];
  #draining = false;

  constructor(
    private readonly consumer: EventConsumer,
    private readonly registry: SchemaRegistry,
    private readonly pipeline: IngestPipeline,
    private readonly onBatch?: (messages: number, result: IngestResult, ms: number) => void,
    private readonly hooks: KafkaIngestHooks = {},
  ) {}

  start(): Promise<void> {
    return this.consumer.run(
      (messages) =>
        new Promise<void>((resolve, reject) => {
          this.#waiting.push({ messages, resolve, reject });
          if (this.#draining) return;
          this.#draining = true;
          // the batches of the same fetch are handed over one after the other: let them join this submit
          setImmediate(() => void this.#drain());
        }),
    );
  }

  /** Stores what is waiting, all of it in one submit, until nothing is. */
  async #drain(): Promise<void> {
    while (this.#waiting.length) {
      const group = this.#waiting.splice(0);
      const messages = group.length === 1 ? group[0]!.messages : group.flatMap((g) => g.messages);
      try {
        await this.#store(messages);
      } catch (err) {
        for (const g of group) g.reject(err);
        continue;
      }
      for (const g of group) g.resolve();
    }
    this.#draining = false;
  }

  async #store(messages: EventMessage[]): Promise<void> {
    const t0 = performance.now();
    const inputs = await decodeMessages(this.registry, messages);
    const t1 = performance.now();
    const result = await this.pipeline.submit(inputs);
    const t2 = performance.now();
    this.onBatch?.(messages.length, result, t2 - t0);
    try {
      this.hooks.onBatchDone?.({
        messages,
        result,
        decodeMs: t1 - t0,
        appendMs: t2 - t1,
        partitions: partitionLags(messages),
      });
    } catch (err) {
      // reporting must never make a durable batch be delivered again
      this.hooks.onHookError?.(err);
    }
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
