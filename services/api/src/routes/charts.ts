/** Chart series from the dashboards' panel SQL, scoped to the caller's concessionaire (see charts.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { formatMacauTime } from '@table-audit/rules';
import { CHART_NAMES, type ChartName } from '../charts.ts';
import { scopeOf, type ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { ErrorSchema, MacauTime } from '../schemas.ts';
import { parseMacauTime } from '../time.ts';

const ChartParams = Type.Object(
  {
    chart: Type.Union(
      CHART_NAMES.map((c) => Type.Literal(c)),
      { description: 'which chart' },
    ),
  },
  { additionalProperties: false },
);
const ChartQuerystring = Type.Object(
  {
    from: Type.Optional(MacauTime('the range starts at')),
    to: Type.Optional(MacauTime('the range ends before')),
  },
  { additionalProperties: false },
);
const ChartSchema = Type.Object({
  chart: Type.String(),
  panel: Type.Object({ id: Type.String(), title: Type.String(), description: Type.String() }),
  unit: Type.Union([Type.Literal('findings'), Type.Literal('avos')]),
  from: Type.Integer({ description: 'UTC milliseconds' }),
  to: Type.Integer({ description: 'UTC milliseconds' }),
  fromMacau: Type.String({ description: 'from, in Macau time (UTC+8)' }),
  toMacau: Type.String({ description: 'to, in Macau time (UTC+8)' }),
  intervalSeconds: Type.Integer(),
  source: Type.String(),
  series: Type.Array(
    Type.Object({
      name: Type.String(),
      points: Type.Array(
        Type.Object({ time: Type.Integer({ description: 'bucket start, UTC ms' }), value: Type.Number() }),
      ),
    }),
  ),
});

export function chartRoutes(app: FastifyInstance, ctx: ApiContext, o: { maxRangeDays?: number }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const maxRangeDays = o.maxRangeDays ?? 92;
  r.get(
    '/charts/:chart',
    {
      schema: {
        tags: ['charts'],
        summary:
          "A chart's series, from the same SQL as the DICJ overview dashboard's panel, within the caller's scope",
        params: ChartParams,
        querystring: ChartQuerystring,
        response: { 200: ChartSchema, 400: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (req) => {
      if (!ctx.charts)
        throw httpError(
          503,
          "charts are drawn from ClickHouse (the dashboards' SQL) and this API serves findings from the store index; start it with table-audit serve --findings clickhouse",
        );
      const { from: fromText, to: toText } = req.query;
      if ((fromText === undefined) !== (toText === undefined))
        throw httpError(400, 'querystring/from and querystring/to go together: give both, or neither');
      let range: { from: number; to: number } | undefined;
      if (fromText !== undefined && toText !== undefined) {
        const from = parseMacauTime(fromText);
        const to = parseMacauTime(toText);
        if (from === null) throw httpError(400, `querystring/from "${fromText}" is not a real date or time`);
        if (to === null) throw httpError(400, `querystring/to "${toText}" is not a real date or time`);
        if (to <= from) throw httpError(400, 'querystring/to must be after querystring/from');
        if (to - from > maxRangeDays * 86_400_000)
          throw httpError(400, `querystring/from..to spans more than ${maxRangeDays} days; narrow the range`);
        range = { from, to };
      }
      const s = await ctx.charts.series(req.params.chart as ChartName, { scope: scopeOf(req), ...range });
      return {
        ...s,
        fromMacau: formatMacauTime(s.from),
        toMacau: formatMacauTime(s.to),
        source: ctx.charts.description,
      };
    },
  );
}
