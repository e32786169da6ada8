/**
 * GET /v1/what-if/rounds/{roundId}/readings: which unclear provisions a disputed round hinges on — the round derived
 * under every selectable alternative reading of its rule set, each alone against the register's readings
 * (services/replay's roundReadings; `table-audit replay ROUND_ID --what-if all`). Folded in a worker thread when
 * the store is a SQLite file (a round late in a long table takes seconds), one at a time: a second request while
 * one is being derived is answered 503 with Retry-After rather than queued. Scoped as every round route.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import {
  roundReadings,
  roundReadingsInWorker,
  RoundNotFound,
  RoundNotVerified,
  type RoundReadings,
} from '@table-audit/replay';
import { recordAccess, scopeOf, type ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { ErrorSchema } from '../schemas.ts';

/** Seconds a client is told to wait when a round's readings are being derived for another request. */
export const READINGS_RETRY_AFTER_S = 5;

const Side = Type.Union([
  Type.Object({ outcome: Type.String(), payoutAvos: Type.Integer(), netAvos: Type.Integer() }),
  Type.Null(),
]);

const Changed = Type.Object({
  statusChosen: Type.String(),
  statusAlternative: Type.String(),
  notDerivedAlternative: Type.Union([Type.String(), Type.Null()]),
  findingsAppeared: Type.Array(Type.String(), { description: 'check ids, once per finding' }),
  findingsDisappeared: Type.Array(Type.String()),
  lines: Type.Array(
    Type.Object({
      seat: Type.Integer(),
      betType: Type.String(),
      stakeAvos: Type.Integer(),
      chosen: Side,
      alternative: Side,
    }),
    { description: 'the bets settled differently (amounts in avos)' },
  ),
  expectedPaidChosenAvos: Type.Integer(),
  expectedPaidAlternativeAvos: Type.Integer(),
});

const Reading = Type.Object({
  key: Type.String({ description: "'J11', or 'J3:2' for a second alternative" }),
  id: Type.String(),
  question: Type.String(),
  chosen: Type.String(),
  alternative: Type.String(),
  effect: Type.String(),
  articles: Type.Array(
    Type.Object({
      key: Type.String(),
      pt: Type.Union([Type.String(), Type.Null()]),
      zh: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export const RoundReadingsSchema = Type.Object({
  roundId: Type.String(),
  tableId: Type.String(),
  casino: Type.String(),
  concessionaire: Type.String(),
  game: Type.String(),
  ruleSetId: Type.Union([Type.String(), Type.Null()]),
  macauDate: Type.String(),
  roundStartTime: Type.Integer({ description: 'UTC ms' }),
  readings: Type.Array(
    Type.Object({
      reading: Reading,
      changed: Type.Union([Changed, Type.Null()], { description: 'null: derived the same under it' }),
    }),
    { description: 'every selectable alternative of the round’s rule set: those that change it first' },
  ),
  notSelectable: Type.Array(Type.Object({ id: Type.String(), reason: Type.String() })),
  eventsRead: Type.Integer(),
  elapsedMs: Type.Number(),
});

export function roundReadingsRoutes(
  app: FastifyInstance,
  ctx: ApiContext,
  o: { readonly storePath: string | null; readonly loader?: string },
): void {
  const v1 = app.withTypeProvider<TypeBoxTypeProvider>();
  let deriving = false;
  v1.get(
    '/what-if/rounds/:roundId/readings',
    {
      schema: {
        tags: ['what-if'],
        summary:
          'Which unclear provisions a round hinges on: the round under every alternative reading, each alone',
        description:
          'The table folded from its first event under each selectable alternative reading of the round’s rule set, every link checked; the readings that change the round come first, each with how (findings, bets, status). Writes nothing but the access record. One request is derived at a time: 503 with Retry-After while another is.',
        params: Type.Object({ roundId: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: RoundReadingsSchema, 404: ErrorSchema, 409: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (req, reply) => {
      const { roundId } = req.params;
      const place = await ctx.index.round(roundId, scopeOf(req));
      if (!place) {
        await recordAccess(ctx, req, 'what-if.round-readings', 'round', roundId, 'not-found');
        throw httpError(404, `no round ${roundId}`);
      }
      if (deriving) {
        await recordAccess(ctx, req, 'what-if.round-readings', 'round', roundId, 'unavailable');
        return reply
          .code(503)
          .header('retry-after', String(READINGS_RETRY_AFTER_S))
          .send({
            statusCode: 503,
            error: 'Service Unavailable',
            message: `another round's readings are being derived; ask again in ${READINGS_RETRY_AFTER_S} s`,
          });
      }
      deriving = true;
      let x: RoundReadings;
      try {
        x =
          o.storePath === null
            ? await roundReadings(ctx.store, roundId, undefined, place.tableId)
            : await roundReadingsInWorker({
                storePath: o.storePath,
                roundId,
                tableId: place.tableId,
                ...(o.loader === undefined ? {} : { loader: o.loader }),
              });
      } catch (e) {
        if (e instanceof RoundNotFound) {
          await recordAccess(ctx, req, 'what-if.round-readings', 'round', roundId, 'not-found');
          throw httpError(404, e.message);
        }
        if (e instanceof RoundNotVerified) {
          await recordAccess(ctx, req, 'what-if.round-readings', 'round', roundId, 'not-verified');
          throw httpError(409, e.message);
        }
        throw e;
      } finally {
        deriving = false;
      }
      await recordAccess(ctx, req, 'what-if.round-readings', 'round', roundId, 'ok');
      // the schema's arrays are mutable, the derivation's read-only: the same data
      return { ...x, casino: place.casino, concessionaire: place.concessionaire } as unknown as Static<
        typeof RoundReadingsSchema
      >;
    },
  );
}
