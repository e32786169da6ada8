import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Anchor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { FileSchemaRegistry } from '@table-audit/schemas';
import {
  DEFAULT_FILE_BATCH,
  describeIrregularity,
  IngestPipeline,
  ingestFiles,
  ingestFilesParallel,
  KafkaIngest,
  KafkajsEventConsumer,
  type SequenceSummary,
} from '@table-audit/ingest';
import { ANCHOR_OPTIONS_USAGE, configuredAnchorer, describeAnchor } from './anchors.ts';
import { out, UsageError, type Command } from './command.ts';
import { openConfiguredStore } from '../adapters.ts';
import { loadConfig } from '../config.ts';
import { DEFAULT_STORE, progress, progressDone } from './store.ts';
import { observe, observeIngest, OBSERVE_OPTIONS, OBSERVE_USAGE } from './observe.ts';

const usage = `Usage: table-audit ingest FILE.avro… [--store PATH] [--threads 1|2]
       table-audit ingest --kafka BROKERS [--topic TOPIC] [--group GROUP] [--idle-exit MS] [--store PATH]

Decodes, validates and appends table events to the event store (default ${DEFAULT_STORE}, or $TABLE_AUDIT_STORE).
Anything that cannot be decoded or validated is kept in the stream "ingest-rejects" with its bytes, source and
reason. Events already stored (same event id, same content) are counted, not appended twice. Per-source sequence
gaps, repeats and steps backwards are counted ("sequence: …") and the events kept as they came. The same exit
rule for files and Kafka: 0 when everything was accepted or already stored, 1 when anything was rejected (each
reject kept, the rest stored) or ingest could not finish (a store file
it created is then removed if nothing was appended to it), 2 for a usage error. From Kafka, offsets are committed only once the events are durable; --idle-exit stops after that many
milliseconds without a message (otherwise it runs until interrupted).

Files into a SQLite store go over two threads from 8 MiB of input (--threads 2 always, --threads 1 never): one
decodes, checks and encodes each batch while the other writes the one before; the store holds exactly what one
thread stores. Below 8 MiB the second thread's start costs more than it saves (docs/scaling.md).

${ANCHOR_OPTIONS_USAGE}
                       (with --anchors, an anchor is signed at the end of every batch, once it is durable)

From Kafka (long-running): JSON log lines on stderr; with --metrics-port, health and Prometheus metrics:
${OBSERVE_USAGE}`;

