/**
 * Alerts (findings to work) and their workflow. Each action is decided against the fold of the alert's stream
 * and appended with the revision it was decided at, so of two officers acting on the same alert at once one
 * succeeds and the other gets 409: history is only ever appended to, never rewritten.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { WrongExpectedRevision, type RecordedEvent } from '@table-audit/eventstore';
import {
  ALERT_EVENT_TYPES,
  AlertCommandRefused,
  alertStream,
  decide,
  foldAlert,
  type AlertCommand,
  type AlertCommandKind,
  type AlertEvent,
} from '../alerts.ts';
import { present, recordAccess, scopeOf, type ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import type { FindingView } from '../findings-query.ts';
import {
  AlertBodies,
  AlertSchema,
  AlertsPageSchema,
  AlertsQuerystring,
  ErrorSchema,
  IdParams,
} from '../schemas.ts';
import { findingFilter, pageOut, type FindingsRouteOptions } from './findings.ts';
import { compareFindings, type FindingsPage } from '../findings-query.ts';

/** The most alerts a list filtered on workflow state reads (their state is not in the findings table). */
export const MAX_ALERTS_SCANNED = 100_000;
const SCAN_PAGE = 5_000;

/** An alert's events as stored, its state and the revision of its stream's last event (-1: no events yet). */
export async function readAlert(ctx: ApiContext, alertId: string) {
  const events: RecordedEvent[] = [];
  for await (const e of ctx.store.readStream(alertStream(alertId)))
    if (ALERT_EVENT_TYPES.has(e.type)) events.push(e);
  const state = foldAlert(events.map((e) => ({ type: e.type, data: e.data }) as AlertEvent));
  return { events, state: { ...state, revision: events.at(-1)?.revision ?? -1 } };
}

/** The finding an alert is about, within the caller's scope; 404 when there is none or it needs no work. */
export async function alertFinding(
  ctx: ApiContext,
  req: FastifyRequest,
  alertId: string,
): Promise<FindingView> {
  const f = await ctx.findings.get(alertId, scopeOf(req));
  if (!f) throw httpError(404, `no alert ${alertId}`);
  if (f.handled)
    throw httpError(
      404,
      `no alert ${alertId}: finding ${alertId} was handled at the table and needs no work`,
    );
  return f;
}

const commandOf = (kind: AlertCommandKind, body: Record<string, unknown>): AlertCommand => {
  switch (kind) {
    case 'acknowledge':
      return { kind, note: (body['note'] as string | undefined) ?? null };
    case 'assign':
      return { kind, assignee: body['assignee'] as string | null };
    case 'comment':
      return { kind, comment: body['comment'] as string };
    case 'resolve':
      return { kind, disposition: body['disposition'] as 'confirmed', comment: body['comment'] as string };
    case 'reopen':
      return { kind, reason: body['reason'] as string };
  }
};

