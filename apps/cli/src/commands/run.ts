import { existsSync, readdirSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { EventStore } from '@table-audit/eventstore';
import { IngestPipeline, ingestFiles, REJECTS_STREAM, type RejectData } from '@table-audit/ingest';
import {
  defaultWorkers,
  explainRound,
  findingStream,
  prepareReadings,
  FINDING_EVENT_TYPE,
  ReplayService,
  tableStream,
  toTableEvent,
} from '@table-audit/replay';
import { f3cpMathReport, f3cpRules, formatMacauTime, toDecimal, type Finding } from '@table-audit/rules';
import {
  ROUND_FAULTS,
  simulateSession,
  writeSessionFile,
  type GroundTruth,
  type Session,
} from '@table-audit/simulator';
import { anchorsDir, configuredAnchorer, describeAnchor, signedCheckpoint } from './anchors.ts';
import { json, out, UsageError, type Command } from './command.ts';
import { projectForRun } from './findings.ts';
import { wholeNumber } from './numbers.ts';
import { portOf, serveUntilStopped } from './serve.ts';
import { openConfiguredStore } from '../adapters.ts';
import { loadConfig } from '../config.ts';
import { Interrupted, StopRequest, stoppableStore } from '../interrupt.ts';
import { progress, type Progress } from '../progress.ts';
import { DEFAULT_STORE, makeDirectories, storePath } from './store.ts';
import { tokenKey, tokenKeyPath } from './token.ts';

/** Marks a directory as made by `table-audit run`; only such a directory is ever cleared by a later run. */
export const RUN_MARKER = '.table-audit-run';
const ARTEFACTS = ['session.avro', 'truth.json'];

const usage = `Usage: table-audit run [--dir DIR] [--store PATH] [--tables N] [--rounds N] [--seed S] [--math]
                        [--no-serve | --port P --host H --token-key PEM]

The main job end to end on the embedded defaults: the simulator writes seeded table sessions with labelled faults
to an Avro object container file; ingest validates them into the event store; the replay re-derives every round
under the rules in force, appends its findings, and they are compared with the simulator's ground truth (every
labelled fault found under its check id, no finding on a clean round); one disputed hand is explained step by step.

  --dir DIR      where the session (session.avro) and its labels (truth.json) go (default data/run). A new or
                 empty directory is taken and marked with ${RUN_MARKER}; a directory with that marker is reused
                 (only the files a run wrote are replaced); any other directory is refused, never cleared
  --store PATH   the event store (default $TABLE_AUDIT_STORE, else ${DEFAULT_STORE}, as for every command).
                 Running again with the same options appends nothing new: events and findings are stored once
  --tables N     tables (1 to 999, default 40)      --rounds N   rounds per table (1 to 10000, default 50)
  --seed S       seed (0 to 4294967295, default 2025)
  --math         adds the exact math report (about 10 s)
  --anchors DIR  where the signed anchors of the store go (default $TABLE_AUDIT_ANCHORS, else DIR/anchors): one
                 after every ingest batch and one after the replay; table-audit verify --anchors checks the store
  --signing-key PEM  the Ed25519 key that signs them (default $TABLE_AUDIT_SIGNING_KEY, else DIR/signing-key.pem,
                 made by the first run that needs it, which says so)

Exit 0 when the proof holds, 1 when a labelled fault was missed, a finding fell on a clean round (each is named on
stderr) or the run could not finish, 2 for a usage error. After the replay, the store is projected into ClickHouse
(CLICKHOUSE_URL, else chDB in $TABLE_AUDIT_ANALYTICS, else analytics/ beside the store; table-audit findings
reads it). When the proof holds, the run ends by serving the API and the web UI over the store (the same as
table-audit serve), printing the URL and a development token for each role (inspector, compliance officer of the
disputed hand's concessionaire, auditor), until Ctrl-C or SIGTERM, then exits 0:

  --no-serve     end after the job instead (tests and CI)
  --port P       default 8080 (0: any free port)      --host H   default 127.0.0.1
  --token-key PEM  the key the tokens are signed with (default $TABLE_AUDIT_TOKEN_KEY, else data/api-token-key.pem,
                 made once if missing, as for table-audit token)
Logs of the server are JSON lines on stdout at $LOG_LEVEL (default warn here; table-audit serve logs info).`;

interface RunDir {
  /** what this run made: removed again if the run fails */
  made: string[];
  /** the outermost directory this run created, if it created one */
  createdDir: string | undefined;
}

/** Takes DIR for this run, refusing any directory a run did not make. See --dir in the usage. */
function takeRunDir(dir: string): RunDir {
  const marker = join(dir, RUN_MARKER);
  if (!existsSync(dir)) {
    const createdDir = makeDirectories(dir, `--dir ${dir}`);
    writeFileSync(marker, json({ createdBy: 'table-audit run', files: ARTEFACTS }));
    return { made: [marker], createdDir };
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(`--dir ${dir} is a file, not a directory`);
  if (existsSync(marker)) {
    // only what a run wrote here is replaced; anything else in the directory is left alone
    for (const f of ARTEFACTS) rmSync(join(dir, f), { force: true });
    return { made: [], createdDir: undefined };
  }
  const entries = readdirSync(dir);
  if (entries.length)
    throw new UsageError(
      `--dir ${dir}: the directory is not empty and was not made by table-audit run (it has no ${RUN_MARKER} ` +
        `marker), so the run will not write into it or clear it (it holds ${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}). ` +
        `Give a new or empty directory, e.g. --dir ${join(dir, 'run')}; or, if it is an earlier run's directory, ` +
        `move aside what you want to keep and remove it yourself`,
    );
  writeFileSync(marker, json({ createdBy: 'table-audit run', files: ARTEFACTS }));
  return { made: [marker], createdDir: undefined };
}

/** After a failed run: removes the files this run wrote and the directories it created (only while empty). */
function undoRunDir(dir: string, taken: RunDir): void {
  // a key or anchors this run made stay (they vouch for the store), and so does the marker that makes DIR reusable
  const keeps = existsSync(join(dir, 'signing-key.pem')) || existsSync(join(dir, 'anchors'));
  for (const f of [...ARTEFACTS.map((a) => join(dir, a)), ...(keeps ? [] : taken.made)])
    rmSync(f, { force: true });
  if (taken.createdDir === undefined) return;
  const top = resolve(taken.createdDir);
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
}

/** The findings stored for the session's tables, whenever they were appended (this run or an earlier one). */
async function storedFindings(store: EventStore, tableIds: readonly string[]): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const t of tableIds)
    for await (const e of store.readStream(findingStream(t)))
      if (e.type === FINDING_EVENT_TYPE) found.push(e.data as Finding);
  return found;
}

