/**
 * A disputed hand: the round's full derivation as `table-audit replay ROUND_ID --json` prints it (the replay
 * service's explainRound, rebuilt from the store alone), with the PT and ZH text of every provision it cites and
 * the interpretations it depends on.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { RoundNotFound, type RoundExplanation } from '@table-audit/replay';
import {
  allProvisions,
  F3CP_ALTERNATIVE_READINGS,
  INTERPRETATIONS,
  type Explanation,
} from '@table-audit/rules';
import { recordAccess, scopeOf, type ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { ErrorSchema, IdParams } from '../schemas.ts';
import { scopeNoteOf, ScopeSchema } from '../explanations.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoundPlace } from '../store-index.ts';

const provisionsByKey = new Map(allProvisions().map((p) => [p.key, p]));
const interpretationsById = new Map(INTERPRETATIONS.map((i) => [i.id, i]));

/** Every {key, reference} citation and every interpretation id anywhere in a derivation, each once, in order. */
export function citedIn(json: unknown): { citations: Map<string, string>; interpretations: Set<string> } {
  const citations = new Map<string, string>();
  const interpretations = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o['key'] === 'string' && typeof o['reference'] === 'string' && !citations.has(o['key']))
        citations.set(o['key'], o['reference']);
      for (const [k, x] of Object.entries(o))
        if (k === 'interpretations' && Array.isArray(x)) {
          for (const id of x) if (typeof id === 'string') interpretations.add(id);
        } else walk(x);
    }
  };
  walk(json);
  return { citations, interpretations };
}

/** The texts behind a derivation: each provision in PT and ZH, each interpretation as registered. */
export function lawOf(json: unknown) {
  const { citations, interpretations } = citedIn(json);
  return {
    provisions: [...citations].map(([key, reference]) => {
      const p = provisionsByKey.get(key);
      return { key, reference, pt: p?.pt || null, zh: p?.zh || null }; // an empty text is one not held
    }),
    interpretations: [...interpretations].sort().map((id) => {
      const i = interpretationsById.get(id);
      return {
        id,
        question: i?.question ?? null,
        reading: i?.reading ?? null,
        alternative: i?.alternative ?? null,
      };
    }),
  };
}

/**
 * A round's explanation with what the replay route adds to it, made once per (round, table head, readings) and
 * kept by the API's RoundDerivations: the law's texts are looked up when the answer is made, not per request.
 */
export interface DerivedAnswer {
  readonly explanation: RoundExplanation;
  readonly law: ReturnType<typeof lawOf>;
  /** the interpretations read the alternative way, each with that reading (as `table-audit replay` says first) */
  readonly alternatives: readonly { readonly id: string; readonly reading: string }[];
}

export const derivedAnswer = (
  explanation: RoundExplanation,
  alternatives: readonly string[],
): DerivedAnswer => ({
  explanation,
  law: lawOf(explanation.json),
  alternatives: [...alternatives].sort().map((id) => ({ id, reading: F3CP_ALTERNATIVE_READINGS[id] ?? '' })),
});

/** The round within the caller's scope, rebuilt and explained; 404 when it is not there or not theirs. */
export async function scopedExplanation(
  ctx: ApiContext,
  req: FastifyRequest,
  roundId: string,
  alternatives: readonly string[] = [],
): Promise<{ place: RoundPlace; answer: DerivedAnswer; explanation: RoundExplanation }> {
  const place = await ctx.index.round(roundId, scopeOf(req));
  if (!place) throw httpError(404, `no round ${roundId}`);
  try {
    const answer = await ctx.derivations.answer(roundId, place.tableId, alternatives, place.game);
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

const ReplaySchema = Type.Object({
  roundId: Type.String(),
  tableId: Type.String(),
  casino: Type.String(),
  concessionaire: Type.String(),
  game: Type.Union([Type.String(), Type.Null()], {
    description: "the table's game (TableOpened.game): F3CP, CRAPS, THIRTEEN_CARDS or MAHJONG",
  }),
  scope: Type.Union([ScopeSchema, Type.Null()]),
  derivation: Type.Unknown({
    description:
      "what `table-audit replay ROUND_ID --json` prints, by game: F3CP the hand (banker, seats, lines, jackpot); CRAPS the throw (faces, pointBefore, pointAfter, lines); THIRTEEN_CARDS the places' tiers, the banker's and the solver's best (places, banker, dice, bets); MAHJONG the deal (walls, dice, break, turns, hands); each with steps (the timeline) and findings; amounts in avos",
  }),
  text: Type.String({ description: 'the same for people: MOP, Macau time' }),
  provisions: Type.Array(
    Type.Object({
      key: Type.String(),
      reference: Type.String(),
      pt: Type.Union([Type.String(), Type.Null()]),
      zh: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  interpretations: Type.Array(
    Type.Object({
      id: Type.String(),
      question: Type.Union([Type.String(), Type.Null()]),
      reading: Type.Union([Type.String(), Type.Null()]),
      alternative: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  alternatives: Type.Array(Type.Object({ id: Type.String(), reading: Type.String() }), {
    description:
      "the interpretations read the alternative way at the caller's request (empty: the chosen readings)",
  }),
});

/**
 * What GET /v1/rounds/:roundId/replay answers, typed: the derivation is the game's explanation — for F3CP the
 * rules' Explanation (packages/rules/src/f3cp/explain.ts) as JSON; another game's has other fields, so a reader
 * takes each as optional.
 */
export type ReplayResponse = Omit<Static<typeof ReplaySchema>, 'derivation'> & {
  readonly derivation: Partial<Explanation>;
};

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
        response: { 200: ReplaySchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (req, reply) => {
      const { roundId } = req.params;
      let result;
      try {
        result = await scopedExplanation(ctx, req, roundId, req.query.alternative ?? []);
      } catch (e) {
        await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'not-found');
        throw e;
      }
      await recordAccess(ctx, req, 'round.replay', 'round', roundId, 'ok');
      const { place, answer } = result;
      let body = serialized.get(answer);
      if (body === undefined) {
        body = String(
          reply.serialize({
            roundId,
            tableId: place.tableId,
            casino: place.casino,
            concessionaire: place.concessionaire,
            game: place.game,
            scope: scopeNoteOf(place.game),
            derivation: answer.explanation.json,
            text: answer.explanation.text,
            ...answer.law,
            alternatives: [...answer.alternatives],
          }),
        );
        serialized.set(answer, body);
      }
      // already serialized by the route's schema: sent as is
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );
}
