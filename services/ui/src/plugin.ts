/**
 * The web UI as a Fastify plugin for the API's /ui slot: server-rendered HTML pages over the API's own /v1 routes
 * (called in process with the caller's token, so the API decides what anyone may see or do), plain HTML forms for
 * every action (it works without script), and one small script module for the language switch.
 *
 * The token a user pastes on the login page is kept in an HttpOnly, SameSite=Strict cookie scoped to /ui; a form
 * posted from another origin is refused.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiClient,
  type AlertJson,
  type FindingJson,
  type Me,
  type Page,
  type ReplayJson,
} from './api-client.ts';
import { html, query, type Html } from './html.ts';
import { errorPage, page, UI_PREFIX } from './layout.ts';
import { alertPage } from './pages/alert.ts';
import { alertInbox, filtersOf, incidentSearch, type Counts } from './pages/findings.ts';
import type { ChartJson } from './charts.ts';
import { langOf, roundPage } from './pages/round.ts';
import { registerRoundReadingsPage } from './pages/round-readings.ts';
import { registerWhatIfPage } from './pages/what-if.ts';

export const SESSION_COOKIE = 'ta_session';
/** a JWT is far shorter; anything longer is not a token */
const MAX_TOKEN = 8192;
const MAX_FORM = 16 * 1024;

const ASSETS: Record<string, { type: string; body: string }> = {
  'ui.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('./assets/ui.css', import.meta.url), 'utf8'),
  },
  'ui.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('./assets/ui.js', import.meta.url), 'utf8'),
  },
};

/** The value of one cookie of a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header || header.length > 16 * 1024) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name)
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null; // not a cookie this UI set (a stray % sequence): no session
      }
  }
  return null;
}

const sessionCookie = (req: FastifyRequest, token: string, maxAge?: number): string =>
  [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    `Path=${UI_PREFIX}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(req.protocol === 'https' ? ['Secure'] : []),
    ...(maxAge === undefined ? [] : [`Max-Age=${maxAge}`]),
  ].join('; ');

const send = (reply: FastifyReply, status: number, body: Html) =>
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    )
    .send(body.text);

function loginPage(problem: string | null): Html {
  return page({
    title: 'Log in',
    me: null,
    section: 'login',
    body: html`<h1>Log in</h1>
      ${problem ? html`<p class="error" role="alert" data-testid="error-message">${problem}</p>` : ''}
      <form method="post" action="${UI_PREFIX}/login" class="login">
        <p>
          <label for="token">Your API token</label><br />
          <textarea
            id="token"
            name="token"
            rows="5"
            cols="70"
            required
            maxlength="${MAX_TOKEN}"
            autocomplete="off"
            spellcheck="false"
          ></textarea>
        </p>
        <p><button type="submit">Log in</button></p>
      </form>
      <p>
        Get a token with <code>table-audit token --role ROLE [--concessionaire NAME]</code> (roles: inspector,
        compliance_officer, auditor). It is kept for this browser session only, in a cookie scripts cannot
        read.
      </p>`,
  });
}

interface Session {
  readonly api: ApiClient;
  readonly me: Me;
}

export interface UiOptions {
  /** the instance whose /v1 routes the pages call (the root app; by default the one the plugin is registered in) */
  readonly api?: FastifyInstance;
}

