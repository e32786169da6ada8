/**
 * Readings kept ready: every table of the store derived ahead of time under each selectable alternative reading
 * alone, against the register's readings, and what differs kept per reading, table and Macau date in a file of its
 * own beside the store. A what-if of one reading over any period, casino or table is then the merge of the kept
 * partials in scope and a read of its earliest changed rounds, instead of a derivation of every round of the period
 * (docs/what-if.md, "Readings kept ready").
 *
 * What is kept is what the what-if would report, by construction: each table is folded from its first event under
 * the register's readings and under every reading that governs its rounds' rule sets, the units paired and compared
 * by the what-if's own tally (what-if-core.ts), the table's links checked as the what-if checks them. A reading that
 * governs none of a table's rule sets (another game's, or the 2008 readings at a table of 2025) changes nothing there
 * (its module never reads it): for those the table keeps one tally of its units compared with themselves. A test
 * compares every reading's answers with the what-if's derivation over the same store.
 *
 * Kept only while current: each table records the revision and hash of the last event it was derived to and the
 * digest of the code that derived it (the compiled worker's bundle). A what-if reads the kept part of every table in
 * scope that is still at that event and was derived by this code, and derives the others now (a what-if's report is
 * the sum of its tables'), saying how many and why. Preparing again derives only the tables that changed.
 *
 * The file is the preparation's own: created with a marker naming its form and the store it belongs to (its first
 * event). A file that is not ours, or another store's, is refused and left as it is.
 */
import { existsSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { linkBrokenBecause, type EventStore } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import {
  ALTERNATIVE_READINGS,
  DEFAULT_REPLAY_OPTIONS,
  gameModuleFor,
  INTERPRETATIONS,
  ruleSetFor,
  type DerivedUnit,
  type Finding,
  type Game,
} from '@table-audit/rules';
import { compiledWorker } from './compiled-worker.ts';
import { withoutModuleHooks } from './parallel.ts';
import { isTableStream, tableOfStream, tableStream } from './streams.ts';
import { declaredGame, TableFolds, toTableEvent } from './tables.ts';
import {
  DEFAULT_MAX_CHANGED,
  emptyWhatIf,
  mergeWhatIf,
  tableInScope,
  UnitPairs,
  WhatIfTally,
  type ChangedRound,
  type UnverifiedTable,
  type WhatIfPartial,
  type WhatIfScope,
} from './what-if-core.ts';

/** The marker table: one row saying what this file is, its format, and the store it belongs to. */
export const READY_MARKER = 'table_audit_readings_ready';
export const READY_FORM = 'table-audit readings kept ready';
/** Bumped when the tables change. */
export const READY_FORMAT = 1;
/** The bucket of a table's units compared with themselves: what any reading its game does not have keeps. */
const SAME = '';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${READY_MARKER} (
  id                INTEGER PRIMARY KEY CHECK (id = 1),
  form              TEXT NOT NULL,
  format            INTEGER NOT NULL,
  created_at        INTEGER NOT NULL,   -- UTC ms
  store_first_id    TEXT NOT NULL,      -- the store's first event (its identity): id and hash
  store_first_hash  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
  table_id        TEXT PRIMARY KEY,
  game            TEXT,               -- as its TableOpened declares it; NULL: none read
  casino          TEXT,
  concessionaire  TEXT,
  mixed           INTEGER NOT NULL,   -- 1: its events' headers name more than one casino or concessionaire
  revision        INTEGER NOT NULL,   -- the last event derived to (-1: none)
  last_hash       TEXT NOT NULL,
  events_read     INTEGER NOT NULL,
  table_events    INTEGER NOT NULL,   -- events applied (before any broken link)
  unverified      TEXT,               -- JSON UnverifiedTable: where its chain broke
  readings        TEXT NOT NULL,      -- JSON list: the readings it was derived under (the others change nothing)
  not_kept        TEXT,               -- JSON {reading: why}: readings whose answer cannot be kept for this table
  code            TEXT NOT NULL,      -- digest of the code that derived it
  prepared_at     INTEGER NOT NULL    -- UTC ms
);
CREATE TABLE IF NOT EXISTS buckets (
  reading      TEXT NOT NULL,         -- the reading's key; '' : the units compared with themselves
  table_id     TEXT NOT NULL,
  macau_date   TEXT NOT NULL,
  partial      TEXT NOT NULL,         -- JSON WhatIfPartial (its changed rounds in the changed table)
  PRIMARY KEY (reading, table_id, macau_date)
);
CREATE TABLE IF NOT EXISTS table_findings (
  reading      TEXT NOT NULL,
  table_id     TEXT NOT NULL,
  partial      TEXT NOT NULL,         -- the table-level findings under both readings, as a partial
  PRIMARY KEY (reading, table_id)
);
CREATE TABLE IF NOT EXISTS changed (
  reading      TEXT NOT NULL,
  table_id     TEXT NOT NULL,
  macau_date   TEXT NOT NULL,
  round_start  INTEGER NOT NULL,
  round_id     TEXT NOT NULL,
  round        BLOB NOT NULL          -- JSON ChangedRound, deflated (raw DEFLATE: about a quarter of its size)
);
CREATE INDEX IF NOT EXISTS changed_by_date ON changed (reading, macau_date, round_start, round_id, table_id);
CREATE INDEX IF NOT EXISTS changed_by_table ON changed (table_id);
`;

/** The file beside a store, named after it as the API's index is: `events.sqlite` → `events.sqlite.readings.sqlite`. */
export const readingsFileOf = (storePath: string): string => `${storePath}.readings.sqlite`;

/** The readings file exists and is not one this store's preparation may use: it is left as it is. */
export class ReadingsFileRefused extends Error {
  override readonly name = 'ReadingsFileRefused';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} ${reason}; it is left as it is: move it away to prepare the readings again`);
  }
}