/**
 * Whether the store already holds other events under this session's table ids (another seed, other sizes, or
 * table-audit simulate): the simulator names tables and events by position, not by seed. Ingesting them would mix
 * two sessions in one table's stream, so the run stops before appending anything. The first events of each table
 * decide it: they carry the seeded times and table settings.
 */
async function otherSession(store: EventStore, session: Session): Promise<string | null> {
  for (const t of session.tables) {
    let k = 0;
    for await (const e of store.readStream(tableStream(t.tableId), { maxCount: 20 })) {
      const mine = t.events[k++];
      const stored = toTableEvent(e);
      const at = `table ${t.tableId}, revision ${e.revision}: the store holds ${e.type} ${e.eventId}`;
      if (!mine || !stored) return `${at}, where this session has no such event`;
      if (stored.type !== mine.type || stored.data.header.eventId !== mine.data.header.eventId)
        return `${at}, where this session has ${mine.type} ${mine.data.header.eventId}`;
      if (stored.data.header.eventTime !== mine.data.header.eventTime)
        return `${at} at ${formatMacauTime(stored.data.header.eventTime)}, where this session has it at ${formatMacauTime(mine.data.header.eventTime)}`;
    }
  }
  return null;
}

/** The latest rejects' reasons, to say why a run's events were refused. */
async function lastRejects(store: EventStore, count: number): Promise<string[]> {
  const reasons: string[] = [];
  for await (const e of store.readStream(REJECTS_STREAM, { direction: 'backwards', maxCount: count }))
    reasons.push((e.data as RejectData).reason);
  return reasons.reverse();
}

