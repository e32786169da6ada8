import { Kafka, logLevel, type Consumer, type KafkaConfig } from 'kafkajs';

/** One message as ingest sees it: where it came from and its bytes. */
export interface EventMessage {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
}

/**
 * The project's consumer port. `run` hands over batches; the offsets of a batch are committed only after the
 * handler's promise resolves (the events are durable). A handler that throws gets the batch again.
 */
export interface EventConsumer {
  run(handler: (batch: EventMessage[]) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface KafkajsConsumerOptions {
  brokers: string[];
  groupId: string;
  topics: string[];
  clientId?: string;
  kafka?: Omit<KafkaConfig, 'brokers' | 'clientId'>;
  consumer?: { sessionTimeout?: number; heartbeatInterval?: number; maxWaitTimeInMs?: number };
}

// kafkajs 2.2.4 (issue #1712): a commit that meets a rebalance throws a non-retriable wrapper; rethrowing the
// cause lets kafkajs rejoin the group and redeliver what was not committed.
const REJOIN = new Set([
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
  'UNKNOWN_MEMBER_ID',
]);

/** The kafkajs adapter (kafkajs has no maintainer since 2023: nothing outside this file imports it). */
export class KafkajsEventConsumer implements EventConsumer {
  private readonly consumer: Consumer;

  constructor(private readonly o: KafkajsConsumerOptions) {
    const kafka = new Kafka({
      clientId: o.clientId ?? 'table-audit-ingest',
      brokers: o.brokers,
      logLevel: logLevel.NOTHING,
      ...o.kafka,
    });
    this.consumer = kafka.consumer({ groupId: o.groupId, ...o.consumer });
  }

  async run(handler: (batch: EventMessage[]) => Promise<void>): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.o.topics, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        const messages: EventMessage[] = batch.messages.map((m) => ({
          topic: batch.topic,
          partition: batch.partition,
          offset: m.offset,
          key: m.key,
          value: m.value,
        }));
        await handler(messages); // durable when it resolves
        const last = batch.messages[batch.messages.length - 1]!.offset;
        resolveOffset(last);
        try {
          await this.consumer.commitOffsets([
            { topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() },
          ]);
        } catch (err) {
          const cause = (err as { cause?: { type?: string } }).cause;
          if (cause?.type && REJOIN.has(cause.type)) throw cause;
          throw err;
        }
        await heartbeat();
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
