import { encodeEvent, writeEventsFile, type SchemaRegistry } from '@table-audit/schemas';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import type { TableEvent } from '@table-audit/schemas/events';

/** Writes a session to an Avro object container file (the embedded default between simulator and ingest). */
export const writeSessionFile = (path: string, events: Iterable<TableEvent>) => writeEventsFile(path, events);

/** The project's producer port: keyed messages to one topic, acknowledged by all in-sync replicas. */
export interface EventProducer {
  send(topic: string, messages: { key: string; value: Buffer }[]): Promise<void>;
  stop(): Promise<void>;
}

/** The kafkajs adapter of the producer port (the plain producer: Kafka is at-least-once, ingest de-duplicates). */
export class KafkajsEventProducer implements EventProducer {
  private readonly producer: Producer;
  private connected = false;

  constructor(brokers: string[], clientId = 'table-audit-simulator') {
    this.producer = new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING }).producer({
      allowAutoTopicCreation: false,
    });
  }

  async send(topic: string, messages: { key: string; value: Buffer }[]): Promise<void> {
    if (!this.connected) {
      await this.producer.connect();
      this.connected = true;
    }
    await this.producer.send({ topic, acks: -1, messages });
  }

  async stop(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}

/** Publishes events in the Confluent wire format, keyed by table so a table's events stay in order. */
export async function publishEvents(
  producer: EventProducer,
  registry: SchemaRegistry,
  topic: string,
  events: Iterable<TableEvent>,
  batchSize = 500,
): Promise<number> {
  let batch: { key: string; value: Buffer }[] = [];
  let sent = 0;
  for (const e of events) {
    batch.push({ key: e.data.header.tableId, value: await encodeEvent(registry, e.type, e.data as never) });
    if (batch.length >= batchSize) {
      await producer.send(topic, batch);
      sent += batch.length;
      batch = [];
    }
  }
  if (batch.length) await producer.send(topic, batch);
  return sent + batch.length;
}
