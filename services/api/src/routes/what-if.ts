/**
 * What-if: a period (or one round) re-derived under other readings of the law beside the register's, in scratch
 * (nothing is written to the store but the access record), as JSON or as a PDF that names the readings compared.
 * The caller's scope applies as everywhere: a compliance officer compares only their concessionaire's tables, and
 * a table, casino or round outside it is answered 404, as if it did not exist.
 *
 * A period is compared as a run (what-if-runs.ts: a bounded queue, worker threads, progress, cancel): POST
 * /v1/what-if/runs answers at once; GET /v1/what-if submits a run and waits for it, for the clients that ask so.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { existsSync } from 'node:fs';
import { Type, type TSchema } from 'typebox';
import PDFDocument from 'pdfkit';
import {
  explainRoundWhatIf,
  keptReadingsSentence,
  periodDays,
  RoundNotFound,
  RoundNotVerified,
  WhatIfRequestError,
  type WhatIfReport,
  type WhatIfScope,
} from '@table-audit/replay';
import {
  ALTERNATIVE_READINGS,
  formatMacauTime,
  formatMop,
  INTERPRETATIONS,
  parseWhatIf,
  WHAT_IF,
  whatIfLabel,
  WhatIfSpecError,
} from '@table-audit/rules';
import { recordAccess, scopeOf, type ApiContext } from '../context.ts';
import { httpError } from '../errors.ts';
import { ErrorSchema } from '../schemas.ts';
import {
  runView,
  WhatIfQueueFull,
  WhatIfRunFinished,
  type WhatIfRun,
  type WhatIfRuns,
} from '../what-if-runs.ts';

/** The longest period one what-if request covers, days (a month and a day). */
export const WHAT_IF_MAX_DAYS = 31;
/** Changed rounds an answer lists (all are counted). */
export const WHAT_IF_MAX_CHANGED = 200;

const Query = Type.Object({
  readings: Type.String({
    minLength: 1,
    maxLength: 500,
    description:
      'ID=ALT[,ID=ALT2…]: the alternative reading of each interpretation named (GET /v1/what-if/readings)',
  }),
  from: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'first Macau date, YYYY-MM-DD' }),
  to: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'last Macau date, inclusive' }),
  casino: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  table: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')], { default: 'json' })),
});

/** A run's fields: as GET /v1/what-if's query, without the format (a run's PDF is asked of the run). */
const RunBody = Type.Object(
  {
    readings: Query.properties.readings,
    from: Query.properties.from,
    to: Query.properties.to,
    casino: Query.properties.casino,
    table: Query.properties.table,
  },
  { additionalProperties: false },
);

const RunParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A run as answered (what-if-runs.ts runView). */
const RunSchema = Type.Object({
  id: Type.String(),
  status: Type.Union(
    [
      Type.Literal('queued'),
      Type.Literal('running'),
      Type.Literal('done'),
      Type.Literal('failed'),
      Type.Literal('cancelled'),
      Type.Literal('interrupted'),
    ],
    {
      description:
        'queued | running | done | failed | cancelled | interrupted (the API stopped while the run was queued or running: it is not started again; submit it again)',
    },
  ),
  readings: Type.Array(Type.Object({ key: Type.String(), label: Type.String() })),
  scope: Type.Object({
    from: Type.String(),
    to: Type.String(),
    casino: Type.Optional(Type.String()),
    tableId: Type.Optional(Type.String()),
    concessionaire: Type.Optional(Type.String()),
  }),
  progress: Type.Object({
    eventsRead: Type.Integer({
      description: 'positions of the store’s log read through (averaged over the run’s workers)',
    }),
    eventsTotal: Nullable(Type.Integer({ description: 'the store’s head position when the run started' })),
    fraction: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  }),
  queuePosition: Nullable(Type.Integer({ description: 'while queued: 1 for the next run to start' })),
  queuedAt: Type.Integer({ description: 'UTC ms' }),
  startedAt: Nullable(Type.Integer({ description: 'UTC ms' })),
  finishedAt: Nullable(Type.Integer({ description: 'UTC ms' })),
  error: Nullable(Type.String({ description: 'why it failed' })),
  interrupted: Nullable(
    Type.Object(
      {
        at: Type.Integer({
          description: 'UTC ms: when the API stopped, or (a stop without close) its next start',
        }),
        reason: Type.String({ description: 'why, in words the client can show' }),
      },
      { description: 'status interrupted: when and why; otherwise null' },
    ),
  ),
  report: Type.Unknown({ description: 'once done: the report, as GET /v1/what-if answers it; before: null' }),
});

