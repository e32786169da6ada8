/**
 * The incident list's page is sent as its response schema serializes it: the route assembles the page from each
 * finding serialized once (routes/findings.ts pageBody), and this holds the bytes to what Fastify's serializer of
 * the page schema makes of the same page — every page of several filters over every game (a Mah-Jong finding carries
 * its scope note), and a page holding findings serialized for an earlier page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { pageBody, pageOut } from '../src/routes/findings.ts';
import { FindingsPageSchema } from '../src/schemas.ts';
import { StoreIndex } from '../src/store-index.ts';
import type { Cursor, FindingFilter, FindingsPage } from '../src/findings-query.ts';
import { everyOtherGame, simulatedStore } from './fixture.ts';

let store: SqliteEventStore;
let index: StoreIndex;
let app: FastifyInstance;
let page: FindingsPage;

before(async () => {
  ({ store } = await simulatedStore({ tables: 3, roundsPerTable: 12, otherGames: everyOtherGame(1) }));
  index = new StoreIndex(store);
  await index.refresh();
  app = Fastify();
  const schema = { response: { 200: FindingsPageSchema } };
  app.get('/by-schema', { schema }, async () => pageOut(page));
  app.get('/by-item', { schema }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(pageBody(reply, page)),
  );
  await app.ready();
});
after(async () => {
  await app.close();
  await store.close();
});

describe('a page of the incident list as sent', () => {
  it('is byte for byte what the page schema’s serializer makes of it, on every page of every filter', async () => {
    const filters: FindingFilter[] = [
      { scope: null },
      { scope: null, game: 'MAHJONG' },
      { scope: null, game: 'CRAPS' },
      { scope: 'SJM Resorts' },
      { scope: null, severity: 'high' },
      { scope: null, alertsOnly: true },
    ];
    let pages = 0;
    let mahjong = 0;
    for (const filter of filters)
      for (const limit of [7, 50]) {
        let cursor: Cursor | null = null;
        do {
          page = await index.list(filter, { limit, after: cursor });
          const [a, b] = await Promise.all([app.inject('/by-schema'), app.inject('/by-item')]);
          assert.equal(a.statusCode, 200);
          assert.equal(
            b.body,
            a.body,
            `${JSON.stringify(filter)} limit ${limit} after ${JSON.stringify(cursor)}`,
          );
          assert.equal(b.headers['content-type'], a.headers['content-type']);
          mahjong += page.items.filter((f) => f.game === 'MAHJONG').length;
          pages++;
          cursor = page.next;
        } while (cursor !== null);
      }
    assert.ok(pages > 20, `${pages} pages`);
    assert.ok(mahjong > 0, 'Mah-Jong findings (with their scope note) among them');
    // an empty page too
    page = await index.list({ scope: 'no such concessionaire' }, { limit: 5, after: null });
    assert.equal((await app.inject('/by-item')).body, (await app.inject('/by-schema')).body);
  });
});
