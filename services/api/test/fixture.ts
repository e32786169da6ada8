/**
 * A store holding a simulated session (every casino of the simulator, labelled faults), ingested and replayed as
 * the pipeline does, and an app over it with a token per role. Shared by the API's tests and its benchmark.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
import { macauDate } from '@table-audit/rules';
import { buildApp, issueToken, sha256Hex, type AppOptions, type Principal } from '../src/index.ts';

export interface Fixture {
  store: SqliteEventStore;
  path: string;
  key: KeyObject;
  app: FastifyInstance;
  tokens: Record<'inspector' | 'officerA' | 'officerB' | 'auditor', string>;
  /** two concessionaires whose officers the tests use */
  concessionaireA: string;
  concessionaireB: string;
  machineKey: string;
  close(): Promise<void>;
}

/** Tables of other games simulated beside the F3CP session (CRAPS, THIRTEEN_CARDS, MAHJONG). */
export type OtherGames = readonly { game: string; tables: number; roundsPerTable: number }[];

/** Every other game, `tables` tables each, with enough rounds that each has findings about rounds. */
export const everyOtherGame = (tables: number): OtherGames => [
  { game: 'CRAPS', tables, roundsPerTable: 40 },
  { game: 'THIRTEEN_CARDS', tables, roundsPerTable: 12 },
  { game: 'MAHJONG', tables, roundsPerTable: 12 },
];

export async function simulatedStore(
  options: {
    tables?: number;
    roundsPerTable?: number;
    seed?: number;
    path?: string;
    otherGames?: OtherGames;
  } = {},
): Promise<{ store: SqliteEventStore; path: string }> {
  const sessions = [
    { game: 'F3CP', tables: options.tables ?? 12, roundsPerTable: options.roundsPerTable ?? 15 },
  ]
    .concat(options.otherGames ?? [])
    .map((g) => simulateSession({ ...g, seed: options.seed ?? 2026, faultRate: 0.3, handledRate: 0.05 }));
  const session = { events: sessions.flatMap((s) => s.events) };
  const path = options.path ?? join(mkdtempSync(join(tmpdir(), 'ta-api-')), 'events.sqlite');
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store, () => 0);
  for (let i = 0; i < session.events.length; i += 2_000)
    await pipeline.submit(
      session.events.slice(i, i + 2_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: i + k },
        event,
      })),
    );
  const replay = new ReplayService({ store });
  await replay.catchUp();
  await replay.finish();
  return { store, path };
}

export async function fixture(
  options: Partial<AppOptions> & { tables?: number; roundsPerTable?: number; otherGames?: OtherGames } = {},
): Promise<Fixture> {
  const { store, path } = await simulatedStore(options);
  const { privateKey: key } = generateKeyPairSync('ed25519');
  const machineKey = 'machine-key-for-tests-0123456789';
  const concessionaireA = 'SJM Resorts';
  const concessionaireB = 'Galaxy Casino';
  const app = await buildApp({
    store,
    auth: {
      tokenKey: key,
      apiKeys: [{ name: 'grafana', sha256: sha256Hex(machineKey), role: 'machine', concessionaire: null }],
    },
    ...options,
  });
  const token = (p: Principal) => issueToken(key, p);
  return {
    store,
    path,
    key,
    app,
    concessionaireA,
    concessionaireB,
    machineKey,
    tokens: {
      inspector: await token({ subject: 'inspector-1', role: 'inspector', concessionaire: null }),
      officerA: await token({
        subject: 'officer-a',
        role: 'compliance_officer',
        concessionaire: concessionaireA,
      }),
      officerB: await token({
        subject: 'officer-b',
        role: 'compliance_officer',
        concessionaire: concessionaireB,
      }),
      auditor: await token({ subject: 'auditor-1', role: 'auditor', concessionaire: null }),
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dirname(path), { recursive: true, force: true }); // the temporary directory simulatedStore made
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A table of each of the fixture's two concessionaires (the first each plays) and the Macau date of the store's
 * first table event: what the what-if tests ask about.
 */
export async function tablesOfEachConcessionaire(
  f: Fixture,
): Promise<{ tableA: string; tableB: string; day: string }> {
  const tables = new Map<string, { concessionaire: string; time: number }>();
  for await (const e of f.store.readAll()) {
    const h = (e.data as { header?: { tableId: string; concessionaire: string; eventTime: number } }).header;
    if (e.stream.startsWith('table-') && h && !tables.has(h.tableId))
      tables.set(h.tableId, { concessionaire: h.concessionaire, time: h.eventTime });
  }
  const all = [...tables];
  return {
    tableA: all.find(([, t]) => t.concessionaire === f.concessionaireA)![0],
    tableB: all.find(([, t]) => t.concessionaire === f.concessionaireB)![0],
    day: macauDate(all[0]![1].time),
  };
}