const RoundQuery = Type.Object({
  readings: Type.String({ minLength: 1, maxLength: 500 }),
});

function keysOf(spec: string): string[] {
  let keys: string[];
  try {
    keys = parseWhatIf(spec);
  } catch (e) {
    if (e instanceof WhatIfSpecError) throw httpError(400, e.message.replace('--what-if', 'readings'));
    throw e;
  }
  if (!keys.length) throw httpError(400, 'readings: name at least one alternative (ID=ALT)');
  return keys;
}

/** The first event of a table's stream says whose it is; null when there is no such table. */
async function tableOwner(ctx: ApiContext, tableId: string): Promise<string | null> {
  for await (const e of ctx.store.readStream(`table-${tableId}`, { maxCount: 1 })) {
    const h = (e.data as { header?: { concessionaire?: unknown } } | null)?.header;
    return typeof h?.concessionaire === 'string' ? h.concessionaire : null;
  }
  return null;
}

interface PeriodFields {
  readings: string;
  from: string;
  to: string;
  casino?: string | undefined;
  table?: string | undefined;
}

/**
 * A period's what-if as asked (query or body), checked before anything is compared or queued: the readings and
 * the period (400 naming the field), the table or casino within the caller's scope (404 as if it did not exist,
 * recorded). The scope compared carries the caller's concessionaire.
 */
async function periodRequest(
  ctx: ApiContext,
  req: FastifyRequest,
  q: PeriodFields,
): Promise<{ keys: string[]; scope: WhatIfScope; subject: string }> {
  const keys = keysOf(q.readings);
  try {
    periodDays(q.from, q.to, WHAT_IF_MAX_DAYS);
  } catch (e) {
    if (e instanceof WhatIfRequestError) throw httpError(400, e.message);
    throw e;
  }
  const concessionaire = scopeOf(req);
  const subject = `${q.from}..${q.to}${q.casino ? ` casino ${q.casino}` : ''}${q.table ? ` table ${q.table}` : ''}`;
  if (q.table !== undefined) {
    const owner = await tableOwner(ctx, q.table);
    if (owner === null || (concessionaire !== null && owner !== concessionaire)) {
      await recordAccess(ctx, req, 'what-if', 'period', subject, 'not-found');
      throw httpError(404, `no table ${q.table}`);
    }
  }
  if (q.casino !== undefined && !(await ctx.index.hasCasino(q.casino, concessionaire))) {
    await recordAccess(ctx, req, 'what-if', 'period', subject, 'not-found');
    throw httpError(404, `no casino ${q.casino}`);
  }
  const scope: WhatIfScope = {
    from: q.from,
    to: q.to,
    ...(q.casino !== undefined ? { casino: q.casino } : {}),
    ...(q.table !== undefined ? { tableId: q.table } : {}),
    ...(concessionaire !== null ? { concessionaire } : {}),
  };
  return { keys, scope, subject };
}

/** 503 with Retry-After: the queue of runs is full. */
const queueFull = (reply: FastifyReply, e: WhatIfQueueFull) =>
  reply
    .code(503)
    .header('retry-after', String(e.retryAfterSeconds))
    .send({ statusCode: 503, error: 'Service Unavailable', message: e.message });

