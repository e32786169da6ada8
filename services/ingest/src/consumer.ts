import { Kafka, logLevel, type Consumer, type ConsumerConfig, type KafkaConfig } from 'kafkajs';

/** One message as ingest sees it: where it came from and its bytes. */
export interface EventMessage {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  /** the partition's high watermark when the batch was fetched (the offset after its last message), for the lag */
  highWatermark?: string;
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
  /** kafkajs consumer settings; unset ones come from the environment (see consumerSettingsFromEnv), then kafkajs */
  consumer?: Omit<ConsumerConfig, 'groupId'>;
  /** told of every crash of the kafkajs consumer, and whether kafkajs or this adapter restarts it */
  onCrash?: (error: Error, restartedBy: 'kafkajs' | 'adapter') => void;
  /** wait before this adapter restarts a consumer that kafkajs gave up on; default 1000 ms */
  restartDelayMs?: number;
  /**
   * How many partitions' batches are handed over at the same time (kafkajs partitionsConsumedConcurrently); default
   * 4. A handler that gets them together (KafkaIngest) stores them in one transaction; each partition's offset is
   * still committed only after its own batch is durable, and a partition's batches still come one after the other.
   */
  partitionsConsumedConcurrently?: number;
}

/**
 * Consumer settings from the environment, for the command line (which has no flags for them): a short session
 * timeout makes a restarted process rejoin quickly after one that was killed without leaving the group.
 *   TABLE_AUDIT_KAFKA_SESSION_TIMEOUT_MS, TABLE_AUDIT_KAFKA_HEARTBEAT_INTERVAL_MS, TABLE_AUDIT_KAFKA_MAX_WAIT_MS,
 *   TABLE_AUDIT_KAFKA_RETRY_INITIAL_MS (also the client's), TABLE_AUDIT_KAFKA_CONNECTION_TIMEOUT_MS (client)
 */
export function consumerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  consumer: Omit<ConsumerConfig, 'groupId'>;
  client: Omit<KafkaConfig, 'brokers' | 'clientId'>;
} {
  const ms = (name: string): number | undefined => {
    const text = env[name];
    if (text === undefined || text === '') return undefined;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new Error(`${name} must be a positive whole number of milliseconds, got "${text}"`);
    return n;
  };
  const sessionTimeout = ms('TABLE_AUDIT_KAFKA_SESSION_TIMEOUT_MS');
  const heartbeatInterval = ms('TABLE_AUDIT_KAFKA_HEARTBEAT_INTERVAL_MS');
  const maxWaitTimeInMs = ms('TABLE_AUDIT_KAFKA_MAX_WAIT_MS');
  const initialRetryTime = ms('TABLE_AUDIT_KAFKA_RETRY_INITIAL_MS');
  const connectionTimeout = ms('TABLE_AUDIT_KAFKA_CONNECTION_TIMEOUT_MS');
  const consumer: Omit<ConsumerConfig, 'groupId'> = {};
  const client: Omit<KafkaConfig, 'brokers' | 'clientId'> = {};
  if (sessionTimeout !== undefined) consumer.sessionTimeout = sessionTimeout;
  if (heartbeatInterval !== undefined) consumer.heartbeatInterval = heartbeatInterval;
  if (maxWaitTimeInMs !== undefined) consumer.maxWaitTimeInMs = maxWaitTimeInMs;
  if (initialRetryTime !== undefined) {
    consumer.retry = { initialRetryTime };
    client.retry = { initialRetryTime };
  }
  if (connectionTimeout !== undefined) client.connectionTimeout = connectionTimeout;
  return { consumer, client };
}

/**
 * kafkajs 2.2.4 (issue #1712): a commit that meets a rebalance throws a KafkaJSNonRetriableError wrapping the
 * broker's error, which the runner does not recognise: the consumer crashes and is not restarted. Rethrowing the
 * cause lets kafkajs rejoin the group and redeliver what was not committed (ILLEGAL_GENERATION,
 * REBALANCE_IN_PROGRESS and NOT_COORDINATOR_FOR_GROUP are rebalances to its runner; UNKNOWN_MEMBER_ID makes it
 * rejoin as a new member).
 */