/** The store's identity: its first event. Null for an empty store. */
async function firstEvent(store: EventStore): Promise<{ id: string; hash: string } | null> {
  for await (const e of store.readAll({ maxCount: 1 })) return { id: e.eventId, hash: e.hash };
  return null;
}

/** Why an existing file is not this store's readings file (null: it is). Opens it read-only to look. */
function refusal(path: string, first: { id: string; hash: string }): string | null {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    return `cannot be opened as SQLite (${(e as Error).message})`;
  }
  try {
    const marker = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(READY_MARKER);
    if (!marker) return 'is not a readings file of table-audit (no marker table)';
    const row = db.prepare(`SELECT * FROM ${READY_MARKER} WHERE id = 1`).get() as
      { form: string; format: number; store_first_id: string; store_first_hash: string } | undefined;
    if (!row || row.form !== READY_FORM)
      return 'is not a readings file of table-audit (its marker names another form)';
    if (row.format !== READY_FORMAT)
      return `is of format ${row.format}, this code reads format ${READY_FORMAT}`;
    if (row.store_first_id !== first.id || row.store_first_hash !== first.hash)
      return `belongs to another store (its first event is ${row.store_first_id}, this store's is ${first.id})`;
    return null;
  } catch (e) {
    return `cannot be read (${(e as Error).message})`;
  } finally {
    db.close();
  }
}

