/**
 * A disputed hand: the round's full derivation as `table-audit replay ROUND_ID --json` prints it (the replay
 * service's explainRound, rebuilt from the store alone), with the PT and ZH text of every provision it cites and
 * the interpretations it depends on. A round whose table's hash chain breaks where its answer reads is refused
 * with 409 naming the first broken link, as `table-audit replay ROUND_ID` refuses it.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { RoundNotFound, RoundNotVerified, type RoundExplanation } from '@table-audit/replay';
import { F3CP_ALTERNATIVE_READINGS } from '@table-audit/rules';
import { recordAccess, scopeOf, type ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { ErrorSchema, IdParams } from '../schemas.ts';
import { type DerivedAnswer, replayPayload, ReplaySchema } from '../replay-body.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoundPlace } from '../store-index.ts';
import { ReplayPoolBusy, type ReplayBody } from '../replay-pool.ts';

export { citedIn, derivedAnswer, lawOf, type DerivedAnswer, type ReplayResponse } from '../replay-body.ts';

/**
 * The body of a round refused because its table's stored record failed verification where its answer reads
 * (RoundNotVerified): 409, the message `table-audit replay ROUND_ID` prints, and the broken link apart.
 */
export const NotVerifiedSchema = Type.Object(
  {
    statusCode: Type.Literal(409),
    error: Type.Literal('Conflict'),
    message: Type.String(),
    brokenLink: Type.Object(
      {
        stream: Type.String({ description: 'the table stream whose chain breaks' }),
        revision: Type.Integer({ description: 'the revision of the first event whose link does not hold' }),
        eventId: Type.String({ description: 'that event’s id' }),
        reason: Type.String({ description: 'why its link does not hold, as table-audit verify says it' }),
      },
      { description: 'the first event read for the answer whose link does not hold' },
    ),
  },
  {
    description:
      'the round is not explained: the hash chain of its table breaks at or before the last event its answer reads (check the store with table-audit verify --stream STREAM)',
  },
);

export const notVerifiedBody = (e: RoundNotVerified) => ({
  statusCode: 409 as const,
  error: 'Conflict' as const,
  message: e.message,
  brokenLink: {
    stream: e.broken.stream,
    revision: e.broken.revision,
    eventId: e.broken.eventId,
    reason: e.broken.reason,
  },
});

/**
 * The round within the caller's scope, rebuilt and explained; 404 when it is not there or not theirs. Rejects with
 * RoundNotVerified when its table's chain breaks where its answer reads (the caller answers 409).
 */
export async function scopedExplanation(
  ctx: ApiContext,
  req: FastifyRequest,
  roundId: string,
  alternatives: readonly string[] = [],
): Promise<{ place: RoundPlace; answer: DerivedAnswer; explanation: RoundExplanation }> {
  const place = await ctx.index.round(roundId, scopeOf(req));
  if (!place) throw httpError(404, `no round ${roundId}`);
  try {
    const answer = await ctx.derivations.answer(
      roundId,
      place.tableId,
      alternatives,
      place.game,
      undefined,
      ctx.index.resumeOf(roundId),
    );
    return { place, answer, explanation: answer.explanation };
  } catch (e) {
    if (e instanceof RoundNotFound) throw httpError(404, e.message);
    throw e;
  }
}

/** Interpretations a replay may read the alternative way (the `--alternative` of `table-audit replay`). */
const SELECTABLE = Object.keys(F3CP_ALTERNATIVE_READINGS);
const ReplayQuerystring = Type.Object(
  {
    alternative: Type.Optional(
      Type.Array(Type.Union(SELECTABLE.map((id) => Type.Literal(id))), {
        maxItems: SELECTABLE.length,
        uniqueItems: true,
        description: `read these interpretations the alternative way instead of the register's chosen reading (${SELECTABLE.join(', ')}); the answer says so in \`alternatives\``,
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The header that says how an answer was derived (RoundExplanation.derivedFrom): the table folded from its first
 * event, or the start state of the round's record (its stream and revision) and the round's own events. Not in the
 * body, which is the same bytes whichever way the round was derived. Printable ASCII (anything else escaped).
 */
export const DERIVED_FROM_HEADER = 'x-table-audit-derived-from';
const headerText = (s: string): string => s.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));

/** Answers as sent, serialized once per kept answer (the same for every caller allowed to see the round). */
const serialized = new WeakMap<DerivedAnswer, string>();

export function roundRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/rounds/:roundId/replay',
    {
      schema: {
        tags: ['rounds'],
        summary: 'A disputed hand, step by step, with the PT and ZH text of every article it cites',
        params: IdParams('roundId', 'the round id'),
        querystring: ReplayQuerystring,
        response: {
          200: ReplaySchema,
          400: ErrorSchema,
          404: ErrorSchema,
          409: NotVerifiedSchema,
          503: ErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const { roundId } = req.params;
      const pool = ctx.replayPool;
      if (pool) {
        // folded, explained and serialized by a replay worker: here only the scope check and the access record
        let answer: ReplayBody;
        try {
          const place = await ctx.index.round(roundId, scopeOf(req));
          if (!place) throw httpError(404, `no round ${roundId}`);
          answer = await pool.replay(
            roundId,
            place,
            req.query.alternative ?? [],
            ctx.index.resumeOf(roundId),
          );
        } catch (e) {
          if (e instanceof ReplayPoolBusy) {
            await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'unavailable');
            return reply
              .code(503)
              .header('retry-after', String(e.retryAfterSeconds))
              .send({ statusCode: 503, error: 'Service Unavailable', message: e.message });
          }
          if (e instanceof RoundNotVerified) {
            await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'not-verified');
            return reply.code(409).send(notVerifiedBody(e));
          }
          await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'not-found');
          if (e instanceof RoundNotFound) throw httpError(404, e.message);
          throw e;
        }
        await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'ok');
        const { body, derivedFrom } = answer;
        if (derivedFrom !== null) reply.header(DERIVED_FROM_HEADER, headerText(derivedFrom));
        return (reply as FastifyReply)
          .type('application/json; charset=utf-8')
          .send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
      }
      let result;
      try {
        result = await scopedExplanation(ctx, req, roundId, req.query.alternative ?? []);
      } catch (e) {
        if (e instanceof RoundNotVerified) {
          await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'not-verified');
          return reply.code(409).send(notVerifiedBody(e));
        }
        await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'not-found');
        throw e;
      }
      await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'ok');
      const { place, answer } = result;
      let body = serialized.get(answer);
      if (body === undefined) {
        body = String(reply.serialize(replayPayload(roundId, place, answer)));
        serialized.set(answer, body);
      }
      // already serialized by the route's schema: sent as is
      const derivedFrom = answer.explanation.derivedFrom;
      if (derivedFrom !== undefined) reply.header(DERIVED_FROM_HEADER, headerText(derivedFrom));
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );
}
