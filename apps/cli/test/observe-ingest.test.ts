/**
 * Kafka ingest's metrics, in-process: a consumer stand-in hands KafkaIngest batches of two partitions (good events,
 * an empty message, bytes that are not an event), and the registry the ingest command serves at /metrics shows
 * events by outcome, rejects by reason, the lag per partition from the high watermark, and the append latency.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import {
  IngestPipeline,
  KafkaIngest,
  partitionLags,
  type EventConsumer,
  type EventMessage,
} from '@table-audit/ingest';
import * as lib from '@table-audit/observability';
import { encodeEvent, FileSchemaRegistry } from '@table-audit/schemas';
import { simulateSession } from '@table-audit/simulator';
import { observeIngest } from '../src/commands/observe.ts';

test('partitionLags: per partition, the high watermark minus the offset after the last message', () => {
  const m = (partition: number, offset: string, highWatermark?: string): EventMessage => ({
    topic: 't',
    partition,
    offset,
    key: null,
    value: null,
    ...(highWatermark === undefined ? {} : { highWatermark }),
  });
  assert.deepEqual(partitionLags([m(0, '5', '20'), m(0, '6', '20'), m(1, '9', '10'), m(2, '3')]), [
    { topic: 't', partition: 0, offset: '6', lag: 13 },
    { topic: 't', partition: 1, offset: '9', lag: 0 },
    { topic: 't', partition: 2, offset: '3', lag: null },
  ]);
});

test('ingest metrics: events by outcome, rejects by reason, consumer lag per partition, append latency', async () => {
  const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
  const session = simulateSession({ seed: 3, tables: 2, roundsPerTable: 2, faultRate: 0, handledRate: 0 });
  const events = session.events.slice(0, 40);
  const encoded = await Promise.all(
    events.map((e) => encodeEvent(registry, e.type as never, e.data as never)),
  );
  const batches: EventMessage[][] = [
    encoded.slice(0, 20).map((value, i) => ({
      topic: 'table-events',
      partition: 0,
      offset: String(i),
      key: null,
      value,
      highWatermark: '120',
    })),
    [
      ...encoded.slice(20).map((value, i) => ({
        topic: 'table-events',
        partition: 1,
        offset: String(i),
        key: null,
        value,
        highWatermark: '20',
      })),
      { topic: 'table-events', partition: 1, offset: '20', key: null, value: null, highWatermark: '23' },
      {
        topic: 'table-events',
        partition: 1,
        offset: '21',
        key: null,
        value: Buffer.from('not an event'),
        highWatermark: '23',
      },
    ],
    // a redelivery of the first batch
    encoded.slice(0, 20).map((value, i) => ({
      topic: 'table-events',
      partition: 0,
      offset: String(i),
      key: null,
      value,
      highWatermark: '120',
    })),
  ];
  const consumer: EventConsumer = {
    async run(handler) {
      for (const b of batches) await handler(b);
    },
    stop: async () => undefined,
  };
  const store = new SqliteEventStore(':memory:');
  try {
    const pipeline = new IngestPipeline(store, () => 0);
    const metricsRegistry = lib.createRegistry('ingest');
    const stats = { batches: 3, crashes: 0 };
    const metrics = observeIngest({ lib, registry: metricsRegistry }, pipeline, stats);
    await new KafkaIngest(consumer, registry, pipeline, undefined, {
      onBatchDone: (r) => metrics.batch(r),
    }).start();
    const text = await metricsRegistry.metrics();
    const value = (line: string): number => {
      const found = text.split('\n').find((l) => l.startsWith(line + ' '));
      assert.ok(found, `${line} in\n${text}`);
      return Number(found.slice(line.length + 1));
    };
    assert.equal(value('table_audit_ingest_messages_total{service="ingest"}'), 62);
    assert.equal(value('table_audit_ingest_events_total{outcome="accepted",service="ingest"}'), 40);
    assert.equal(value('table_audit_ingest_events_total{outcome="already_stored",service="ingest"}'), 20);
    assert.equal(value('table_audit_ingest_events_total{outcome="rejected",service="ingest"}'), 2);
    assert.equal(value('table_audit_ingest_rejects_total{reason="EMPTY_MESSAGE",service="ingest"}'), 1);
    const reasons = text.match(/table_audit_ingest_rejects_total\{reason="([A-Z_]+)"/g) ?? [];
    assert.equal(reasons.length, 2, `two reasons: ${reasons.join(', ')}`);
    assert.equal(
      value('table_audit_ingest_consumer_lag_messages{topic="table-events",partition="0",service="ingest"}'),
      100,
    );
    assert.equal(
      value('table_audit_ingest_consumer_lag_messages{topic="table-events",partition="1",service="ingest"}'),
      1,
    );
    assert.equal(value('table_audit_ingest_append_seconds_count{service="ingest"}'), 3);
    assert.equal(value('table_audit_ingest_kafka_consumer{count="batches",service="ingest"}'), 3);
    // a second scrape adds nothing that did not happen
    const again = await metricsRegistry.metrics();
    assert.match(again, /table_audit_ingest_events_total\{outcome="accepted",service="ingest"\} 40\n/);
  } finally {
    await store.close();
  }
});

test('a metrics hook that throws does not fail a durable batch: it is told, and the batch is done', async () => {
  const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
  const store = new SqliteEventStore(':memory:');
  try {
    const pipeline = new IngestPipeline(store, () => 0);
    const errors: unknown[] = [];
    let handled = 0;
    const consumer: EventConsumer = {
      async run(handler) {
        await handler([{ topic: 't', partition: 0, offset: '0', key: null, value: null }]);
        handled++;
      },
      stop: async () => undefined,
    };
    await new KafkaIngest(consumer, registry, pipeline, undefined, {
      onBatchDone: () => {
        throw new Error('metrics broken');
      },
      onHookError: (e) => errors.push(e),
    }).start();
    assert.equal(handled, 1, 'the handler resolved: its offsets would be committed');
    assert.equal(pipeline.totals.rejected, 1);
    assert.match(String(errors[0]), /metrics broken/);
  } finally {
    await store.close();
  }
});