/** Opens (creating if absent) the store's readings file for writing; refuses one that is not ours. */
export function openReadingsFile(path: string, first: { id: string; hash: string }): Database.Database {
  if (existsSync(path)) {
    const why = refusal(path, first);
    if (why !== null) throw new ReadingsFileRefused(path, why);
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 60000');
  db.exec(SCHEMA);
  db.prepare(
    `INSERT OR IGNORE INTO ${READY_MARKER} (id, form, format, created_at, store_first_id, store_first_hash) VALUES (1, ?, ?, ?, ?, ?)`,
  ).run(READY_FORM, READY_FORMAT, Date.now(), first.id, first.hash);
  return db;
}

/** The registry's game (the readings' game) of a table's game as TableOpened names it, from its game module. */
const readingGame = (game: string | null): Game | undefined =>
  game === null ? undefined : (gameModuleFor(game)?.game as Game | undefined);

/** The selectable alternative readings that apply to a round of this game and rule set (all the game's when null). */
export function readingsFor(game: string | null, ruleSetId: string | null): string[] {
  const g = readingGame(game);
  if (g === undefined) return [];
  const applies = (id: string) =>
    ruleSetId === null || INTERPRETATIONS.some((i) => i.id === id && i.ruleSets.includes(ruleSetId));
  return ALTERNATIVE_READINGS.filter((a) => a.game === g && applies(a.id)).map((a) => a.key);
}

/** Every selectable reading of a table's game (TableOpened.game), in register order. */
export const readingsOfGame = (game: string | null): string[] => readingsFor(game, null);

/** The rule set in force for a table's game at an instant (null: none implemented, or not a game with rules). */
function ruleSetAt(game: string | null, utcMs: number): string | null {
  const g = readingGame(game);
  if (g === undefined) return null;
  const l = ruleSetFor(g, utcMs);
  return l.status === 'implemented' ? l.entry.id : null;
}

/** One table derived under every reading of its game: the rows its readings file keeps. */
export interface TableReadings {
  readonly tableId: string;
  readonly game: string | null;
  readonly casino: string | null;
  readonly concessionaire: string | null;
  readonly mixed: boolean;
  readonly revision: number;
  readonly lastHash: string;
  readonly eventsRead: number;
  readonly tableEvents: number;
  readonly unverified: UnverifiedTable | null;
  /** the readings it was derived under: those of its game that govern its rounds' rule sets */
  readonly derivedUnder: readonly string[];
  /** readings whose answer cannot be kept for this table, and why */
  readonly notKept: Readonly<Record<string, string>>;
  /** reading → Macau date → partial (SAME: the units compared with themselves) */
  readonly buckets: ReadonlyMap<string, ReadonlyMap<string, WhatIfPartial>>;
  /** reading → the table-level findings compared, when the table has any */
  readonly tableFindings: ReadonlyMap<string, WhatIfPartial>;
  readonly changed: readonly { reading: string; round: ChangedRound }[];
}

/** The unit's Macau date under both readings: null when neither has one, 'differ' when they are not the same. */
function dateOf(c: DerivedUnit, a: DerivedUnit): string | null | 'differ' {
  const x = c.record?.macauDate ?? null;
  const y = a.record?.macauDate ?? null;
  if (x !== null && y !== null && x !== y) return 'differ';
  return x ?? y;
}

/**
 * Reads one table from its first event and derives it under the register's readings and each reading of its game
 * that governs its rounds. Those are guessed from the rule set in force at its first event (a table of 2025 is not
 * derived under the 2008 readings: a reading governs only its rule sets' rounds, as `replay ROUND --what-if all`
 * lists them); when a round of the table turns out to be under a rule set with other readings, the table is read
 * again and derived under every reading of its game.
 */
export async function deriveTableReadings(store: EventStore, tableId: string): Promise<TableReadings> {
  const first = await deriveTableUnder(store, tableId, 'first rule set');
  return first.complete ? first.readings : (await deriveTableUnder(store, tableId, 'every reading')).readings;
}

async function deriveTableUnder(
  store: EventStore,
  tableId: string,
  which: 'first rule set' | 'every reading',
): Promise<{ readings: TableReadings; complete: boolean }> {
  const base = DEFAULT_REPLAY_OPTIONS;
  const ruleSets = new Set<string>();
  const chosen = new TableFolds({ ...base, alternatives: [] });
  const buckets = new Map<string, Map<string, WhatIfTally>>();
  const tallyOf = (reading: string, date: string): WhatIfTally => {
    let byDate = buckets.get(reading);
    if (!byDate) buckets.set(reading, (byDate = new Map()));
    let t = byDate.get(date);
    if (!t) byDate.set(date, (t = new WhatIfTally(0)));
    return t;
  };
  const changed: { reading: string; round: ChangedRound }[] = [];
  const notKept: Record<string, string> = {};
  const compareUnder = (reading: string) => (c: DerivedUnit, a: DerivedUnit) => {
    const date = dateOf(c, a);
    if (date === null) return;
    if (date === 'differ') {
      notKept[reading] ??=
        `round ${c.roundId} falls on ${c.record!.macauDate} under one reading, ${a.record!.macauDate} under the other`;
      return;
    }
    const round = tallyOf(reading, date).compare(c, a);
    if (round) changed.push({ reading, round });
  };
  const same = compareUnder(SAME);
  let alternatives: { key: string; folds: TableFolds; pairs: UnitPairs }[] | null = null;
  let game: string | null = null;
  let casino: string | null = null;
  let concessionaire: string | null = null;
  let mixed = false;
  let eventsRead = 0;
  let tableEvents = 0;
  let head: { revision: number; hash: string } | undefined;
  let unverified: UnverifiedTable | null = null;
  let last = { revision: -1, hash: '' };
  const stream = tableStream(tableId);
  for await (const stored of store.readStream(stream)) {
    eventsRead++;
    last = { revision: stored.revision, hash: stored.hash };
    if (unverified) continue;
    const reason = linkBrokenBecause(stored, head, true);
    if (reason !== null) {
      // as the what-if stops a table: nothing from here on is derived, its open units are not closed
      unverified = { tableId, stream, revision: stored.revision, eventId: stored.eventId, reason };
      chosen.drop(tableId);
      for (const a of alternatives ?? []) a.folds.drop(tableId);
      continue;
    }
    head = { revision: stored.revision, hash: stored.hash };
    const e = toTableEvent(stored);
    if (!e) continue;
    tableEvents++;
    const h = e.data.header;
    if (casino === null) {
      casino = h.casino;
      concessionaire = h.concessionaire;
    } else if (h.casino !== casino || h.concessionaire !== concessionaire) mixed = true;
    if (alternatives === null) {
      game = declaredGame(e);
      const selected =
        which === 'every reading' ? readingsOfGame(game) : readingsFor(game, ruleSetAt(game, h.eventTime));
      alternatives = selected.map((key) => {
        const folds = new TableFolds({ ...base, alternatives: [key] });
        return { key, folds, pairs: new UnitPairs(compareUnder(key)) };
      });
    }
    const c = chosen.apply(e) ?? [];
    for (const u of c) {
      same(u, u);
      if (u.ruleSet !== null) ruleSets.add(u.ruleSet);
    }
    for (const a of alternatives) a.pairs.both(c, a.folds.apply(e) ?? []);
  }
  const tableFindings = new Map<string, WhatIfPartial>();
  const ce = chosen.get(tableId)?.finish();
  if (ce) {
    for (const u of ce.units) {
      same(u, u);
      if (u.ruleSet !== null) ruleSets.add(u.ruleSet);
    }
    const keep = (reading: string, c: readonly Finding[], a: readonly Finding[]) => {
      if (!c.length && !a.length) return;
      const t = new WhatIfTally(0);
      t.tableFindings(c, a, tableId);
      tableFindings.set(reading, t.partial());
    };
    keep(SAME, ce.findings, ce.findings);
    for (const a of alternatives ?? []) {
      const ae = a.folds.get(tableId)?.finish() ?? { units: [], findings: [] };
      a.pairs.both(ce.units, ae.units);
      keep(a.key, ce.findings, ae.findings);
    }
  }
  const partials = new Map<string, Map<string, WhatIfPartial>>();
  for (const [reading, byDate] of buckets)
    partials.set(reading, new Map([...byDate].map(([d, t]) => [d, t.partial()])));
  const derivedUnder = new Set((alternatives ?? []).map((a) => a.key));
  const complete = [...ruleSets].every((r) => readingsFor(game, r).every((k) => derivedUnder.has(k)));
  const readings: TableReadings = {
    tableId,
    derivedUnder: [...derivedUnder],
    game,
    casino,
    concessionaire,
    mixed,
    revision: last.revision,
    lastHash: last.hash,
    eventsRead,
    tableEvents,
    unverified,
    notKept,
    buckets: partials,
    tableFindings,
    changed,
  };
  return { readings, complete };
}

/** The partial as kept: without the changed rounds (kept one a row) and the counters the answer sets. */
const keptPartial = (p: WhatIfPartial): string =>
  JSON.stringify({
    roundsCompared: p.roundsCompared,
    roundsChanged: p.roundsChanged,
    notDerivedChosen: p.notDerivedChosen,
    notDerivedAlternative: p.notDerivedAlternative,
    findingsChosen: p.findingsChosen,
    findingsAlternative: p.findingsAlternative,
    findings: p.findings,
    money: p.money,
  });

/** Writes one table's rows, replacing what an earlier preparation kept of it, in one transaction. */
export function writeTableReadings(db: Database.Database, t: TableReadings, code: string): void {
  const del = ['tables', 'buckets', 'table_findings', 'changed'].map((name) =>
    db.prepare(`DELETE FROM ${name} WHERE table_id = ?`),
  );
  const table = db.prepare(
    `INSERT INTO tables (table_id, game, casino, concessionaire, mixed, revision, last_hash, events_read, table_events, unverified, readings, not_kept, code, prepared_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const bucket = db.prepare(
    `INSERT INTO buckets (reading, table_id, macau_date, partial) VALUES (?, ?, ?, ?)`,
  );
  const tableFindings = db.prepare(
    `INSERT INTO table_findings (reading, table_id, partial) VALUES (?, ?, ?)`,
  );
  const changed = db.prepare(
    `INSERT INTO changed (reading, table_id, macau_date, round_start, round_id, round) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const d of del) d.run(t.tableId);
    table.run(
      t.tableId,
      t.game,
      t.casino,
      t.concessionaire,
      t.mixed ? 1 : 0,
      t.revision,
      t.lastHash,
      t.eventsRead,
      t.tableEvents,
      t.unverified ? JSON.stringify(t.unverified) : null,
      JSON.stringify(t.derivedUnder),
      Object.keys(t.notKept).length ? JSON.stringify(t.notKept) : null,
      code,
      Date.now(),
    );
    for (const [reading, byDate] of t.buckets)
      for (const [date, p] of byDate) bucket.run(reading, t.tableId, date, keptPartial(p));
    for (const [reading, p] of t.tableFindings) tableFindings.run(reading, t.tableId, keptPartial(p));
    for (const { reading, round } of t.changed)
      changed.run(
        reading,
        t.tableId,
        round.macauDate,
        round.roundStartTime,
        round.roundId,
        deflateRawSync(JSON.stringify(round)),
      );
  })();
}