export const REJOIN_ERRORS: ReadonlySet<string> = new Set([
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
  'UNKNOWN_MEMBER_ID',
]);

/** The error kafkajs should see for a failed commit: the rebalance error inside a wrapper, or the error itself. */
export function commitErrorToRethrow(err: unknown): unknown {
  const cause = (err as { cause?: { type?: unknown } } | null)?.cause;
  if (cause && typeof cause.type === 'string' && REJOIN_ERRORS.has(cause.type)) return cause;
  return err;
}

/**
 * The kafkajs adapter (kafkajs has no maintainer since 2023: nothing outside this file imports it).
 *
 * Besides the #1712 workaround, it restarts the consumer itself when kafkajs gives up on it (a CRASH with
 * `restart: false`, e.g. after a non-retriable error): otherwise ingestion would stop silently while the process
 * lives on. Everything not committed is delivered again to the new consumer, and de-duplicated by event id.
 */
export class KafkajsEventConsumer implements EventConsumer {
  private readonly kafka: Kafka;
  private readonly settings: Omit<ConsumerConfig, 'groupId'>;
  private consumer: Consumer | null = null;
  private handler: ((batch: EventMessage[]) => Promise<void>) | null = null;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  /** What happened to the group membership, for logs, metrics and tests. */
  readonly stats = {
    batches: 0,
    commits: 0,
    groupJoins: 0,
    rebalances: 0,
    rejoinsAfterFailedCommit: 0,
    crashes: 0,
    adapterRestarts: 0,
  };

  constructor(private readonly o: KafkajsConsumerOptions) {
    const fromEnv = consumerSettingsFromEnv();
    this.kafka = new Kafka({
      clientId: o.clientId ?? 'table-audit-ingest',
      brokers: o.brokers,
      logLevel: logLevel.NOTHING,
      ...fromEnv.client,
      ...o.kafka,
    });
    this.settings = { ...fromEnv.consumer, ...o.consumer };
  }

  async run(handler: (batch: EventMessage[]) => Promise<void>): Promise<void> {
    if (this.handler) throw new Error('this consumer is already running');
    this.handler = handler;
    await this.start();
  }

  private async start(): Promise<void> {
    const consumer = this.kafka.consumer({ ...this.settings, groupId: this.o.groupId });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.stats.crashes++;
      const adapterRestarts = !payload.restart && !this.stopping && this.consumer === consumer;
      this.o.onCrash?.(payload.error, payload.restart ? 'kafkajs' : 'adapter');
      if (adapterRestarts) this.scheduleRestart();
    });
    consumer.on(consumer.events.GROUP_JOIN, () => void this.stats.groupJoins++);
    consumer.on(consumer.events.REBALANCING, () => void this.stats.rebalances++);
    await consumer.connect();
    await consumer.subscribe({ topics: this.o.topics, fromBeginning: true });
    if (this.stopping) {
      // stop() came while a restart was connecting
      await consumer.disconnect();
      return;
    }
    await consumer.run({
      partitionsConsumedConcurrently: this.o.partitionsConsumedConcurrently ?? 4,
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
          highWatermark: batch.highWatermark,
        }));
        await this.handler!(messages); // durable when it resolves
        this.stats.batches++;
        const last = batch.messages[batch.messages.length - 1]!.offset;
        resolveOffset(last);
        try {
          await consumer.commitOffsets([
            { topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() },
          ]);
          this.stats.commits++;
        } catch (err) {
          const rethrow = commitErrorToRethrow(err);
          if (rethrow !== err) this.stats.rejoinsAfterFailedCommit++;
          throw rethrow;
        }
        await heartbeat();
      },
    });
  }

  private scheduleRestart(): void {
    if (this.restartTimer || this.stopping) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.stats.adapterRestarts++;
      const old = this.consumer;
      void (async () => {
        await old?.disconnect().catch(() => undefined);
        if (this.stopping) return;
        try {
          await this.start();
        } catch (err) {
          this.o.onCrash?.(err as Error, 'adapter');
          this.scheduleRestart();
        }
      })();
    }, this.o.restartDelayMs ?? 1000);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.consumer?.disconnect();
  }
}
