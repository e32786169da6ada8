import { parseArgs } from 'node:util';
import { FileSchemaRegistry } from '@table-audit/schemas';
import {
  KafkajsEventProducer,
  publishEvents,
  simulateSession,
  writeSessionFile,
} from '@table-audit/simulator';
import { existsSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { json, out, UsageError, type Command } from './command.ts';
import { instant, share, wholeNumber } from './numbers.ts';

const usage = `Usage: table-audit simulate --out FILE.avro | --kafka BROKERS --topic TOPIC  [options]

Seeded, reproducible Fortune 3 Card Poker table sessions, with labelled faults.
  --tables N            tables, 1 to 999 (default 20)    --rounds N   rounds per table, 0 to 10000 (default 50)
  --seed S              seed, 0 to 4294967295 (default 1)
  --start ISO           first event time, UTC (default 2025-12-01T04:00:00Z = 12:00 Macau time)
  --fault-rate R        share of rounds with a fault, 0 to 1 (default 0.1; every fault kind of the rules in
                        force at --start in turn: a start before 2025-11-11 Macau plays the 2008 catalogue)
  --handled-rate R      share of rounds with a correctly handled irregularity, 0 to 1 (default 0.05)
  --betting-system N    tables with a doubling bettor (default 1)
  --collusion N         tables with three colluding players (default 0), each playing --collusion-rounds (400)
  --truth FILE.json     write the ground truth (table, round, fault, check ids) there
--out and --truth must not exist yet (nothing is overwritten). Exit 0 ok, 1 failure, 2 usage error.`;

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
    const start = instant('--start', values.start!);
    const options = {
      seed: wholeNumber('--seed', values.seed!, 0, 2 ** 32 - 1),
      tables: wholeNumber('--tables', values.tables!, 1, 999),
      roundsPerTable: wholeNumber('--rounds', values.rounds!, 0, 10_000),
      start,
      faultRate: share('--fault-rate', values['fault-rate']!),
      handledRate: share('--handled-rate', values['handled-rate']!),
      bettingSystemTables: wholeNumber('--betting-system', values['betting-system']!, 0, 999),
      collusionTables: wholeNumber('--collusion', values.collusion!, 0, 999),
      collusionRounds: wholeNumber('--collusion-rounds', values['collusion-rounds']!, 0, 10_000),
    };
    if (options.bettingSystemTables + options.collusionTables > options.tables)
      throw new UsageError(
        `--betting-system ${options.bettingSystemTables} and --collusion ${options.collusionTables} tables are more than --tables ${options.tables}`,
      );
    // never overwrite a file this command did not write: an existing --out or --truth is refused
    for (const [flag, path] of [
      ['--out', values.out],
      ['--truth', values.truth],
    ] as const)
      if (path !== undefined && existsSync(path))
        throw new UsageError(
          `${flag} ${path} already exists; simulate does not overwrite files: remove it or choose another path`,
        );
    const session = simulateSession(options);
    const written: string[] = [];
    try {
      if (values.out) {
        written.push(values.out);
        const r = await writeSessionFile(values.out, session.events);
        if (values.truth) {
          written.push(values.truth);
          await writeFile(values.truth, json(session.truth));
        }
        out(
          `wrote ${r.events} events in ${r.blocks} blocks to ${values.out}; ${session.truth.length} labelled faults`,
        );
      } else {
        if (values.truth) {
          written.push(values.truth);
          await writeFile(values.truth, json(session.truth));
        }
        const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
        const producer = new KafkajsEventProducer(values.kafka!.split(','));
        try {
          const n = await publishEvents(producer, registry, values.topic!, session.events);
          out(`published ${n} events to ${values.topic}; ${session.truth.length} labelled faults`);
        } finally {
          await producer.stop();
        }
      }
    } catch (e) {
      for (const f of written) rmSync(f, { force: true }); // a failed command leaves nothing half-made behind
      throw e;
    }
    return 0;
  },
};