const READY_WORKER = new URL('./readings-ready-worker.ts', import.meta.url);

/** The code that derives kept readings: its compiled worker and that bundle's digest (null, with why, when it cannot be made). */
export async function readingsCode(): Promise<{ url: URL; digest: string } | { url: null; why: string }> {
  const c = await compiledWorker(READY_WORKER, 'readings-ready-worker');
  return c.url === null ? c : { url: c.url, digest: c.sha256 };
}

export interface PrepareReadingsOptions {
  readonly storePath: string;
  /** worker threads (the tables are dealt out among them) */
  readonly workers: number;
  /** called as tables are done */
  readonly onProgress?: (p: { tablesDone: number; tablesToDo: number; eventsRead: number }) => void;
}

export interface PrepareReadingsResult {
  readonly file: string;
  readonly tables: number;
  /** tables derived this time (the others were current) */
  readonly tablesDerived: number;
  readonly eventsRead: number;
  /** tables derived times the readings each was derived under (an F3CP table of 2025: 21) */
  readonly tableReadings: number;
  readonly elapsedMs: number;
}

/** @internal what the preparation hands a worker */
export interface ReadyWorkerData {
  readonly storePath: string;
  readonly file: string;
  readonly first: { id: string; hash: string };
  readonly code: string;
  readonly tables: readonly string[];
}

