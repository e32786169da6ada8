/**
 * One of the API's replay workers (replay-pool.ts): a worker thread that opens the SQLite store read-only and
 * answers disputed-hand replays with its own RoundDerivations — reading a table's stream, folding it, explaining
 * the round, looking up the law's texts and serializing the body with the route's own schema — so that the API's
 * main thread only does HTTP, the scope check and the access record. Each table is always sent to the same worker,
 * so its fold and its answers are kept here, under this worker's share of the bounds. Writes nothing.
 *
 * Messages in: a ReplayAsk. Out: first `{ ready: true }` (or `{ failed }`), then one ReplayAnswer per ask, the body
 * as UTF-8 bytes handed over (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { RoundNotFound, RoundNotVerified } from '@table-audit/replay';
import { RoundDerivations, type AnswerKey } from './round-derivations.ts';
import { derivedAnswer, replayPayload, replaySerializer, type DerivedAnswer } from './replay-body.ts';
import type { ReplayAnswer, ReplayAsk, ReplayWorkerData } from './replay-pool.ts';

const data = workerData as ReplayWorkerData;
const port = parentPort!;
let derivations: RoundDerivations<DerivedAnswer>;
try {
  // a first replay reads a round's events here and there in the store: its dictionary entries one by one
  const store = new SqliteEventStore(data.storePath, { readOnly: true, dictionaryReadAhead: 1 });
  derivations = new RoundDerivations(store, derivedAnswer, {
    maxRounds: data.maxRounds,
    maxExplanations: data.maxExplanations,
    resume: data.resume,
  });
} catch (e) {
  port.postMessage({ failed: (e as Error).message ?? String(e) });
  process.exit(1);
}
const serialize = replaySerializer();
/** bodies as sent, one per kept answer (an answer dropped by the bounds takes its body with it) */
const bodies = new WeakMap<DerivedAnswer, string>();
const encoder = new TextEncoder();

/** This worker's resumed first replays and fallbacks so far (the pool adds up the workers' latest). */
const resumeStats = () => ({
  resumed: derivations.stats.resumed,
  fallbacks: { ...derivations.stats.resumeFallbacks },
});

async function answer(ask: ReplayAsk): Promise<ReplayAnswer> {
  try {
    const at: AnswerKey = { head: -1, findingsHead: 'none', record: 'none', kept: false };
    const a = await derivations.answer(
      ask.roundId,
      ask.place.tableId,
      ask.alternatives,
      ask.place.game,
      at,
      ask.resume,
    );
    let body = bodies.get(a);
    if (body === undefined) {
      body = serialize(replayPayload(ask.roundId, ask.place, a));
      bodies.set(a, body);
    }
    return {
      id: ask.id,
      body: encoder.encode(body),
      key: at,
      derivedFrom: a.explanation.derivedFrom ?? null,
      resumeStats: resumeStats(),
    };
  } catch (e) {
    if (e instanceof RoundNotFound) return { id: ask.id, notFound: e.message };
    if (e instanceof RoundNotVerified)
      return { id: ask.id, notVerified: { roundId: e.roundId, tableId: e.tableId, broken: e.broken } };
    return { id: ask.id, error: (e as Error).message ?? String(e) };
  }
}

port.on('message', (ask: ReplayAsk) => {
  void answer(ask).then((a) => port.postMessage(a, 'body' in a ? [a.body.buffer as ArrayBuffer] : []));
});
port.postMessage({ ready: true });
