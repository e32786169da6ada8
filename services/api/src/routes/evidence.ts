/** Evidence exports of a round or an alert: the bundle as JSON (checkable offline) or as a printable PDF. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { RoundNotFound, RoundNotVerified } from '@table-audit/replay';
import { httpError } from '../errors.ts';
import { recordAccess, type ApiContext } from '../context.ts';
import { bundlePdf, buildBundle, ofRound, type BundleSubject } from '../evidence.ts';
import { ErrorSchema, IdParams } from '../schemas.ts';
import { alertFinding, readAlert } from './alerts.ts';
import { scopedExplanation } from './rounds.ts';

const Format = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')], { default: 'json' })) },
  { additionalProperties: false },
);

async function send(
  ctx: ApiContext,
  req: FastifyRequest,
  reply: FastifyReply,
  subject: BundleSubject,
  place: { casino: string; concessionaire: string },
  format: 'json' | 'pdf',
) {
  const bundle = await buildBundle(ctx, req.principal.subject, subject);
  const name = `evidence-${subject.subject.kind}-${subject.subject.id.replace(/[^A-Za-z0-9._-]/g, '_')}`;
  if (format === 'pdf') {
    const pdf = await bundlePdf(bundle, place);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${name}.pdf"`)
      .send(pdf);
  }
  return reply
    .type('application/json')
    .header('content-disposition', `attachment; filename="${name}.json"`)
    .send(JSON.stringify(bundle));
}

/** Runs an export, recording it (and a refused one) as an access by the caller. */
async function audited<T>(
  ctx: ApiContext,
  req: FastifyRequest,
  action: string,
  objectType: string,
  id: string,
  run: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (e) {
    await recordAccess(
      ctx,
      req,
      action,
      objectType,
      id,
      // 409: the round's derivation would read a broken link of its table's hash chain (RoundNotVerified)
      ({ 404: 'not-found', 409: 'not-verified' } as Record<number, string>)[
        (e as { statusCode?: number }).statusCode ?? 0
      ] ?? 'error',
    );
    throw e;
  }
  await recordAccess(ctx, req, action, objectType, id, 'ok');
  return result;
}

export function evidenceRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const produces = {
    200: {
      description: 'the evidence bundle (JSON, format table-audit-evidence/1) or its PDF',
      content: { 'application/json': { schema: {} }, 'application/pdf': { schema: {} } },
    },
    404: ErrorSchema,
    409: ErrorSchema,
  };
  r.get(
    '/rounds/:roundId/evidence',
    {
      schema: {
        tags: ['evidence'],
        summary: "A round's evidence: its events with their hash-chain proof, the derivation, the findings",
        params: IdParams('roundId', 'the round id'),
        querystring: Format,
        response: produces,
      },
    },
    async (req, reply) => {
      const { roundId } = req.params;
      return audited(ctx, req, `round.export.${req.query.format ?? 'json'}`, 'round', roundId, async () => {
        const { place, explanation } = await scopedExplanation(ctx, req, roundId).catch((e: unknown) => {
          // its table's chain breaks where the round's derivation reads: no bundle made from it
          throw e instanceof RoundNotVerified ? httpError(409, e.message) : e;
        });
        return send(
          ctx,
          req,
          reply,
          {
            subject: { kind: 'round', id: roundId },
            tableId: place.tableId,
            tableEvent: ofRound(roundId),
            finding: (f) => f.roundId === roundId,
            derivation: explanation.json,
            alert: null,
          },
          place,
          req.query.format ?? 'json',
        );
      });
    },
  );
  r.get(
    '/alerts/:alertId/evidence',
    {
      schema: {
        tags: ['evidence'],
        summary:
          "An alert's evidence: its finding's round (or evidence events), the finding, the alert's history",
        params: IdParams('alertId', 'the alert id'),
        querystring: Format,
        response: produces,
      },
    },
    async (req, reply) => {
      const { alertId } = req.params;
      return audited(ctx, req, `alert.export.${req.query.format ?? 'json'}`, 'alert', alertId, async () => {
        const finding = await alertFinding(ctx, req, alertId);
        const { events, state } = await readAlert(ctx, alertId);
        let derivation: unknown = null;
        if (finding.roundId !== null)
          try {
            derivation = (await ctx.derivations.answer(finding.roundId, finding.tableId)).explanation.json;
          } catch (e) {
            if (e instanceof RoundNotVerified) throw httpError(409, e.message);
            if (!(e instanceof RoundNotFound)) throw e;
          }
        const evidence = new Set(finding.evidenceEventIds);
        const alert = {
          state,
          history: events.map((e) => ({ type: e.type, revision: e.revision, data: e.data, hash: e.hash })),
        };
        const roundId = finding.roundId;
        return send(
          ctx,
          req,
          reply,
          {
            subject: { kind: 'alert', id: alertId },
            tableId: finding.tableId,
            tableEvent: roundId === null ? (e) => evidence.has(e.eventId) : ofRound(roundId),
            finding: (f) => f.findingId === alertId,
            derivation,
            alert,
          },
          { casino: finding.casino, concessionaire: finding.concessionaire },
          req.query.format ?? 'json',
        );
      });
    },
  );
}