/** @internal what a worker posts: each table as it is written, then that it is done */
export type ReadyWorkerMessage =
  | {
      readonly kind: 'table';
      readonly tableId: string;
      readonly eventsRead: number;
      readonly readings: number;
    }
  | { readonly kind: 'done' };

/** The store's tables whose kept readings are missing or not current (another last event, or other code). */
function tablesToDerive(
  db: Database.Database,
  heads: ReadonlyMap<string, { revision: number; hash: string }>,
  code: string,
): string[] {
  const kept = new Map(
    (
      db.prepare('SELECT table_id, revision, last_hash, code FROM tables').all() as {
        table_id: string;
        revision: number;
        last_hash: string;
        code: string;
      }[]
    ).map((r) => [r.table_id, r]),
  );
  const out: string[] = [];
  for (const [tableId, h] of heads) {
    const k = kept.get(tableId);
    if (!k || k.revision !== h.revision || k.last_hash !== h.hash || k.code !== code) out.push(tableId);
  }
  return out;
}

/** Every table stream's last event now: revision and hash (from the store, one read of one event a table). */
async function tableHeads(store: SqliteEventStore): Promise<Map<string, { revision: number; hash: string }>> {
  const heads = new Map<string, { revision: number; hash: string }>();
  for (const stream of await store.streamNames(tableStream(''))) {
    if (!isTableStream(stream)) continue;
    for await (const e of store.readStream(stream, { direction: 'backwards', maxCount: 1 }))
      heads.set(tableOfStream(stream), { revision: e.revision, hash: e.hash });
  }
  return heads;
}

