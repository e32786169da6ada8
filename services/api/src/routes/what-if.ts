/**
 * What-if: a period (or one round) re-derived under other readings of the law beside the register's, in scratch
 * (nothing is written to the store but the access record), as JSON or as a PDF that names the readings compared.
 * The caller's scope applies as everywhere: a compliance officer compares only their concessionaire's tables, and
 * a table, casino or round outside it is answered 404, as if it did not exist.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { existsSync } from 'node:fs';
import { Type } from 'typebox';
import PDFDocument from 'pdfkit';
import {
  compareShard,
  explainRoundWhatIf,
  periodDays,
  readingsCompared,
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

/** The longest period one what-if request covers, days (a month and a day). */
export const WHAT_IF_MAX_DAYS = 31;
/** Changed rounds an answer lists (all are counted). */
const MAX_CHANGED = 200;

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

export function whatIfRoutes(app: FastifyInstance, ctx: ApiContext): void {
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
          'A period re-derived under alternative readings beside the register’s: findings that appear or disappear, money by bet type (avos), the rounds that changed',
        querystring: Query,
        response: {
          200: {
            description: 'the what-if report (JSON; amounts in avos, times in UTC ms) or its PDF',
            content: { 'application/json': { schema: {} }, 'application/pdf': { schema: {} } },
          },
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
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
      const scope: WhatIfScope = {
        from: q.from,
        to: q.to,
        ...(q.casino !== undefined ? { casino: q.casino } : {}),
        ...(q.table !== undefined ? { tableId: q.table } : {}),
        ...(concessionaire !== null ? { concessionaire } : {}),
      };
      const t0 = performance.now();
      const partial = await compareShard(
        ctx.store,
        { index: 0, count: 1 },
        keys,
        scope,
        undefined,
        MAX_CHANGED,
      );
      if (q.casino !== undefined && partial.tablesInScope === 0) {
        await recordAccess(ctx, req, 'what-if', 'period', subject, 'not-found');
        throw httpError(404, `no casino ${q.casino}`);
      }
      const report: WhatIfReport = {
        ...partial,
        readings: readingsCompared(keys),
        scope,
        workers: 1,
        elapsedMs: performance.now() - t0,
      };
      await recordAccess(ctx, req, 'what-if', 'period', subject, 'ok');
      if (q.format === 'pdf') return sendPdf(reply, report);
      return report;
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
        x = await explainRoundWhatIf(ctx.store, roundId, keys);
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
      `${report.roundsCompared} rounds re-derived under both readings; ${report.roundsChanged} changed. Findings: ${report.findingsChosen} under the chosen readings, ${report.findingsAlternative} under the alternative.`,
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