export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'append events from Avro files or Kafka to the event store, keeping every reject',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        store: { type: 'string' },
        kafka: { type: 'string' },
        topic: { type: 'string' },
        group: { type: 'string' },
        'idle-exit': { type: 'string' },
        anchors: { type: 'string' },
        'signing-key': { type: 'string' },
        threads: { type: 'string' },
        ...OBSERVE_OPTIONS,
      },
    });
    // without files or --kafka, the configured input (config.ts: input.kind "kafka" and its brokers)
    const input = loadConfig().input;
    if (!positionals.length && !values.kafka && input.kind === 'kafka') {
      values.kafka = input.brokers.join(',');
      values.topic ??= input.topic;
      values.group ??= input.group;
    }
    values.topic ??= 'table-events';
    values.group ??= 'table-audit-ingest';
    if (!positionals.length === !values.kafka) throw new UsageError('give Avro files, or --kafka BROKERS');
    let idle: number | null = null;
    if (values['idle-exit'] !== undefined) {
      idle = Number(values['idle-exit']);
      if (!Number.isSafeInteger(idle) || idle < 1)
        throw new UsageError(`--idle-exit takes whole milliseconds from 1 up, got "${values['idle-exit']}"`);
    }
    if (values.threads !== undefined && values.threads !== '1' && values.threads !== '2')
      throw new UsageError(`--threads takes 1 or 2, got "${values.threads}"`);
    if (values.kafka && values.threads !== undefined) throw new UsageError('--threads is for files');
    if (!values.kafka)
      for (const flag of ['metrics-port', 'metrics-host', 'log-level'] as const)
        if (values[flag] !== undefined) throw new UsageError(`--${flag} is for the long-running --kafka`);
    const observed = values.kafka ? await observe('ingest', values) : null;
    const opened = await openConfiguredStore({ flag: values.store });
    const store = opened.store;
    let failed = true;
    let lastAnchor: Anchor | null = null;
    try {
      const anchorer = configuredAnchorer(store, opened, {
        anchors: values.anchors,
        signingKey: values['signing-key'],
      });
      const pipeline = new IngestPipeline(
        store,
        Date.now,
        anchorer ? { anchor: async () => (lastAnchor = await anchorer.anchor()) } : {},
      );
      const anchored = () => {
        if (anchorer && lastAnchor) out(describeAnchor(lastAnchor, anchorer.sink.description));
      };
      await pipeline.loadKnownTables();
      const t0 = performance.now();
      if (positionals.length) {
        const fileOptions = {
          onProgress: (p: { path: string; records: number }) =>
            progress(`${p.path}: ${p.records.toLocaleString('en-US')} records`),
          onWarning: (message: string) => process.stderr.write(`warning: ${message}\n`),
        };
        const twoThreads =
          store instanceof SqliteEventStore &&
          opened.path !== undefined &&
          fileIngestThreads(values.threads, inputBytes(positionals)) === 2;
        let sequence = pipeline.totals.sequence;
        const r = twoThreads
          ? await ingestFilesParallel(positionals, store, {
              ...fileOptions,
              firstBatchSize: DEFAULT_FILE_BATCH / 10,
              ...(await ingestWorker()),
              ...(anchorer ? { anchor: async () => (lastAnchor = await anchorer.anchor()) } : {}),
            }).then((t) => ((sequence = t.sequence), t))
          : await ingestFiles(positionals, pipeline, fileOptions);
        progressDone();
        const s = (performance.now() - t0) / 1000;
        out(
          `accepted ${r.accepted}, already stored ${r.alreadyStored}, rejected ${r.rejected} in ${s.toFixed(1)} s (${Math.round((r.accepted + r.alreadyStored + r.rejected) / s).toLocaleString('en-US')} events/s, ${twoThreads ? 'two threads' : 'one thread'})`,
        );
        reportSequences(sequence);
        anchored();
        failed = false;
        return r.rejected ? 1 : 0;
      }
      const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
      const log = observed!.logger;
      const consumer = new KafkajsEventConsumer({
        brokers: values.kafka!.split(','),
        groupId: values.group!,
        topics: [values.topic!],
        onCrash: (err, restartedBy) =>
          log.warn({ err, restartedBy }, 'the Kafka consumer crashed; restarted by ' + restartedBy),
      });
      const metrics = observeIngest(observed!, pipeline, consumer.stats);
      let last = Date.now();
      let seen = 0;
      let running = false;
      const ingest = new KafkaIngest(
        consumer,
        registry,
        pipeline,
        (n) => {
          seen += n;
          last = Date.now();
          progress(`${seen.toLocaleString('en-US')} messages`);
        },
        {
          onBatchDone: (r) => {
            metrics.batch(r);
            const fields = {
              messages: r.messages.length,
              ...r.result,
              appendMs: Math.round(r.appendMs),
              partitions: r.partitions,
            };
            if (r.result.rejected) log.warn(fields, 'batch stored, with rejects kept in ingest-rejects');
            else log.debug(fields, 'batch stored');
          },
          onHookError: (err) => log.error({ err }, 'recording a stored batch in the metrics failed'),
        },
      );
      await observed!.start(() =>
        running
          ? { ready: true, details: { messages: seen, groupJoins: consumer.stats.groupJoins } }
          : { ready: false, reason: 'not consuming: joining the consumer group, or stopping' },
      );
      log.info(
        {
          store: opened.description,
          brokers: values.kafka,
          topic: values.topic,
          group: values.group,
          ...(observed!.server ? { metrics: observed!.server.url } : {}),
        },
        'ingest joining the consumer group',
      );
      await ingest.start();
      running = true;
      log.info('ingest consuming');
      last = Date.now(); // the idle clock starts once the group is joined, not before
      let timer: NodeJS.Timeout | undefined;
      let stop: (() => void) | undefined;
      await new Promise<void>((resolve) => {
        stop = resolve;
        timer = setInterval(() => {
          if (idle !== null && Date.now() - last > idle) resolve();
        }, 100);
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      clearInterval(timer);
      process.removeListener('SIGINT', stop!);
      process.removeListener('SIGTERM', stop!);
      running = false;
      await ingest.stop();
      await observed!.close();
      progressDone();
      const t = pipeline.totals;
      log.info(
        {
          accepted: t.accepted,
          alreadyStored: t.alreadyStored,
          rejected: t.rejected,
          byReason: Object.fromEntries(t.byReason),
        },
        'ingest stopped',
      );
      out(`accepted ${t.accepted}, already stored ${t.alreadyStored}, rejected ${t.rejected}`);
      reportSequences(pipeline.totals.sequence);
      anchored();
      failed = false;
      return t.rejected ? 1 : 0;
    } finally {
      await observed?.close();
      await opened.close(failed);
    }
  },
};