/** The store as it is now: its first event (its identity) and every table's last event. */
async function storeNow(storePath: string): Promise<{
  first: { id: string; hash: string } | null;
  heads: Map<string, { revision: number; hash: string }>;
}> {
  const store = new SqliteEventStore(storePath, { readOnly: true });
  try {
    return { first: await firstEvent(store), heads: await tableHeads(store) };
  } finally {
    await store.close();
  }
}

/**
 * Derives every table whose kept readings are missing or not current, in `workers` threads, and keeps what each
 * reading changes. Reads the store only; writes only the readings file (its own).
 */
export async function prepareReadings(o: PrepareReadingsOptions): Promise<PrepareReadingsResult> {
  if (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > 64)
    throw new RangeError(`workers is a whole number from 1 to 64, got ${o.workers}`);
  const t0 = performance.now();
  const code = await readingsCode();
  if (code.url === null)
    throw new Error(`the readings cannot be prepared: their worker could not be compiled (${code.why})`);
  const file = readingsFileOf(o.storePath);
  const { first, heads } = await storeNow(o.storePath);
  if (first === null)
    return {
      file,
      tables: 0,
      tablesDerived: 0,
      eventsRead: 0,
      tableReadings: 0,
      elapsedMs: performance.now() - t0,
    };
  const db = openReadingsFile(file, first);
  let todo: string[];
  try {
    todo = tablesToDerive(db, heads, code.digest);
  } finally {
    db.close();
  }
  // the longest tables first, each to the worker with the fewest events so far
  todo.sort((a, b) => heads.get(b)!.revision - heads.get(a)!.revision || a.localeCompare(b));
  const workers = Math.max(1, Math.min(o.workers, todo.length));
  const dealt = Array.from({ length: workers }, () => ({ tables: [] as string[], events: 0 }));
  for (const t of todo) {
    const w = dealt.reduce((m, x) => (x.events < m.events ? x : m));
    w.tables.push(t);
    w.events += heads.get(t)!.revision + 1;
  }
  let tablesDone = 0;
  let eventsRead = 0;
  let tableReadings = 0;
  o.onProgress?.({ tablesDone, tablesToDo: todo.length, eventsRead });
  const runs = dealt
    .filter((d) => d.tables.length)
    .map(
      (d) =>
        new Promise<void>((resolve, reject) => {
          const data: ReadyWorkerData = {
            storePath: o.storePath,
            file,
            first: first!,
            code: code.digest,
            tables: d.tables,
          };
          const worker = new Worker(code.url, {
            workerData: data,
            execArgv: withoutModuleHooks(process.execArgv),
          });
          let done = false;
          worker.on('message', (m: ReadyWorkerMessage) => {
            if (m.kind === 'done') done = true;
            else {
              tablesDone++;
              eventsRead += m.eventsRead;
              tableReadings += m.readings;
              o.onProgress?.({ tablesDone, tablesToDo: todo.length, eventsRead });
            }
          });
          let failed: unknown = null;
          worker.once('error', (e) => (failed = e));
          worker.once('exit', (exit) => {
            if (failed !== null) reject(failed);
            else if (done) resolve();
            else reject(new Error(`a readings worker exited (code ${exit}) before it was done`));
          });
        }),
    );
  const settled = await Promise.allSettled(runs);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return {
    file,
    tables: heads.size,
    tablesDerived: todo.length,
    eventsRead,
    tableReadings,
    elapsedMs: performance.now() - t0,
  };
}

/** Where a what-if's answer came from. */
export type WhatIfSource =
  | { readonly kind: 'derived'; readonly why: string | null }
  | {
      readonly kind: 'kept';
      readonly file: string;
      /** when the oldest and newest table in scope were derived (UTC ms) */
      readonly preparedFrom: number | null;
      readonly preparedTo: number | null;
      /**
       * tables the kept readings could not answer for (new events since, say), derived now and added; why for the
       * first of them
       */
      readonly derivedNow: { readonly tables: number; readonly why: string | null };
    };

interface TableRow {
  table_id: string;
  game: string | null;
  casino: string | null;
  concessionaire: string | null;
  mixed: number;
  revision: number;
  last_hash: string;
  events_read: number;
  table_events: number;
  unverified: string | null;
  readings: string;
  not_kept: string | null;
  code: string;
  prepared_at: number;
}

