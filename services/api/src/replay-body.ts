/**
 * What GET /v1/rounds/:roundId/replay answers, apart from Fastify: the law behind a derivation (the PT and ZH text
 * of every provision it cites, every interpretation it depends on), the answer kept per (round, table head,
 * readings), its response schema and the one serializer of that schema. The route (routes/rounds.ts) and the replay
 * workers (replay-worker.ts) both make the body from here, so a body made in a worker is byte for byte the one the
 * route's own serializer makes (fast-json-stringify, the version Fastify itself uses, over the same schema).
 */
import fastJsonStringify from 'fast-json-stringify';
import { Type, type Static } from 'typebox';
import type { RoundExplanation } from '@table-audit/replay';
import {
  allProvisions,
  F3CP_ALTERNATIVE_READINGS,
  INTERPRETATIONS,
  type Explanation,
} from '@table-audit/rules';
import { scopeNoteOf, ScopeSchema } from './explanations.ts';

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

export const ReplaySchema = Type.Object({
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

/** Where a round is, as the API's index knows it: what the body says about the round besides its derivation. */
export interface ReplayPlace {
  readonly tableId: string;
  readonly casino: string;
  readonly concessionaire: string;
  readonly game: string | null;
}

/** The body of a replay answer as an object, in the schema's order (what the route's serializer is given). */
export const replayPayload = (roundId: string, place: ReplayPlace, answer: DerivedAnswer) => ({
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
});

/** The serializer Fastify compiles for the route's 200 answer, compiled here for a thread without Fastify. */
export const replaySerializer = (): ((payload: ReturnType<typeof replayPayload>) => string) =>
  fastJsonStringify(ReplaySchema as object) as (payload: ReturnType<typeof replayPayload>) => string;
