import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import {
  Counter,
  createLogger,
  createRegistry,
  logLevel,
  parsePort,
  startHealthServer,
} from '../src/index.ts';

test('the logger writes one JSON object per line with the service, an ISO time and the level by name', () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const log = createLogger({ service: 'replay', destination, env: { LOG_LEVEL: 'info' } });
  log.debug('not written at info');
  log.info({ events: 3 }, 'caught up');
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]!) as Record<string, unknown>;
  assert.equal(line.service, 'replay');
  assert.equal(line.level, 'info');
  assert.equal(line.msg, 'caught up');
  assert.equal(line.events, 3);
  assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('a log level comes from the flag, else LOG_LEVEL, else info; an unknown one is named with its source', () => {
  assert.equal(logLevel(undefined, {}), 'info');
  assert.equal(logLevel(undefined, { LOG_LEVEL: 'debug' }), 'debug');
  assert.equal(logLevel('warn', { LOG_LEVEL: 'debug' }), 'warn');
  assert.throws(() => logLevel(undefined, { LOG_LEVEL: 'loud' }), /LOG_LEVEL "loud" is not a log level/);
  assert.throws(() => logLevel('loud', {}), /--log-level "loud"/);
});

test('parsePort accepts 0–65535 and names the flag otherwise', () => {
  assert.equal(parsePort('9464', '--metrics-port'), 9464);
  assert.equal(parsePort('0', '--metrics-port'), 0);
  for (const bad of ['', '-1', '65536', '12.5', 'http'])
    assert.match(String(parsePort(bad, '--metrics-port')), /--metrics-port takes a port/);
});

test('the health server answers live, ready (200 or 503 with the reason) and the metrics', async () => {
  const registry = createRegistry('ingest');
  const events = new Counter({
    name: 'table_audit_test_events_total',
    help: 'events',
    labelNames: ['outcome'],
    registers: [registry],
  });
  events.inc({ outcome: 'accepted' }, 5);
  let ready = false;
  const server = await startHealthServer({
    port: 0,
    registry,
    ready: () => (ready ? { ready: true, details: { lag: 0n } } : { ready: false, reason: 'catching up' }),
  });
  try {
    const get = async (path: string, init?: RequestInit) => {
      const r = await fetch(`${server.url}${path}`, init);
      return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
    };
    assert.equal((await get('/health/live')).status, 200);
    const notReady = await get('/health/ready');
    assert.equal(notReady.status, 503);
    assert.deepEqual(JSON.parse(notReady.text), { status: 'not ready', reason: 'catching up' });
    ready = true;
    const isReady = await get('/health/ready');
    assert.equal(isReady.status, 200);
    assert.deepEqual(JSON.parse(isReady.text), { status: 'ready', details: { lag: '0' } });
    const metrics = await get('/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.type ?? '', /text\/plain/);
    assert.match(metrics.text, /table_audit_test_events_total\{outcome="accepted",service="ingest"\} 5/);
    assert.match(metrics.text, /process_cpu_user_seconds_total\{service="ingest"\}/);
    assert.equal((await get('/nope')).status, 404);
    assert.equal((await get('/metrics', { method: 'POST', body: 'x' })).status, 405);
  } finally {
    await server.close();
  }
});

test('a readiness check that throws or hangs answers 503 with why', async () => {
  const registry = createRegistry('replay');
  let mode: 'throw' | 'hang' = 'throw';
  const server = await startHealthServer({
    port: 0,
    registry,
    checkTimeoutMs: 100,
    ready: () => {
      if (mode === 'throw') throw new Error('store closed');
      return new Promise(() => undefined);
    },
  });
  try {
    let r = await fetch(`${server.url}/health/ready`);
    assert.equal(r.status, 503);
    assert.match(await r.text(), /the check failed: store closed/);
    mode = 'hang';
    r = await fetch(`${server.url}/health/ready`);
    assert.equal(r.status, 503);
    assert.match(await r.text(), /did not answer within 100 ms/);
  } finally {
    await server.close();
  }
});

test('a port already taken is refused, naming it', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    await assert.rejects(
      startHealthServer({ port, registry: createRegistry('x') }),
      new RegExp(`cannot serve health and metrics on 127\\.0\\.0\\.1:${port}: EADDRINUSE`),
    );
  } finally {
    taken.close();
  }
});