/** A what-if asked of the readings kept ready. */
export interface KeptAnswerRequest {
  readonly storePath: string;
  readonly alternatives: readonly string[];
  readonly scope: WhatIfScope;
  readonly maxChanged?: number;
}

/** The kept readings' answer, with the tables to derive now; or why they cannot answer at all. */
export type KeptAnswer =
  | {
      partial: WhatIfPartial;
      source: WhatIfSource & { kind: 'kept' };
      /** tables to derive now, each with why its kept readings cannot answer */
      derive: { tableId: string; why: string }[];
    }
  | { why: string };

const ANSWER_WORKER = new URL('./readings-answer-worker.ts', import.meta.url);

/**
 * answerFromKept in a worker thread, so that the calling thread (the API's) stays free; in this thread when the
 * worker cannot be compiled.
 */
export async function answerFromKeptInWorker(o: KeptAnswerRequest): Promise<KeptAnswer> {
  const compiled = await compiledWorker(ANSWER_WORKER, 'readings-answer-worker');
  if (compiled.url === null) return answerFromKept(o);
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiled.url, {
      workerData: o,
      execArgv: withoutModuleHooks(process.execArgv),
    });
    let answer: KeptAnswer | null = null;
    worker.once('message', (m: KeptAnswer) => (answer = m));
    let failed: unknown = null;
    worker.once('error', (e) => (failed = e));
    worker.once('exit', (code) => {
      if (failed !== null) reject(failed);
      else if (answer) resolve(answer);
      else reject(new Error(`the kept readings' worker exited (code ${code}) before answering`));
    });
  });
}

/**
 * The what-if of one reading over `scope` from the kept readings, but for the tables they cannot answer for (new
 * events since they were kept, no kept readings, kept by other code, …): those are named, with why, for the caller
 * to derive now and add (a what-if's report is the sum of its tables'). Or why the kept readings cannot answer at
 * all (the caller then derives everything). Reads the store (every table's last event, to know which tables are
 * current) and the file only.
 */