export const runCommand: Command = {
  name: 'run',
  summary: 'the main job end to end on the embedded defaults',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        dir: { type: 'string' },
        store: { type: 'string' },
        tables: { type: 'string' },
        rounds: { type: 'string' },
        seed: { type: 'string' },
        math: { type: 'boolean' },
        anchors: { type: 'string' },
        'signing-key': { type: 'string' },
        'no-serve': { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'token-key': { type: 'string' },
      },
    });
    // flags win over the configuration (config.ts: the file, then the environment), which wins over the defaults
    const config = loadConfig();
    const tables =
      values.tables === undefined ? config.run.tables : wholeNumber('--tables', values.tables, 1, 999);
    const rounds =
      values.rounds === undefined ? config.run.rounds : wholeNumber('--rounds', values.rounds, 1, 10_000);
    const seed =
      values.seed === undefined ? config.run.seed : wholeNumber('--seed', values.seed, 0, 2 ** 32 - 1);
    const dir = values.dir ?? config.run.dir;
    if (!dir) throw new UsageError('--dir needs a directory, e.g. --dir data/run');
    const sqlite = values.store !== undefined || config.store.kind === 'sqlite';
    /** the SQLite file; for EventStoreDB, the default file's place, beside which chDB's directory goes */
    const storeFile = sqlite ? storePath(values.store) : DEFAULT_STORE;
    const storeName = sqlite
      ? storeFile
      : `the EventStoreDB store at ${new URL((config.store as { url: string }).url).host}`;
    const serve = !values['no-serve'];
    const port = portOf(values.port, config.api.port);
    const host = values.host ?? config.api.host;
    if (
      !serve &&
      (values.port !== undefined || values.host !== undefined || values['token-key'] !== undefined)
    )
      throw new UsageError('--port, --host and --token-key are for serving; --no-serve serves nothing');
    /** the concessionaire of the disputed hand: the compliance officer's token is theirs */
    let officerConcessionaire: string | null = null;
    const file = join(dir, 'session.avro');
    const truthFile = join(dir, 'truth.json');

    const taken = takeRunDir(dir);
    const started = performance.now();
    // Ctrl-C or SIGTERM: the job stops at its next safe point, and running it again resumes (interrupt.ts)
    const stop = new StopRequest().listen();
    let failed = true;
    let code: number;
    try {
      code = await mainJob();
      failed = false;
    } catch (e) {
      if (!(e instanceof Interrupted)) throw e;
      failed = false;
      process.stderr.write(
        `table-audit run: ${e.message}; what was stored stays, each batch whole with its checkpoint. Run the same command again to resume: nothing is appended twice\n`,
      );
      code = 130;
    } finally {
      stop.release();
      if (failed) undoRunDir(dir, taken);
    }
    if (code !== 0 || !serve) return code;
    await serveTheRun();
    return 0;

    /** The end of the main job: the API and the UI over the store, with a token for each role, until stopped. */
    async function serveTheRun(): Promise<void> {
      const keyFile = tokenKeyPath(values['token-key']);
      const key = tokenKey(keyFile);
      const { issueToken } = await import('@table-audit/api');
      const hours = 8;
      const until = formatMacauTime(Date.now() + hours * 3_600_000).slice(0, 16);
      const officer = officerConcessionaire ?? 'SJM Resorts';
      const roles = [
        {
          label: 'inspector (DICJ: every casino; reads and comments)',
          role: 'inspector',
          concessionaire: null,
        },
        {
          label: `compliance officer of ${officer} (only its casinos; works its alerts)`,
          role: 'compliance_officer',
          concessionaire: officer,
        },
        { label: 'auditor (reads only)', role: 'auditor', concessionaire: null },
      ] as const;
      const tokens = await Promise.all(
        roles.map((r) =>
          issueToken(
            key,
            { subject: `dev-${r.role}`, role: r.role, concessionaire: r.concessionaire },
            { expiresInSeconds: hours * 3600 },
          ),
        ),
      );
      const step = values.math ? 7 : 6;
      await serveUntilStopped({
        port,
        host,
        storeFile: sqlite ? storeFile : undefined,
        tokenKeyFile: keyFile,
        anchorsDir: anchorsDir(values.anchors) ?? join(dir, 'anchors'),
        findings: 'clickhouse',
        analyticsDir: process.env.TABLE_AUDIT_ANALYTICS || join(dirname(storeFile), 'analytics'),
        logLevel: process.env.LOG_LEVEL ?? 'warn',
        onListening: (url) => {
          out(
            `\n${step}. serving the API and the web UI (as table-audit serve does) until Ctrl-C or SIGTERM:`,
          );
          out(`   UI   ${url}/ui/  (log in by pasting one of the tokens below)`);
          out(`   API  ${url}/v1/  (OpenAPI: ${url}/openapi.json, browsable at ${url}/docs)`);
          out(
            `   development tokens, signed with ${keyFile}, valid ${hours} hours (until ${until} Macau time, UTC+8); table-audit token makes more:`,
          );
          roles.forEach((r, i) => out(`   ${r.label}:\n     ${tokens[i]}`));
        },
      });
      out('   stopped serving');
    }

    async function mainJob(): Promise<number> {
      let t = performance.now();
      // the simulation runs part by part (each game), so that Ctrl-C and the progress are seen between parts
      const parts = 5;
      const simulating = progress('1. simulating', parts, {
        unit: 'parts (F3CP, F3CP 2019, CRAPS, 13 Cards, Mah-Jong)',
      });
      let part = 0;
      const nextPart = async () => {
        simulating.update(++part);
        await new Promise((r) => setImmediate(r));
        stop.check();
      };
      const session = simulateSession({
        seed,
        tables,
        roundsPerTable: rounds,
        faultRate: 0.1,
        // a payout dispute first: it is the hand the summary explains step by step
        faults: ['payout-wrong', ...ROUND_FAULTS.filter((f) => f !== 'payout-wrong')],
        handledRate: 0.05,
        bettingSystemTables: 1,
        collusionTables: 1,
        collusionRounds: 400,
      });
      await nextPart();
      // an older session, played and judged under the 2008 rules (78/2008, 97/2008): its table ids carry the
      // year, so that they never collide with today's tables in one store
      const olderTables = Math.max(1, Math.round(tables / 10));
      const older = simulateSession({
        seed: seed + 2008,
        tables: olderTables,
        roundsPerTable: rounds,
        start: Date.parse('2019-06-01T04:00:00Z'),
        faultRate: 0.1,
        handledRate: 0.05,
        tableIdPrefix: '2019-',
      });
      session.tables.push(...older.tables);
      session.events.push(...older.events);
      session.truth.push(...older.truth);
      await nextPart();
      // the morning's other games: CRAPS tables (Despacho 53/2010), judged throw by throw, with their own faults
      const crapsTables = Math.max(1, Math.round(tables / 10));
      const craps = simulateSession({
        game: 'CRAPS',
        seed: seed + 53,
        tables: crapsTables,
        roundsPerTable: 150,
        faultRate: 0.1,
        handledRate: 0.05,
      });
      session.events.push(...craps.events);
      session.truth.push(...craps.truth);
      session.tables.push(...craps.tables);
      await nextPart();
      // 13 Cards (Portaria 51/89/M) and the Mah-Jong deal (Portaria 52/89/M; its outcomes are out of scope)
      const thirteenTables = Math.max(1, Math.round(tables / 15));
      const thirteen = simulateSession({
        game: 'THIRTEEN_CARDS',
        seed: seed + 51,
        tables: thirteenTables,
        roundsPerTable: 60,
        faultRate: 0.1,
        handledRate: 0.05,
      });
      await nextPart();
      const mahjongTables = Math.max(1, Math.round(tables / 20));
      // the deal has no irregularity the law tells the table how to handle: no handled cases to play
      const mahjong = simulateSession({
        game: 'MAHJONG',
        seed: seed + 52,
        tables: mahjongTables,
        roundsPerTable: 40,
        faultRate: 0.1,
        handledRate: 0,
      });
      for (const other of [thirteen, mahjong]) {
        session.events.push(...other.events);
        session.truth.push(...other.truth);
        session.tables.push(...other.tables);
      }
      await nextPart();
      simulating.end();
      const written = await writeSessionFile(file, session.events);
      writeFileSync(truthFile, json(session.truth));
      // what was made, counted from the session itself: the sizes announced are the sizes stored
      const made = sessionSizes(session);
      out(
        `1. simulator: ${made.text}; ${written.events.toLocaleString('en-US')} events → ${file}; ${session.truth.length} labelled faults → ${truthFile} (${ms(t)})`,
      );
      stop.check();

      const opened = await openConfiguredStore({ flag: values.store });
      const store = opened.store;
      let storeFailed = true;
      try {
        t = performance.now();
        const conflict = await otherSession(store, session);
        if (conflict)
          throw new Error(
            `${storeName} already holds another simulation under the same table ids (${conflict}); nothing was ` +
              `appended. Give this run its own store with --store PATH, or run with the options that made that one`,
          );
        // the key and the anchors are kept even if the run fails: they vouch for what is in the store
        const anchorer = configuredAnchorer(
          store,
          opened,
          { anchors: values.anchors, signingKey: values['signing-key'] },
          { anchors: join(dir, 'anchors'), generateInto: dir },
        )!;
        /** the store's head as the last anchor signed it: how far the replay and the projection have to read */
        let head = -1n;
        const pipeline = new IngestPipeline(store, Date.now, {
          anchor: async () => {
            const a = await anchorer.anchor();
            head = BigInt(a.position);
            return a;
          },
        });
        await pipeline.loadKnownTables();
        const ingesting = progress('2. ingesting', written.events, { unit: 'events' });
        const ingested = await ingestFiles([file], pipeline, {
          // between two batches, each stored whole: a safe place to stop
          onProgress: (p) => {
            ingesting.update(p.records);
            stop.check();
          },
        });
        ingesting.end();
        const again = ingested.alreadyStored
          ? `, ${ingested.alreadyStored.toLocaleString('en-US')} already stored`
          : '';
        out(
          `2. ingest: ${ingested.accepted.toLocaleString('en-US')} events appended to ${storeName}${again}, ${ingested.rejected} rejected (${ms(t)}, ${Math.round((ingested.accepted + ingested.alreadyStored) / ((performance.now() - t) / 1000)).toLocaleString('en-US')} events/s)`,
        );
        if (ingested.rejected) {
          const reasons = await lastRejects(store, Math.min(ingested.rejected, 3));
          throw new Error(
            `${ingested.rejected} of the session's events were rejected by ingest, so the proof cannot be made; ` +
              `e.g. ${reasons.join(' | ')}. An event id already stored with different content means ${storeName} ` +
              `holds another simulation (other --seed, --tables or --rounds, or table-audit simulate): give this ` +
              `run its own store with --store PATH (the rejects are kept in the store's "${REJECTS_STREAM}" stream)`,
          );
        }

        stop.check();
        t = performance.now();
        const replaying = progress('3. replaying', null, { unit: 'events' });
        // The replay is not stopped part-way: finish() closes every table's last round and judges conduct over the
        // tables' whole history, but only for the tables this process replayed; a replay resumed after a stop would
        // not close the tables it has no new events of. A stop asked for during the replay waits for its end.
        const replay = new ReplayService({
          store: stoppableStore(store, null, readProgress(replaying, head)),
          signedCheckpoint: () => signedCheckpoint(anchorer, 'replay'),
        });
        await replay.catchUp();
        replaying.end();
        await replay.finish();
        const anchor = await anchorer.anchor();
        const s = replay.stats;
        out(
          s.rounds
            ? `3. replay: ${s.rounds.toLocaleString('en-US')} rounds re-derived, ${s.findingsAppended} findings appended, ${s.roundRecordsAppended.toLocaleString('en-US')} round records appended (${ms(t)}, ${Math.round(s.rounds / ((performance.now() - t) / 1000)).toLocaleString('en-US')} rounds/s)`
            : `3. replay: nothing new to re-derive: these events were replayed before and their findings are in the store (${ms(t)})`,
        );
        if (s.checkpointDistrusted)
          out(
            `   the replay checkpoint saved in the store (${s.checkpointDistrusted.saved ?? 'none'}) was not the signed one: replayed from ${s.checkpointDistrusted.resumedFrom ?? 'the beginning'}`,
          );
        if (s.stoppedTables)
          out(
            `   ${s.stoppedTables} table(s) stopped: their stored record failed verification (STORE.CHAIN_BROKEN)`,
          );
        out(`   ${describeAnchor(anchor, anchorer.sink.description)}`);
        stop.check();
        if (sqlite) {
          // so that the served what-if of one reading is answered at once (replay --keep-readings does the same)
          t = performance.now();
          const keeping = progress('   keeping readings', null, { unit: 'tables' });
          const kept = await prepareReadings({
            storePath: storeFile,
            workers: defaultWorkers(),
            onProgress: ({ tablesDone, tablesToDo }) => keeping.update(tablesDone, tablesToDo),
          });
          keeping.end();
          out(
            `   readings kept ready for the what-if: ${kept.tablesDerived} of ${kept.tables} tables derived under each alternative reading of their rounds’ rule sets, the others current (${ms(t)}; table-audit replay --keep-readings)`,
          );
          stop.check();
        }
        const projecting = progress('   projecting', null, { unit: 'events' });
        const projected = await projectForRun(
          stoppableStore(store, stop, readProgress(projecting, BigInt(anchor.position))),
          storeFile,
        );
        projecting.end();
        out('4. analytics:');
        for (const line of projected) out(line);
        stop.check();

        // the proof, on the findings stored for this session's tables (also those appended by an earlier run)
        const roundIds = new Set<string>();
        for (const e of session.events) if (e.data.header.roundId) roundIds.add(e.data.header.roundId);
        const findings = (
          await storedFindings(
            store,
            session.tables.map((x) => x.tableId),
          )
        ).filter((f) => f.roundId === null || roundIds.has(f.roundId));
        // a round fault by round and check id; conduct over many rounds by table and check id
        const matches = (x: GroundTruth, f: Finding) =>
          x.roundId ? f.roundId === x.roundId : f.tableId === x.tableId;
        const missed = session.truth.flatMap((x) =>
          x.checkIds
            .filter((c) => !findings.some((f) => f.checkId === c && matches(x, f)))
            .map((c) => ({ x, c })),
        );
        const unexpected = findings.filter(
          (f) => !session.truth.some((x) => x.checkIds.includes(f.checkId) && matches(x, f)),
        );
        out(
          `5. findings by check (labelled faults missed: ${missed.length}, findings on clean rounds: ${unexpected.length}):`,
        );
        const count = (key: (f: Finding) => string) => {
          const m = new Map<string, number>();
          for (const f of findings) m.set(key(f), (m.get(key(f)) ?? 0) + 1);
          return [...m].sort();
        };
        const severityOf = new Map(findings.map((f) => [f.checkId, f.severity]));
        for (const [c, n] of count((f) => f.checkId))
          out(`     ${c.padEnd(48)} ${severityOf.get(c)!.padEnd(8)} ${String(n).padStart(4)}`);
        out('   by casino:');
        for (const [c, n] of count((f) => `${f.casino} (${f.concessionaire})`))
          out(`     ${c.padEnd(48)} ${String(n).padStart(4)}`);

        const disputed =
          findings.find((f) => f.checkId === 'F3CP.PAYOUT.MISMATCH') ?? findings.find((f) => f.roundId);
        officerConcessionaire = disputed?.concessionaire ?? findings[0]?.concessionaire ?? null;
        if (disputed?.roundId) {
          out(
            `\n   disputed hand ${disputed.roundId} (table-audit replay ${disputed.roundId}${values.store === undefined ? '' : ` --store ${storeFile}`}):\n`,
          );
          out((await explainRound(store, disputed.roundId)).text);
        }

        if (values.math) {
          const rules = f3cpRules('f3cp-2025a');
          const m = f3cpMathReport(rules, () => performance.now());
          const pct = (f: { num: bigint; den: bigint }) =>
            `${toDecimal({ num: f.num * 100n, den: f.den }, 4)}%`;
          out(
            `\n6. exact math (${rules.id}): play ${m.antePlay.weakestPlayed} or better; Ante house edge ${pct(m.antePlay.houseEdge)}, element of risk ${pct(m.antePlay.elementOfRisk)}; Pair Plus ${pct(m.pairPlus.houseEdge)}; Six Card Bonus ${pct(m.sixCardBonus.houseEdge)} (table-audit math f3cp for the full report)`,
          );
        }
        storeFailed = false;

        // the summary: what the job did, said once more at the end
        const bySeverity = (['critical', 'high', 'medium', 'low'] as const)
          .map((v) => `${findings.filter((f) => f.severity === v).length} ${v}`)
          .join(', ');
        const topAt = projected.findIndex((l) => l.includes('top findings'));
        out(`\nsummary (${ms(started)} in all):`);
        out(
          `   ${made.tables} tables, ${made.rounds.toLocaleString('en-US')} rounds (throws, deals); ${written.events.toLocaleString('en-US')} events: ${ingested.accepted.toLocaleString('en-US')} appended by this run, ${ingested.alreadyStored.toLocaleString('en-US')} already stored, ${ingested.rejected} rejected`,
        );
        out(
          `   ${findings.length} findings (${bySeverity}) from ${count((f) => f.checkId).length} checks; the proof ${missed.length || unexpected.length ? `FAILED: ${missed.length} labelled fault(s) missed, ${unexpected.length} finding(s) on clean rounds` : 'holds: every labelled fault found under its check, no finding on a clean round'}`,
        );
        if (topAt >= 0) for (const l of projected.slice(topAt, topAt + 4)) out(l);

        if (missed.length || unexpected.length) {
          const lines = [
            `table-audit run: the proof failed: ${missed.length} labelled fault(s) missed, ${unexpected.length} finding(s) on clean rounds (labels in ${truthFile})`,
            ...missed.map(
              ({ x, c }) =>
                `  missed: table ${x.tableId}${x.roundId ? ` round ${x.roundId}` : ''}, fault ${x.fault}: no ${c} finding`,
            ),
            ...unexpected.map(
              (f) =>
                `  finding on a clean round: table ${f.tableId}${f.roundId ? ` round ${f.roundId}` : ''}, ${f.checkId} (finding ${f.findingId}): ${f.summary}`,
            ),
          ];
          process.stderr.write(`${lines.join('\n')}\n`);
          return 1;
        }
        return 0;
      } finally {
        await opened.close(storeFailed);
      }
    }
  },
};