/**
 * Per-source sequence numbers that do not run on by one: counted on stdout, the first ones named on stderr. The
 * events are stored as they came (nothing lost or reordered); the replay raises F3CP.EVENT.SEQUENCE for them. Not
 * rejects: they do not change the exit status.
 */
function reportSequences(s: SequenceSummary): void {
  if (!s.gaps && !s.repeats && !s.backwards) return;
  out(
    `sequence: ${s.gaps} gap(s) (${s.missing} number(s) missing), ${s.repeats} repeat(s), ${s.backwards} step(s) backwards`,
  );
  for (const x of s.first) process.stderr.write(`sequence ${x.kind}: ${describeIrregularity(x)}\n`);
}

/**
 * From this many bytes of input files, a file ingest into a SQLite store uses two threads unless told (--threads).
 * Measured on the 2-core machine, quiet, with the compiled command (docs/scaling.md): a 4.2 MB file (114,912 events)
 * took 2.73–2.76 s over two threads against 2.56–2.63 s over one; a 21.7 MB file (565,101 events) 6.76 s against
 * 8.57–8.62 s.
 */
export const TWO_THREADS_FROM = 8 * 1024 * 1024;

/** How many threads a file ingest uses: as asked (--threads), else two from TWO_THREADS_FROM bytes of input. */
export function fileIngestThreads(asked: string | undefined, inputBytes: number): 1 | 2 {
  if (asked === '1' || asked === '2') return asked === '2' ? 2 : 1;
  return inputBytes >= TWO_THREADS_FROM ? 2 : 1;
}

/** The input files' bytes in all (a file that cannot be measured counts 0: reading it reports why). */
function inputBytes(paths: readonly string[]): number {
  let bytes = 0;
  for (const p of paths) {
    try {
      bytes += statSync(p).size;
    } catch {
      // reported by the ingest itself
    }
  }
  return bytes;
}

/**
 * How the ingest's preparing thread is started: compiled (dist/ingest-worker.mjs, made with the command by
 * scripts/build.mjs) while the command itself runs compiled and the build is current; else from its TypeScript
 * source with the TypeScript loader registered in it (about a second more to start on a loaded machine).
 */
async function ingestWorker(): Promise<{ workerUrl: URL } | { loader: string }> {
  const dist = new URL('../../dist/', import.meta.url);
  const compiled = new URL('ingest-worker.mjs', dist);
  if (process.env.TABLE_AUDIT_FROM_SOURCES !== '1' && existsSync(compiled)) {
    // @ts-expect-error: a JavaScript module without declarations
    const { compiledState } = (await import('../../bin/compiled.mjs')) as {
      compiledState: (dist: string, root: string) => { current: boolean };
    };
    if (compiledState(fileURLToPath(dist), fileURLToPath(new URL('../../../../', import.meta.url))).current)
      return { workerUrl: compiled };
  }
  return { loader: new URL('../../bin/register-ts.mjs', import.meta.url).href };
}