export async function answerFromKept(o: KeptAnswerRequest): Promise<KeptAnswer> {
  if (o.alternatives.length !== 1)
    return { why: 'readings are kept one at a time: a combination of readings is derived' };
  const reading = o.alternatives[0]!;
  const file = readingsFileOf(o.storePath);
  if (!existsSync(file))
    return { why: `no readings are kept for this store (${file}: table-audit replay --keep-readings)` };
  const code = await readingsCode();
  if (code.url === null) return { why: `the code that keeps readings cannot be compiled (${code.why})` };
  const { first, heads } = await storeNow(o.storePath);
  if (first === null) return { why: 'the store is empty' };
  const refused = refusal(file, first);
  if (refused !== null) return { why: `${file} ${refused}` };
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = new Map(
      (db.prepare('SELECT * FROM tables').all() as TableRow[]).map((r) => [r.table_id, r]),
    );
    const s = o.scope;
    const tables: TableRow[] = [];
    const derive: { tableId: string; why: string }[] = [];
    const whyNot = (tableId: string, h: { revision: number; hash: string }): string | null => {
      const r = rows.get(tableId);
      if (!r) return `table ${tableId} has no kept readings`;
      if (r.revision !== h.revision || r.last_hash !== h.hash)
        return `table ${tableId} has events after those its readings were kept for (revision ${h.revision}, kept to ${r.revision})`;
      if (r.code !== code.digest) return `table ${tableId}'s readings were kept by other code than this`;
      if ((s.casino !== undefined || s.concessionaire !== undefined) && r.mixed)
        return `table ${tableId}'s events name more than one casino or concessionaire`;
      const notKept = r.not_kept ? (JSON.parse(r.not_kept) as Record<string, string>)[reading] : undefined;
      return notKept ? `table ${tableId}: ${notKept}` : null;
    };
    for (const [tableId, h] of heads) {
      if (s.tableId !== undefined && tableId !== s.tableId) continue;
      const why = whyNot(tableId, h);
      if (why === null) tables.push(rows.get(tableId)!);
      else derive.push({ tableId, why });
    }
    if (derive.length && !tables.length) return { why: derive[0]!.why };
    const inScope = tables.filter(
      (r) =>
        r.casino !== null &&
        tableInScope(s, { tableId: r.table_id, casino: r.casino, concessionaire: r.concessionaire ?? '' }),
    );
    // a table not derived under the reading (another game's, or another rule set's): its units compared with themselves
    const readingOf = (r: TableRow) =>
      (JSON.parse(r.readings) as string[]).includes(reading) ? reading : SAME;
    const bucket = db.prepare(
      'SELECT macau_date, partial FROM buckets WHERE reading = ? AND table_id = ? AND macau_date BETWEEN ? AND ?',
    );
    const tableFindings = db.prepare('SELECT partial FROM table_findings WHERE reading = ? AND table_id = ?');
    const parts: WhatIfPartial[] = [];
    const withChanges: string[] = [];
    const changedDates = new Set<string>();
    for (const r of inScope) {
      const under = readingOf(r);
      const kept = (
        bucket.all(under, r.table_id, s.from, s.to) as { macau_date: string; partial: string }[]
      ).map((x) => {
        const p = { ...emptyWhatIf(), ...(JSON.parse(x.partial) as Partial<WhatIfPartial>) } as WhatIfPartial;
        if (p.roundsChanged > 0) changedDates.add(x.macau_date);
        return p;
      });
      parts.push(...kept);
      // the table-level findings count for a table with a unit in the period, as the what-if compares them
      if (kept.some((p) => p.roundsCompared > 0)) {
        const t = tableFindings.get(under, r.table_id) as { partial: string } | undefined;
        if (t) parts.push({ ...emptyWhatIf(), ...(JSON.parse(t.partial) as Partial<WhatIfPartial>) });
      }
      if (under !== SAME) withChanges.push(r.table_id);
    }
    const maxChanged = o.maxChanged ?? DEFAULT_MAX_CHANGED;
    const merged = mergeWhatIf(parts, maxChanged);
    const counted = tables.filter((r) => s.tableId === undefined || r.table_id === s.tableId);
    merged.events = counted.reduce((n, r) => n + r.events_read, 0);
    merged.tableEvents = counted.reduce((n, r) => n + r.table_events, 0);
    merged.tablesInScope = inScope.filter((r) => r.table_events > 0).length;
    merged.tablesNotVerified = counted
      .filter((r) => r.unverified !== null)
      .map((r) => JSON.parse(r.unverified!) as UnverifiedTable)
      .sort((a, b) => a.tableId.localeCompare(b.tableId));
    merged.changed = earliestChanged(db, reading, withChanges, [...changedDates].sort(), maxChanged);
    const times = inScope.map((r) => r.prepared_at);
    return {
      partial: merged,
      derive,
      source: {
        kind: 'kept',
        file,
        preparedFrom: times.length ? Math.min(...times) : null,
        preparedTo: times.length ? Math.max(...times) : null,
        derivedNow: { tables: derive.length, why: derive[0]?.why ?? null },
      },
    };
  } finally {
    db.close();
  }
}

/**
 * The `max` earliest changed rounds of the tables named, on the dates named, by start time then round id: the keys of
 * the earliest `max` of each date (read in that order from the index alone), merged, and only the rounds kept after
 * that read and inflated.
 */
function earliestChanged(
  db: Database.Database,
  reading: string,
  tables: readonly string[],
  dates: readonly string[],
  max: number,
): ChangedRound[] {
  if (!tables.length || max <= 0) return [];
  const keysOfDate = db.prepare(
    `SELECT rowid AS id, round_start AS start, round_id AS roundId FROM changed
     WHERE reading = ? AND macau_date = ? AND table_id IN (SELECT value FROM json_each(?))
     ORDER BY round_start, round_id LIMIT ?`,
  );
  const roundAt = db.prepare('SELECT round FROM changed WHERE rowid = ?');
  const list = JSON.stringify(tables);
  const keys: { id: number; start: number; roundId: string }[] = [];
  for (const date of dates)
    keys.push(
      ...(keysOfDate.all(reading, date, list, max) as { id: number; start: number; roundId: string }[]),
    );
  keys.sort((x, y) => x.start - y.start || (x.roundId < y.roundId ? -1 : x.roundId > y.roundId ? 1 : 0));
  return keys.slice(0, max).map((k) => {
    const { round } = roundAt.get(k.id) as { round: Buffer };
    return JSON.parse(inflateRawSync(round).toString('utf8')) as ChangedRound;
  });
}
