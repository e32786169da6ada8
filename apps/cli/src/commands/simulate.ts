import { parseArgs } from 'node:util';
import { FileSchemaRegistry } from '@table-audit/schemas';
import {
  KafkajsEventProducer,
  publishEvents,
  ROUND_FAULTS,
  simulateSession,
  writeSessionFile,
} from '@table-audit/simulator';
import { writeFile } from 'node:fs/promises';
import { json, out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit simulate --out FILE.avro | --kafka BROKERS --topic TOPIC  [options]

Seeded, reproducible Fortune 3 Card Poker table sessions, with labelled faults.
  --tables N            tables (default 20)          --rounds N        rounds per table (default 50)
  --seed S              seed (default 1)             --start ISO       first event time (default 2025-12-01T04:00:00Z)
  --fault-rate R        share of rounds with a fault (default 0.1; every fault kind in turn)
  --handled-rate R      share of rounds with a correctly handled irregularity (default 0.05)
  --betting-system N    tables with a doubling bettor (default 1)
  --collusion N         tables with three colluding players (default 0), each playing --collusion-rounds (400)
  --truth FILE.json     write the ground truth (table, round, fault, check ids) there`;

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'generate labelled table sessions to an Avro file or a Kafka topic',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        out: { type: 'string' },
        kafka: { type: 'string' },
        topic: { type: 'string', default: 'table-events' },
        tables: { type: 'string', default: '20' },
        rounds: { type: 'string', default: '50' },
        seed: { type: 'string', default: '1' },
        start: { type: 'string', default: '2025-12-01T04:00:00Z' },
        'fault-rate': { type: 'string', default: '0.1' },
        'handled-rate': { type: 'string', default: '0.05' },
        'betting-system': { type: 'string', default: '1' },
        collusion: { type: 'string', default: '0' },
        'collusion-rounds': { type: 'string', default: '400' },
        truth: { type: 'string' },
      },
    });
    if (!values.out === !values.kafka)
      throw new UsageError('give exactly one of --out FILE.avro or --kafka BROKERS');
    const num = (name: keyof typeof values) => {
      const n = Number(values[name]);
      if (!Number.isFinite(n) || n < 0)
        throw new UsageError(`--${name} must be a non-negative number, got ${values[name]}`);
      return n;
    };
    const start = Date.parse(values.start!);
    if (Number.isNaN(start)) throw new UsageError(`--start "${values.start}" is not an ISO-8601 time`);
    const session = simulateSession({
      seed: num('seed'),
      tables: num('tables'),
      roundsPerTable: num('rounds'),
      start,
      faultRate: num('fault-rate'),
      faults: ROUND_FAULTS,
      handledRate: num('handled-rate'),
      bettingSystemTables: num('betting-system'),
      collusionTables: num('collusion'),
      collusionRounds: num('collusion-rounds'),
    });
    if (values.truth) await writeFile(values.truth, json(session.truth));
    if (values.out) {
      const r = await writeSessionFile(values.out, session.events);
      out(
        `wrote ${r.events} events in ${r.blocks} blocks to ${values.out}; ${session.truth.length} labelled faults`,
      );
    } else {
      const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
      const producer = new KafkajsEventProducer(values.kafka!.split(','));
      try {
        const n = await publishEvents(producer, registry, values.topic!, session.events);
        out(`published ${n} events to ${values.topic}; ${session.truth.length} labelled faults`);
      } finally {
        await producer.stop();
      }
    }
    return 0;
  },
};
