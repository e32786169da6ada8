/** Findings (incidents): filtered, paged with stable cursors, counted; and one by id. Scoped to the caller. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { present, scopeOf, type ApiContext } from '../context.ts';
import {
  decodeCursor,
  encodeCursor,
  type FindingFilter,
  type FindingsPage,
  type FindingView,
} from '../findings-query.ts';
import { httpError } from '../errors.ts';
import {
  ErrorSchema,
  FindingsCountQuerystring,
  FindingsCountSchema,
  FindingSchema,
  FindingsPageSchema,
  FindingsQuerystring,
  IdParams,
} from '../schemas.ts';
import { parseMacauTime } from '../time.ts';

export interface FindingsRouteOptions {
  /** the longest time range a query may span, in days (default 92) */
  readonly maxRangeDays?: number;
}

/**
 * The filter of a findings query, checked: times parsed as Macau time, the range bounded, and a concessionaire
 * outside the caller's scope answered as not found (the same answer as for one that does not exist).
 */
export function findingFilter(
  req: FastifyRequest,
  q: FindingsQuerystring,
  maxRangeDays: number,
  alertsOnly: boolean,
): { filter: FindingFilter; page: { limit: number; after: ReturnType<typeof decodeCursor> } } {
  const scope = scopeOf(req);
  if (q.concessionaire !== undefined && scope !== null && q.concessionaire !== scope)
    throw httpError(404, `no concessionaire "${q.concessionaire}" among those you may see`);
  const time = (name: 'from' | 'to'): number | undefined => {
    const text = q[name];
    if (text === undefined) return undefined;
    const ms = parseMacauTime(text);
    if (ms === null) throw httpError(400, `querystring/${name} "${text}" is not a real date or time`);
    return ms;
  };
  const from = time('from');
  const to = time('to');
  if (from !== undefined && to !== undefined) {
    if (to <= from) throw httpError(400, 'querystring/to must be after querystring/from');
    if (to - from > maxRangeDays * 86_400_000)
      throw httpError(400, `querystring/from..to spans more than ${maxRangeDays} days; narrow the range`);
  }
  let after = null;
  if (q.cursor !== undefined) {
    after = decodeCursor(q.cursor);
    if (after === null)
      throw httpError(400, 'querystring/cursor is not a cursor this API gave (use nextCursor as is)');
  }
  const { limit = 50, cursor: _c, from: _f, to: _t, ...equal } = q;
  return {
    filter: {
      ...equal,
      scope,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      alertsOnly,
    },
    page: { limit, after },
  };
}

export const pageOut = (page: FindingsPage) => ({
  items: page.items.map(present),
  total: page.total,
  nextCursor: page.next === null ? null : encodeCursor(page.next),
});

/**
 * Pages as sent, by the page the findings source answered: a source that keeps answers (the ClickHouse adapter,
 * until its table changes) hands back the same page object, which is then serialized once, not per request. The
 * page holds no caller's data beyond what its filter (scope included) already selected.
 */
const serialized = new WeakMap<FindingsPage, string>();

/**
 * Each finding as the page's schema serializes it, kept by the finding object: a source that keeps the rows it read
 * (the ClickHouse adapter, by where each row is stored) hands the same object to every page that holds it, so a page
 * of a filter never asked before is mostly findings serialized before. Kept no longer than the object is.
 */
const serializedItems = new WeakMap<FindingView, string>();

/**
 * A page as the route's response schema serializes it ({items, total, nextCursor}), its items serialized once per
 * finding object by the schema of an item (the same serializer the schema of the page uses for each element;
 * services/api/test/app.test.ts holds the two to the same bytes).
 */
export function pageBody(reply: FastifyReply, page: FindingsPage): string {
  const item = reply.compileSerializationSchema(FindingSchema as unknown as Record<string, unknown>) as (
    x: unknown,
  ) => string;
  const items = page.items.map((f) => {
    let json = serializedItems.get(f);
    if (json === undefined) {
      json = item(present(f));
      serializedItems.set(f, json);
    }
    return json;
  });
  const next = page.next === null ? null : encodeCursor(page.next);
  return `{"items":[${items.join(',')}],"total":${page.total},"nextCursor":${JSON.stringify(next)}}`;
}

export function findingsRoutes(app: FastifyInstance, ctx: ApiContext, o: FindingsRouteOptions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const maxRangeDays = o.maxRangeDays ?? 92;
  r.get(
    '/findings',
    {
      schema: {
        tags: ['findings'],
        summary: 'Findings, newest first, filtered and paged',
        querystring: FindingsQuerystring,
        response: { 200: FindingsPageSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (req, reply) => {
      const { filter, page } = findingFilter(req, req.query, maxRangeDays, false);
      const answer = await ctx.findings.list(filter, page);
      let body = serialized.get(answer);
      if (body === undefined) {
        body = pageBody(reply as FastifyReply, answer); // the route's own response schema, item by item
        serialized.set(answer, body);
      }
      // already serialized by the route's schema: sent as is
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(body);
    },
  );
  r.get(
    '/findings/counts',
    {
      schema: {
        tags: ['findings'],
        summary: 'How many findings match, by severity, check, casino, concessionaire, table or game',
        querystring: FindingsCountQuerystring,
        response: { 200: FindingsCountSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (req) => {
      const { by, ...query } = req.query;
      const { filter } = findingFilter(req, query, maxRangeDays, false);
      const counts = await ctx.findings.count(filter, by);
      return { by, total: counts.reduce((n, c) => n + c.count, 0), counts };
    },
  );
  r.get(
    '/findings/:findingId',
    {
      schema: {
        tags: ['findings'],
        summary: 'One finding',
        params: IdParams('findingId', 'the finding id'),
        response: { 200: FindingSchema, 404: ErrorSchema },
      },
    },
    async (req) => {
      const f = await ctx.findings.get(req.params.findingId, scopeOf(req));
      if (!f) throw httpError(404, `no finding ${req.params.findingId}`);
      return present(f);
    },
  );
}
