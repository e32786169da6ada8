import { decodeEvent, type F3cpEvent, type SchemaRegistry } from '@table-audit/schemas';
import type { EventConsumer, EventMessage } from './consumer.ts';
import type { IngestInput, IngestPipeline } from './pipeline.ts';

/** Decodes each message with its writer schema (Confluent wire format) and hands the batch to the pipeline. */
export async function decodeMessages(
  registry: SchemaRegistry,
  messages: EventMessage[],
): Promise<IngestInput[]> {
  const out: IngestInput[] = [];
  for (const m of messages) {
    const source = { kind: 'kafka' as const, topic: m.topic, partition: m.partition, offset: m.offset };
    if (!m.value) {
      out.push({
        source,
        error: 'empty message (a tombstone or a null value): nothing to decode',
        raw: null,
      });
      continue;
    }
    try {
      const e = await decodeEvent(registry, m.value);
      out.push({ source, event: { type: e.type, data: e.data } as F3cpEvent, raw: m.value });
    } catch (err) {
      const e = err as Error & { code?: string };
      out.push({ source, error: `${e.code ?? e.name}: ${e.message}`, raw: m.value });
    }
  }
  return out;
}

/** Kafka → event store: runs until stopped; offsets follow durable appends only. */
export class KafkaIngest {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly registry: SchemaRegistry,
    private readonly pipeline: IngestPipeline,
    private readonly onBatch?: (n: number) => void,
  ) {}

  start(): Promise<void> {
    return this.consumer.run(async (messages) => {
      await this.pipeline.submit(await decodeMessages(this.registry, messages));
      this.onBatch?.(messages.length);
    });
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
