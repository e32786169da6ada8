// Kafka test helpers shared by the Kafka test files (not a test file itself): a mock cluster per test, the
// project's producer publishing a simulated session, the ingest under test, and the group's committed offsets.
import type { TestContext } from 'node:test';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { EventStore } from '@table-audit/eventstore';
import { FileSchemaRegistry, type TableEvent, type SchemaRegistry } from '@table-audit/schemas';
import { kafkajsTestSettings, startMockKafka, type MockKafka } from '@table-audit/infra/kafka-mock';
import { KafkajsEventProducer, publishEvents } from '@table-audit/simulator';
import { IngestPipeline, KafkaIngest, KafkajsEventConsumer } from '../src/index.ts';
import { tableEventCount, waitFor } from './helpers.ts';

export const TOPIC = 'table-events';
export const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });

export interface Cluster {
  mock: MockKafka;
  kafka: Kafka;
  admin: Admin;
  publish(events: readonly TableEvent[], batchSize?: number): Promise<number>;
}

/** A 3-broker mock cluster with a 3-partition topic, stopped when the test ends. */
export async function cluster(t: TestContext, partitions = 3): Promise<Cluster> {
  const mock = await startMockKafka({ brokers: 3 });
  t.after(() => mock.stop());
  await mock.createTopic(TOPIC, partitions, 3);
  const kafka = new Kafka({
    clientId: 'ingest-test',
    brokers: mock.bootstrapServers,
    logLevel: logLevel.NOTHING,
    ...kafkajsTestSettings.client,
  });
  const admin = kafka.admin();
  await admin.connect();
  t.after(() => admin.disconnect());
  const producer = new KafkajsEventProducer(mock.bootstrapServers, 'ingest-test-producer');
  t.after(() => producer.stop());
  return {
    mock,
    kafka,
    admin,
    publish: (events, batchSize) => publishEvents(producer, registry, TOPIC, events, batchSize),
  };
}

export interface RunningIngest {
  consumer: KafkajsEventConsumer;
  pipeline: IngestPipeline;
  ingest: KafkaIngest;
  crashes: string[];
  stop(): Promise<void>;
}

/** The ingest under test, as the command builds it but with the test settings; stopped when the test ends. */
export async function startIngest(
  t: TestContext,
  c: Cluster,
  store: EventStore,
  groupId: string,
  schemas: SchemaRegistry = registry,
): Promise<RunningIngest> {
  const crashes: string[] = [];
  const consumer = new KafkajsEventConsumer({
    brokers: c.mock.bootstrapServers,
    groupId,
    topics: [TOPIC],
    kafka: kafkajsTestSettings.client,
    consumer: kafkajsTestSettings.consumer,
    restartDelayMs: 200,
    onCrash: (error, by) => crashes.push(`${error.name}: ${error.message} (restarted by ${by})`),
  });
  const pipeline = new IngestPipeline(store);
  const ingest = new KafkaIngest(consumer, schemas, pipeline);
  await ingest.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await ingest.stop();
  };
  t.after(stop);
  return { consumer, pipeline, ingest, crashes, stop };
}

export async function committedOffsets(admin: Admin, groupId: string): Promise<Map<number, number>> {
  const [t] = await admin.fetchOffsets({ groupId, topics: [TOPIC] });
  return new Map((t?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
}

export async function highWatermarks(admin: Admin): Promise<Map<number, number>> {
  return new Map((await admin.fetchTopicOffsets(TOPIC)).map((p) => [p.partition, Number(p.high)]));
}

/** Waits until the group has committed every partition up to its high watermark; returns the offsets. */
export async function waitForCommits(admin: Admin, groupId: string, timeoutMs = 30_000) {
  let last = '';
  await waitFor(
    'the offsets to be committed up to the high watermarks',
    async () => {
      const [committed, high] = await Promise.all([committedOffsets(admin, groupId), highWatermarks(admin)]);
      last = `committed ${JSON.stringify([...committed])}, high ${JSON.stringify([...high])}`;
      return [...high].every(([p, h]) => committed.get(p) === h);
    },
    timeoutMs,
    200,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${last}`);
  });
  return highWatermarks(admin);
}

export const waitForTableEvents = (store: EventStore, n: number, timeoutMs = 30_000) =>
  waitFor(`${n} table events in the store`, async () => (await tableEventCount(store)) >= n, timeoutMs, 200);