/** Progress of a processor reading the store up to `head` (positions are dense: the count is their distance). */
function readProgress(p: Progress, head: bigint): (position: bigint) => void {
  let first: bigint | null = null;
  let read = 0;
  return (position) => {
    first ??= position;
    read++;
    p.update(read, head >= first ? Number(head - first) + 1 : null);
  };
}

/** What the session holds, by game, counted from its events: tables and rounds (throws, deals). */
export function sessionSizes(session: Session): { text: string; tables: number; rounds: number } {
  const groups = new Map<string, { tables: number; rounds: Set<string> }>();
  for (const t of session.tables) {
    const opened = t.events.find((e) => e.type === 'TableOpened');
    const game = opened ? String((opened.data as { game?: unknown }).game) : 'UNKNOWN';
    const shown =
      ({ THIRTEEN_CARDS: '13 Cards', MAHJONG: 'Mah-Jong' } as Record<string, string>)[game] ?? game;
    const name = t.tableId.startsWith('2019-') ? `${shown} of 2019 (2008 rules)` : shown;
    const g = groups.get(name) ?? { tables: 0, rounds: new Set<string>() };
    g.tables++;
    for (const e of t.events) if (e.data.header.roundId) g.rounds.add(e.data.header.roundId);
    groups.set(name, g);
  }
  // Mah-Jong's outcomes are out of scope (Portaria 52/89/M: only art. 1.º–2.º, the deal, is held): said where it appears
  const unit: Record<string, string> = {
    CRAPS: 'throws',
    'Mah-Jong': 'deals (the deal only: outcomes out of scope)',
  };
  const text = [...groups]
    .map(
      ([name, g]) =>
        `${name} ${g.tables} table(s), ${g.rounds.size.toLocaleString('en-US')} ${unit[name] ?? 'rounds'}`,
    )
    .join('; ');
  let tables = 0;
  let rounds = 0;
  for (const g of groups.values()) {
    tables += g.tables;
    rounds += g.rounds.size;
  }
  return { text, tables, rounds };
}

const ms = (t0: number): string => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