export function alertRoutes(app: FastifyInstance, ctx: ApiContext, o: FindingsRouteOptions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const maxRangeDays = o.maxRangeDays ?? 92;
  r.get(
    '/alerts',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Alerts (findings to work), newest first, with their workflow state',
        querystring: AlertsQuerystring,
        response: { 200: AlertsPageSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (req) => {
      const { status, assignee, disposition, ...findingsQuery } = req.query;
      const { filter, page } = findingFilter(req, findingsQuery, maxRangeDays, true);
      let found: FindingsPage;
      if (status === undefined && assignee === undefined && disposition === undefined)
        found = await ctx.findings.list(filter, page);
      else {
        // the workflow state lives in the alert streams (folded by the store index): the alerts of the findings
        // filter are read in order, each kept if its state matches, so paging and the total stay exact
        await ctx.index.refresh();
        const kept: FindingView[] = [];
        let total = 0;
        let scanned = 0;
        let more = false;
        for (let after = null as FindingsPage['next']; ;) {
          const chunk = await ctx.findings.list(filter, { limit: SCAN_PAGE, after });
          scanned += chunk.items.length;
          if (scanned > MAX_ALERTS_SCANNED)
            throw httpError(
              400,
              `querystring/status, assignee and disposition read each alert's state, and this filter matches more than ${MAX_ALERTS_SCANNED.toLocaleString('en-US')} alerts; narrow it (querystring/from and to, casino, tableId, checkId)`,
            );
          for (const f of chunk.items) {
            const s = ctx.index.alertState(f.findingId);
            if (
              (status === undefined || s.status === status) &&
              (assignee === undefined || s.assignee === assignee) &&
              (disposition === undefined || s.disposition === disposition)
            ) {
              total++;
              if (page.after !== null && compareFindings(f, page.after) <= 0) continue;
              if (kept.length < page.limit) kept.push(f);
              else more = true;
            }
          }
          if (chunk.next === null) break;
          after = chunk.next;
        }
        const last = kept.at(-1);
        found = {
          items: kept,
          total,
          next: more && last ? { eventTime: last.eventTime, findingId: last.findingId } : null,
        };
      }
      const out = pageOut(found);
      const items = await Promise.all(
        out.items.map(async (finding) => ({
          alertId: finding.findingId,
          finding,
          state: (await readAlert(ctx, finding.findingId)).state,
        })),
      );
      return { ...out, items };
    },
  );
  r.get(
    '/alerts/:alertId',
    {
      schema: {
        tags: ['alerts'],
        summary: 'An alert: its finding, its state and its whole history',
        params: IdParams('alertId', 'the alert id (the id of its finding)'),
        response: { 200: AlertSchema, 404: ErrorSchema },
      },
    },
    async (req) => {
      const finding = await alertFinding(ctx, req, req.params.alertId);
      const { events, state } = await readAlert(ctx, req.params.alertId);
      return {
        alertId: req.params.alertId,
        finding: present(finding),
        state,
        history: events.map((e) => ({ type: e.type, revision: e.revision, data: e.data, hash: e.hash })),
      };
    },
  );
  for (const kind of Object.keys(AlertBodies) as AlertCommandKind[]) {
    r.post(
      `/alerts/:alertId/${kind}`,
      {
        schema: {
          tags: ['alerts'],
          summary: `${kind[0]!.toUpperCase()}${kind.slice(1)} an alert (appends an event to its stream)`,
          params: IdParams('alertId', 'the alert id (the id of its finding)'),
          body: AlertBodies[kind],
          response: { 200: AlertSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (req) => {
        const alertId = req.params.alertId;
        const finding = await alertFinding(ctx, req, alertId);
        const before = await readAlert(ctx, alertId);
        let event: AlertEvent;
        try {
          event = decide(before.state, commandOf(kind, req.body as Record<string, unknown>), {
            alertId,
            actor: req.principal,
            time: ctx.now(),
            requestId: req.id,
          });
        } catch (e) {
          if (!(e instanceof AlertCommandRefused)) throw e;
          await recordAccess(ctx, req, `alert.${kind}`, 'alert', alertId, e.reason);
          throw httpError(e.reason === 'forbidden' ? 403 : 409, e.message);
        }
        try {
          await ctx.store.append(alertStream(alertId), [{ eventId: `alert:${req.id}`, ...event }], {
            expectedRevision: before.state.revision === -1 ? 'no-stream' : before.state.revision,
          });
        } catch (e) {
          if (!(e instanceof WrongExpectedRevision)) throw e;
          await recordAccess(ctx, req, `alert.${kind}`, 'alert', alertId, 'conflict');
          throw httpError(
            409,
            `alert ${alertId} was changed by another request while this one was decided (it is now at revision ${e.actual}, this request saw ${before.state.revision}); read it again and retry`,
          );
        }
        await recordAccess(ctx, req, `alert.${kind}`, 'alert', alertId, 'ok');
        const after = await readAlert(ctx, alertId);
        return {
          alertId,
          finding: present(finding),
          state: after.state,
          history: after.events.map((e) => ({
            type: e.type,
            revision: e.revision,
            data: e.data,
            hash: e.hash,
          })),
        };
      },
    );
  }
}