/** The UI plugin; register it with the API's `ui` option (buildApp registers it under /ui). */
export function uiPlugin(o: UiOptions = {}): FastifyPluginAsync {
  return async (app) => {
    const root = o.api ?? app;
    // forms arrive url-encoded; parsed here only, bounded
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: MAX_FORM },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    /** The caller's session from the cookie, or null (and a redirect to the login page) when there is none. */
    const session = async (req: FastifyRequest, reply: FastifyReply): Promise<Session | null> => {
      const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
      if (token) {
        const api = new ApiClient(root, token);
        const me = await api.get<Me>('/v1/me');
        if (me.ok) return { api, me: me.body };
        await reply
          .code(303)
          .header('set-cookie', sessionCookie(req, '', 0))
          .redirect(`${UI_PREFIX}/login${query({ problem: me.message })}`, 303);
        return null;
      }
      await reply.redirect(`${UI_PREFIX}/login`, 303);
      return null;
    };
    /** An API refusal as a page: 401 back to the login page, anything else its status with the API's message. */
    const failed = (
      req: FastifyRequest,
      reply: FastifyReply,
      me: Me,
      a: { status: number; message: string },
    ) =>
      a.status === 401
        ? reply
            .header('set-cookie', sessionCookie(req, '', 0))
            .redirect(`${UI_PREFIX}/login${query({ problem: a.message })}`, 303)
        : send(reply, a.status, errorPage(me, a.status, a.message));
    /** A POST from a page of another origin is refused (the SameSite cookie already keeps most away). */
    const sameOrigin = (req: FastifyRequest): boolean => {
      const origin = req.headers.origin;
      if (origin === undefined || origin === 'null') return origin === undefined;
      try {
        return new URL(origin).host === req.headers.host;
      } catch {
        return false;
      }
    };

    app.get('/assets/:name', async (req, reply) => {
      const asset = ASSETS[(req.params as { name: string }).name];
      if (!asset) return send(reply, 404, errorPage(null, 404, 'no such file'));
      return reply.header('content-type', asset.type).header('cache-control', 'no-cache').send(asset.body);
    });

    app.get('/', async (req, reply) => {
      const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
      return reply.redirect(`${UI_PREFIX}/${token ? 'alerts' : 'login'}`, 303);
    });

    app.get('/login', async (req, reply) => {
      const { problem } = req.query as { problem?: string };
      return send(reply, 200, loginPage(typeof problem === 'string' ? problem.slice(0, 500) : null));
    });

    app.post('/login', async (req, reply) => {
      if (!sameOrigin(req))
        return send(reply, 403, errorPage(null, 403, 'a login from another site is refused'));
      const token = String((req.body as Record<string, unknown> | null)?.['token'] ?? '').trim();
      if (token === '') return send(reply, 400, loginPage('Paste a token first.'));
      if (token.length > MAX_TOKEN)
        return send(
          reply,
          400,
          loginPage(`That is ${token.length} characters; a token has at most ${MAX_TOKEN}.`),
        );
      const me = await new ApiClient(root, token).get<Me>('/v1/me');
      if (!me.ok) return send(reply, 401, loginPage(`The API refused this token: ${me.message}`));
      return reply.header('set-cookie', sessionCookie(req, token)).redirect(`${UI_PREFIX}/alerts`, 303);
    });

    app.post('/logout', async (req, reply) => {
      if (!sameOrigin(req))
        return send(reply, 403, errorPage(null, 403, 'a logout from another site is refused'));
      return reply.header('set-cookie', sessionCookie(req, '', 0)).redirect(`${UI_PREFIX}/login`, 303);
    });

    app.get('/alerts', async (req, reply) => {
      const s = await session(req, reply);
      if (!s) return reply;
      const q = req.query as Record<string, unknown>;
      const f = filtersOf(q, true);
      const cursor = typeof q['cursor'] === 'string' ? q['cursor'] : undefined;
      const list = await s.api.get<
        Page<{ alertId: string; finding: FindingJson; state: AlertJson['state'] }>
      >(`/v1/alerts${query({ ...f, cursor })}`);
      if (!list.ok) return failed(req, reply, s.me, list);
      return send(reply, 200, alertInbox(s.me, f, list.body));
    });

    app.get('/incidents', async (req, reply) => {
      const s = await session(req, reply);
      if (!s) return reply;
      const q = req.query as Record<string, unknown>;
      const f = filtersOf(q);
      const cursor = typeof q['cursor'] === 'string' ? q['cursor'] : undefined;
      const list = await s.api.get<Page<FindingJson>>(`/v1/findings${query({ ...f, cursor })}`);
      if (!list.ok) return failed(req, reply, s.me, list);
      // the charts: the dashboards' panel SQL, run by the API within the caller's scope (503: no ClickHouse)
      const range = f.from && f.to ? { from: f.from, to: f.to } : {};
      const overTime = await s.api.get<ChartJson>(`/v1/charts/findings-over-time${query(range)}`);
      const discrepancies = await s.api.get<ChartJson>(`/v1/charts/payout-discrepancies${query(range)}`);
      let charts: { overTime: ChartJson; discrepancies: ChartJson } | { unavailable: string };
      if (overTime.ok && discrepancies.ok)
        charts = { overTime: overTime.body, discrepancies: discrepancies.body };
      else {
        const refused = !overTime.ok ? overTime : discrepancies.ok ? null : discrepancies;
        if (refused && refused.status !== 503) return failed(req, reply, s.me, refused);
        charts = { unavailable: `No charts: ${refused?.message ?? ''}` };
      }
      const byCheck = await s.api.get<Counts>(`/v1/findings/counts${query({ ...f, by: 'checkId' })}`);
      if (!byCheck.ok) return failed(req, reply, s.me, byCheck);
      byCheck.body.counts.sort((a, b) => b.count - a.count);
      return send(reply, 200, incidentSearch(s.me, f, list.body, charts, byCheck.body));
    });

    app.get('/alerts/:alertId', async (req, reply) => {
      const s = await session(req, reply);
      if (!s) return reply;
      const { alertId } = req.params as { alertId: string };
      const a = await s.api.get<AlertJson>(`/v1/alerts/${encodeURIComponent(alertId)}`);
      if (!a.ok) return failed(req, reply, s.me, a);
      return send(reply, 200, alertPage(s.me, a.body, null));
    });

    app.post('/alerts/:alertId/:action', async (req, reply) => {
      const s = await session(req, reply);
      if (!s) return reply;
      const { alertId, action } = req.params as { alertId: string; action: string };
      if (!sameOrigin(req))
        return send(reply, 403, errorPage(s.me, 403, 'a form posted from another site is refused'));
      const form = (req.body ?? {}) as Record<string, string>;
      const body = commandBody(action, form);
      if (body === null) return send(reply, 404, errorPage(s.me, 404, `no action "${action}" on an alert`));
      const path = `/v1/alerts/${encodeURIComponent(alertId)}`;
      const done = await s.api.post<AlertJson>(`${path}/${action}`, body);
      if (done.ok) return reply.redirect(`${UI_PREFIX}/alerts/${encodeURIComponent(alertId)}`, 303);
      if (done.status === 401 || done.status === 404) return failed(req, reply, s.me, done);
      // refused (403, 409, 400): the alert again, as it is now, with why
      const now = await s.api.get<AlertJson>(path);
      if (!now.ok) return failed(req, reply, s.me, now);
      return send(reply, done.status, alertPage(s.me, now.body, `Not done: ${done.message}`));
    });

    // evidence exports, passed through as the API gives them (it records each as the caller's access)
    for (const kind of ['rounds', 'alerts'] as const)
      app.get(`/${kind}/:id/evidence`, async (req, reply) => {
        const s = await session(req, reply);
        if (!s) return reply;
        const { id } = req.params as { id: string };
        const format = (req.query as { format?: unknown }).format === 'pdf' ? 'pdf' : 'json';
        const got = await s.api.download(`/v1/${kind}/${encodeURIComponent(id)}/evidence?format=${format}`);
        if (got.status !== 200) {
          let message = `the API answered ${got.status}`;
          try {
            message = (JSON.parse(got.body.toString('utf8')) as { message: string }).message ?? message;
          } catch {
            // not JSON: the status says it
          }
          return failed(req, reply, s.me, { status: got.status, message });
        }
        for (const h of ['content-type', 'content-disposition'] as const)
          if (got.headers[h] !== undefined) reply.header(h, got.headers[h]);
        return reply.header('cache-control', 'no-store').send(got.body);
      });

    app.get('/rounds', async (req, reply) => {
      const { roundId } = req.query as { roundId?: string };
      if (typeof roundId !== 'string' || roundId.trim() === '')
        return send(reply, 400, errorPage(null, 400, 'give a round id'));
      return reply.redirect(`${UI_PREFIX}/rounds/${encodeURIComponent(roundId.trim())}`, 303);
    });

    app.get('/rounds/:roundId', async (req, reply) => {
      const s = await session(req, reply);
      if (!s) return reply;
      const { roundId } = req.params as { roundId: string };
      const r = await s.api.get<ReplayJson>(`/v1/rounds/${encodeURIComponent(roundId)}/replay`);
      if (!r.ok) return failed(req, reply, s.me, r);
      return send(reply, 200, roundPage(s.me, r.body, langOf((req.query as { lang?: unknown }).lang)));
    });

    registerWhatIfPage(app, { session, failed, send, sameOrigin });
    registerRoundReadingsPage(app, { session, failed, send });

    app.setNotFoundHandler(async (req, reply) =>
      send(reply, 404, errorPage(null, 404, `no page ${req.url.slice(0, 200)}`)),
    );
  };
}

/** The API body of a workflow form, or null for an action there is none of (empty optional fields left out). */
export function commandBody(action: string, form: Record<string, string>): Record<string, unknown> | null {
  const text = (name: string) => (form[name] ?? '').trim();
  switch (action) {
    case 'acknowledge':
      return text('note') ? { note: text('note') } : {};
    case 'assign':
      return { assignee: text('assignee') || null };
    case 'comment':
      return { comment: text('comment') };
    case 'resolve':
      return { disposition: text('disposition'), comment: text('comment') };
    case 'reopen':
      return { reason: text('reason') };
    default:
      return null;
  }
}
