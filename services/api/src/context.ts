/** What the routes share: the store, the index, the findings source, the clock, and access recording. */
import type { EventStore } from '@table-audit/eventstore';
import type { AnchorRecord } from '@table-audit/eventstore';
import type { FastifyRequest } from 'fastify';
import type { Principal } from './auth.ts';
import type { FindingsQuery, FindingView } from './findings-query.ts';
import type { StoreIndex } from './store-index.ts';
import type { AccessLog } from './access-log.ts';
import type { RoundDerivations } from './round-derivations.ts';
import type { ReplayPool } from './replay-pool.ts';
import type { DerivedAnswer } from './routes/rounds.ts';
import type { ChartsQuery } from './charts.ts';
import { formatMacauTime } from '@table-audit/rules';
import { scopeNoteOf } from './explanations.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the auth plugin on every route under /v1 */
    principal: Principal;
  }
}

/** The signed anchors evidence exports cite (see packages/eventstore/src/anchor.ts). */
export interface AnchorSource {
  /** every anchor record, checked against the anchors' public key */
  read(): Promise<AnchorRecord[]>;
  /** the PEM of the public key that verifies them */
  readonly publicKeyPem: string;
  readonly description: string;
}

export { ACCESS_STREAM } from './access-log.ts';

export interface ApiContext {
  readonly store: EventStore;
  readonly index: StoreIndex;
  readonly findings: FindingsQuery;
  /** null: the API has no ClickHouse to draw charts from */
  readonly charts: ChartsQuery | null;
  readonly anchors: AnchorSource | null;
  readonly now: () => number;
  readonly accessLog: AccessLog;
  /** disputed hands derived once per table and kept (bounded), with their law texts */
  readonly derivations: RoundDerivations<DerivedAnswer>;
  /** the replay route's worker threads (null: it folds with `derivations`, in the main thread) */
  readonly replayPool: ReplayPool | null;
}

/** The caller's scope: the one concessionaire they see, or null for all. */
export const scopeOf = (req: FastifyRequest): string | null => req.principal.concessionaire;

/**
 * Records who did what and when as an AccessRecorded event in the `api-access` stream: every read of a round,
 * every export, every workflow action (and refusals of them). Awaited: an access that cannot be recorded fails.
 */
export async function recordAccess(
  ctx: ApiContext,
  req: FastifyRequest,
  action: string,
  objectType: string,
  objectId: string,
  outcome: string,
): Promise<void> {
  const p = req.principal;
  await ctx.accessLog.record({
    accessId: `${req.id}:${action}`,
    actorSubject: p.subject,
    actorRole: p.role,
    actorConcessionaire: p.concessionaire,
    time: ctx.now(),
    requestId: req.id,
    action,
    objectType,
    objectId,
    outcome,
  });
}

/**
 * A finding as served: with its time in Macau time beside the UTC milliseconds, and a Mah-Jong finding with the
 * scope note (only the deal is judged).
 */
export const present = (f: FindingView) => ({
  ...f,
  seats: [...f.seats],
  players: [...f.players],
  citations: [...f.citations],
  interpretations: [...f.interpretations],
  evidenceEventIds: [...f.evidenceEventIds],
  eventTimeMacau: formatMacauTime(f.eventTime),
  ...(f.game === 'MAHJONG' ? { scope: scopeNoteOf(f.game)! } : {}),
});