export function whatIfRoutes(app: FastifyInstance, ctx: ApiContext, runs: WhatIfRuns): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/what-if/readings',
    {
      schema: {
        tags: ['what-if'],
        summary: 'Every interpretation: whether its alternative reading can be selected, and why not',
      },
    },
    async () =>
      INTERPRETATIONS.map((i) => {
        const w = WHAT_IF[i.id]!;
        return {
          id: i.id,
          ruleSets: i.ruleSets,
          question: i.question,
          reading: i.reading,
          alternative: i.alternative,
          articles: i.articles,
          selectable: ALTERNATIVE_READINGS.filter((a) => a.id === i.id).map((a) => ({
            key: a.key,
            label: whatIfLabel(a.key),
            effect: a.effect,
          })),
          status: w.status,
          reason: w.status === 'implemented' ? null : w.reason,
        };
      }),
  );

  r.get(
    '/what-if',
    {
      schema: {
        tags: ['what-if'],
        summary:
          'A period re-derived under alternative readings beside the register’s, waited for: findings that appear or disappear, money by bet type (avos), the rounds that changed. Compared off the main thread as a run (POST /v1/what-if/runs is the way for long periods: this request lasts as long as the comparison)',
        querystring: Query,
        response: {
          200: {
            description: 'the what-if report (JSON; amounts in avos, times in UTC ms) or its PDF',
            content: { 'application/json': { schema: {} }, 'application/pdf': { schema: {} } },
          },
          400: ErrorSchema,
          404: ErrorSchema,
          500: ErrorSchema,
          503: ErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const p = await periodRequest(ctx, req, req.query);
      let run: WhatIfRun;
      try {
        run = runs.submit({ alternatives: p.keys, scope: p.scope, owner: scopeOf(req), kept: false });
      } catch (e) {
        if (e instanceof WhatIfQueueFull) {
          await recordAccess(ctx, req, 'what-if', 'period', p.subject, 'unavailable');
          return queueFull(reply, e);
        }
        throw e;
      }
      // a caller who went away does not leave the comparison running
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished && (run.status === 'queued' || run.status === 'running'))
          void runs.cancel(run).catch(() => undefined);
      });
      await run.finished;
      if (run.status !== 'done') {
        await recordAccess(ctx, req, 'what-if', 'period', p.subject, run.status);
        throw httpError(
          500,
          `the what-if ${run.status}: ${run.error ?? run.interrupted?.reason ?? 'cancelled'}`,
        );
      }
      await recordAccess(ctx, req, 'what-if', 'period', p.subject, 'ok');
      if (req.query.format === 'pdf') return sendPdf(reply, run.report!);
      return run.report!;
    },
  );

  r.post(
    '/what-if/runs',
    {
      schema: {
        tags: ['what-if'],
        summary:
          'Starts a what-if over a period as a run: answered at once with the run (202, Location), compared in worker threads, watched with GET /v1/what-if/runs/{id}',
        body: RunBody,
        response: { 202: RunSchema, 400: ErrorSchema, 404: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (req, reply) => {
      const p = await periodRequest(ctx, req, req.body);
      let run: WhatIfRun;
      try {
        run = runs.submit({ alternatives: p.keys, scope: p.scope, owner: scopeOf(req) });
      } catch (e) {
        if (e instanceof WhatIfQueueFull) {
          await recordAccess(ctx, req, 'what-if.run.create', 'period', p.subject, 'unavailable');
          return queueFull(reply, e);
        }
        throw e;
      }
      await recordAccess(ctx, req, 'what-if.run.create', 'what-if-run', run.id, 'ok');
      return reply.code(202).header('location', `/v1/what-if/runs/${run.id}`).send(runView(runs, run));
    },
  );

  r.get(
    '/what-if/runs/:id',
    {
      schema: {
        tags: ['what-if'],
        summary:
          'A what-if run: its status, progress and times, and once done its report (as GET /v1/what-if) or, with format=pdf, its PDF',
        params: RunParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')], { default: 'json' })),
        }),
        response: {
          200: {
            description: 'the run (JSON: the report inside once done) or, with format=pdf, the report’s PDF',
            content: { 'application/json': { schema: RunSchema }, 'application/pdf': { schema: {} } },
          },
          404: ErrorSchema,
          409: ErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const run = runs.get(req.params.id, scopeOf(req));
      if (!run) {
        await recordAccess(ctx, req, 'what-if.run.read', 'what-if-run', req.params.id, 'not-found');
        throw httpError(404, `no what-if run ${req.params.id}`);
      }
      if (req.query.format === 'pdf') {
        if (run.status !== 'done') {
          await recordAccess(ctx, req, 'what-if.run.export', 'what-if-run', run.id, 'conflict');
          throw httpError(
            409,
            `what-if run ${run.id} is ${run.status}: its PDF exists once it is done${run.status === 'queued' || run.status === 'running' ? ' (ask again later)' : ''}`,
          );
        }
        await recordAccess(ctx, req, 'what-if.run.export', 'what-if-run', run.id, 'ok');
        return sendPdf(reply, run.report!);
      }
      await recordAccess(ctx, req, 'what-if.run.read', 'what-if-run', run.id, 'ok');
      return runView(runs, run);
    },
  );

  r.delete(
    '/what-if/runs/:id',
    {
      schema: {
        tags: ['what-if'],
        summary:
          'Cancels a queued or running what-if run (a running one’s worker threads are ended before the answer)',
        params: RunParams,
        response: { 200: RunSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (req) => {
      const run = runs.get(req.params.id, scopeOf(req));
      if (!run) {
        await recordAccess(ctx, req, 'what-if.run.cancel', 'what-if-run', req.params.id, 'not-found');
        throw httpError(404, `no what-if run ${req.params.id}`);
      }
      try {
        await runs.cancel(run);
      } catch (e) {
        if (e instanceof WhatIfRunFinished) {
          await recordAccess(ctx, req, 'what-if.run.cancel', 'what-if-run', run.id, 'conflict');
          throw httpError(409, e.message);
        }
        throw e;
      }
      await recordAccess(ctx, req, 'what-if.run.cancel', 'what-if-run', run.id, 'ok');
      return runView(runs, run);
    },
  );

  r.get(
    '/what-if/rounds/:roundId',
    {
      schema: {
        tags: ['what-if'],
        summary: 'One round derived under the register’s readings and under the alternatives, side by side',
        params: Type.Object({ roundId: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: RoundQuery,
        response: {
          200: Type.Unknown({
            description:
              'both derivations (as `table-audit replay ROUND_ID --json`) and the readings compared',
          }),
          400: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
        },
      },
    },
    async (req) => {
      const keys = keysOf(req.query.readings);
      const { roundId } = req.params;
      const place = await ctx.index.round(roundId, scopeOf(req));
      if (!place) {
        await recordAccess(ctx, req, 'what-if.round', 'round', roundId, 'not-found');
        throw httpError(404, `no round ${roundId}`);
      }
      let x;
      try {
        x = await explainRoundWhatIf(ctx.store, roundId, keys, undefined, place.tableId);
      } catch (e) {
        if (e instanceof RoundNotFound) throw httpError(404, e.message);
        // its table's chain breaks where the round's derivation reads (explainRound's RoundNotVerified)
        if (e instanceof RoundNotVerified) throw httpError(409, e.message);
        throw e;
      }
      await recordAccess(ctx, req, 'what-if.round', 'round', roundId, 'ok');
      return {
        roundId,
        tableId: place.tableId,
        casino: place.casino,
        concessionaire: place.concessionaire,
        readings: x.readings,
        chosen: { derivation: x.chosen.json, text: x.chosen.text },
        alternative: { derivation: x.alternative.json, text: x.alternative.text },
      };
    },
  );
}

const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

/** The report as a printable PDF: the readings compared (PT and ZH), the findings, the money, the rounds. */
async function sendPdf(reply: FastifyReply, report: WhatIfReport) {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `What-if: ${report.readings.map((x) => whatIfLabel(x.key)).join(', ')}` },
  });
  const zh = existsSync(CJK_FONT);
  if (zh) doc.registerFont('zh', CJK_FONT, 'WenQuanYiMicroHei');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const s = report.scope;
  doc.fontSize(16).text(`table-audit what-if: ${report.readings.map((x) => whatIfLabel(x.key)).join(', ')}`);
  doc
    .fontSize(10)
    .text(
      `Rounds of ${s.from} to ${s.to} (Macau dates)${s.casino ? `, casino ${s.casino}` : ''}${s.tableId ? `, table ${s.tableId}` : ''}${s.concessionaire ? `, concessionaire ${s.concessionaire}` : ''}; money in MOP`,
    );
  doc.moveDown(0.5).fontSize(12).text('Readings compared');
  for (const x of report.readings) {
    doc.fontSize(10).text(`${whatIfLabel(x.key)}: ${x.question}`);
    doc.text(`Chosen reading (the register): ${x.chosen}`);
    doc.text(`Alternative reading: ${x.alternative}`);
    for (const a of x.articles) {
      doc.fontSize(9).text(`${a.key} (PT): ${a.pt ?? 'text not held'}`);
      if (a.zh && zh) doc.font('zh').text(`${a.key} (ZH): ${a.zh}`).font('Helvetica');
      else if (a.zh)
        doc.text(`${a.key} (ZH): not printed (no Chinese font on this server; see the JSON export)`);
    }
    doc.moveDown(0.3);
  }
  doc.moveDown(0.5).fontSize(12).text('Summary');
  doc
    .fontSize(10)
    .text(
      `${report.roundsCompared} rounds ${report.source.kind === 'kept' ? `compared under both readings, ${keptReadingsSentence(report.source)}` : 're-derived under both readings'}; ${report.roundsChanged} changed. Findings: ${report.findingsChosen} under the chosen readings, ${report.findingsAlternative} under the alternative.`,
    );
  for (const t of report.tablesNotVerified)
    doc.text(
      `Table ${t.tableId} compared only up to revision ${t.revision - 1}: its stored record failed verification at revision ${t.revision} of ${t.stream} (${t.reason}).`,
    );
  const moved = report.findings.filter((f) => f.appeared || f.disappeared);
  doc
    .moveDown(0.5)
    .fontSize(12)
    .text('Findings that appear (+) or disappear (-), by check, casino and table');
  doc.fontSize(9);
  if (!moved.length) doc.text('None.');
  for (const f of moved.slice(0, 200))
    doc.text(`${f.checkId}  ${f.casino}  ${f.tableId}  +${f.appeared} -${f.disappeared}`);
  doc.moveDown(0.5).fontSize(12).text('Money by bet type (MOP)');
  doc.fontSize(9);
  const money = report.money.filter((m) => m.linesChanged);
  if (!money.length) doc.text('No bet is settled differently.');
  for (const m of money)
    doc.text(
      `${m.betType}: ${m.linesChanged} bets settled differently; winnings ${formatMop(m.chosenPaidAvos)} -> ${formatMop(m.alternativePaidAvos)}; players' net ${formatMop(m.chosenNetAvos)} -> ${formatMop(m.alternativeNetAvos)}`,
    );
  doc
    .moveDown(0.5)
    .fontSize(12)
    .text(`Rounds that changed (first ${Math.min(50, report.changed.length)})`);
  doc.fontSize(9);
  for (const c of report.changed.slice(0, 50))
    doc.text(
      `${c.roundId}  ${c.tableId}  ${formatMacauTime(c.roundStartTime)}: ${[...c.findingsAppeared.map((x) => `+${x}`), ...c.findingsDisappeared.map((x) => `-${x}`), ...c.lines.map((l) => `seat ${l.seat} ${l.betType} ${l.chosen?.outcome ?? '-'}->${l.alternative?.outcome ?? '-'}`)].join('; ')}`,
    );
  doc.end();
  const pdf = await done;
  const name = `what-if-${report.readings.map((x) => whatIfLabel(x.key).replace(/[^A-Za-z0-9]/g, '')).join('-')}-${s.from}-${s.to}`;
  return reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="${name}.pdf"`)
    .send(pdf);
}
