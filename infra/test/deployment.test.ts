/**
 * The production files (infra/compose, infra/k8s, the Dockerfile) are checked here, as CI runs them: parsed, schema-
 * checked, every image pinned, every table-audit container's environment the configuration the code reads. They
 * are not started (no container runtime in CI). Each check is shown to fail on a broken copy.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  composeProblems,
  configurationListProblems,
  dockerfileImages,
  grafanaVariables,
  imageProblem,
  k8sDocuments,
  k8sProblems,
  readYaml,
  ROOT,
  variablesInSources,
} from './checks.ts';
import { CONFIGURATION, environmentProblems } from './configuration.ts';

const composeFile = 'infra/compose/compose.yaml';
const compose = () => readYaml(join(ROOT, composeFile))[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const envExample = readFileSync(join(ROOT, 'infra/compose/.env.example'), 'utf8');

describe('the configuration the code reads', () => {
  it('is listed once, in infra/test/configuration.ts, and the list matches the sources', () => {
    const found = variablesInSources();
    assert.ok(found.has('CLICKHOUSE_URL') && found.has('TABLE_AUDIT_STORE'), 'the source scan finds nothing');
    assert.deepEqual(configurationListProblems(found), []);
  });

  it('fails when the code reads a variable the list lacks, or the list names one nobody reads', () => {
    const found = variablesInSources();
    found.set('TABLE_AUDIT_NEW_SETTING', new Set(['services/x/src/y.ts']));
    const list = CONFIGURATION.filter((v) => v.name !== 'LOG_LEVEL').concat({
      ...CONFIGURATION[0]!,
      name: 'TABLE_AUDIT_GONE',
    });
    const problems = configurationListProblems(found, list).join('\n');
    assert.match(problems, /services\/x\/src\/y\.ts reads TABLE_AUDIT_NEW_SETTING/);
    assert.match(problems, /reads LOG_LEVEL, which infra\/test\/configuration\.ts does not list/);
    assert.match(problems, /lists TABLE_AUDIT_GONE, which no source reads/);
  });

  it('names what is wrong with one container: unknown, not read by its role, required and missing', () => {
    const problems = environmentProblems('f: api', 'api', [
      'TABLE_AUDIT_STORE',
      'CLICKHOUSE_URI',
      'TABLE_AUDIT_SIGNING_KEY',
    ]);
    assert.deepEqual(problems, [
      'f: api: CLICKHOUSE_URI is given but no code reads it (see infra/test/configuration.ts)',
      'f: api: TABLE_AUDIT_SIGNING_KEY is given but the api (table-audit serve) does not read it',
      'f: api: TABLE_AUDIT_ANCHORS is missing; the api needs it (the directory of the signed anchors (anchors.jsonl, append-only, one writer))',
      "f: api: TABLE_AUDIT_TOKEN_KEY is missing; the api needs it (the Ed25519 private key (PEM file) that signs and verifies the API's tokens (JWT, EdDSA))",
    ]);
  });
});

describe('images', () => {
  it('are pinned by exact version', () => {
    assert.equal(imageProblem('apache/kafka:3.9.1'), null);
    assert.equal(imageProblem(`node:20.19.5-bookworm-slim@sha256:${'a'.repeat(64)}`), null);
    assert.match(imageProblem('apache/kafka')!, /no tag/);
    assert.match(imageProblem('apache/kafka:latest')!, /not an exact version/);
    assert.match(imageProblem('node:20')!, /not an exact version/);
    assert.match(imageProblem('localhost:5000/kafka')!, /no tag/);
    assert.match(imageProblem('node:20.1.1@sha256:abc')!, /digest/);
  });

  it('of the Dockerfile are pinned, and it runs as a user other than root', () => {
    const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const images = dockerfileImages(text);
    assert.ok(images.length > 0);
    assert.deepEqual(images.map(imageProblem).filter(Boolean), []);
    const lastUser = [...text.matchAll(/^USER\s+(\S+)/gm)].at(-1)?.[1];
    assert.ok(
      lastUser && lastUser !== 'root' && lastUser !== '0',
      `the final USER is ${lastUser ?? 'not set'}`,
    );
    assert.deepEqual(dockerfileImages('FROM node:20 AS build\nFROM build\n'), ['node:20']);
  });
});

describe('infra/compose/compose.yaml', () => {
  it('passes the Compose schema, pins every image and gives each service the configuration its code reads', () => {
    assert.deepEqual(composeProblems(compose(), composeFile, envExample), []);
  });

  it('runs the three long-running table-audit processes and the servers they need', () => {
    const services = compose().services as Record<string, { command?: string[] }>;
    assert.deepEqual(services.ingest?.command?.slice(0, 2), ['ingest', '--kafka']);
    assert.deepEqual(services.replay?.command?.slice(0, 2), ['replay', '--live']);
    assert.equal(services.api?.command?.[0], 'serve');
    assert.deepEqual(services.analytics?.command?.slice(0, 3), ['analytics', 'project', '--follow']);
    for (const s of ['kafka', 'schema-registry', 'clickhouse', 'grafana', 'kurrentdb'])
      assert.ok(services[s], s);
  });

  it('fails on an unpinned image, an unknown or missing variable, a secret in the file and a bad field', () => {
    const doc = compose();
    doc.services.kafka.image = 'apache/kafka:latest';
    doc.services.ingest.environment.TABLE_AUDIT_KAFKA_TIMEOUT = '5000';
    delete doc.services.api.environment.TABLE_AUDIT_TOKEN_KEY;
    doc.services.clickhouse.environment.CLICKHOUSE_PASSWORD = 'hunter2';
    doc.services.replay.restart = 7;
    delete doc.services.grafana.environment.CLICKHOUSE_HOST;
    doc.services.replay.secrets.push('undeclared');
    doc.services.clickhouse.environment.X = '${NOT_IN_EXAMPLE:?fill it}';
    const problems = composeProblems(doc, composeFile, envExample).join('\n');
    assert.match(
      problems,
      /services\.kafka\.image: "apache\/kafka:latest": the tag "latest" is not an exact version/,
    );
    assert.match(problems, /services\.ingest: TABLE_AUDIT_KAFKA_TIMEOUT is given but no code reads it/);
    assert.match(problems, /services\.api: TABLE_AUDIT_TOKEN_KEY is missing/);
    assert.match(problems, /environment\.CLICKHOUSE_PASSWORD: a secret written in the file/);
    assert.match(problems, /\/services\/replay\/restart must be string/);
    assert.match(problems, /services\.grafana\.environment lacks CLICKHOUSE_HOST/);
    assert.match(problems, /services\.replay\.secrets: "undeclared" is not declared/);
    assert.match(
      problems,
      /\$\{NOT_IN_EXAMPLE\} is interpolated from \.env but \.env\.example does not list it/,
    );
  });

  it('fails when a long-running process serves no health and metrics, or its healthcheck does not ask them', () => {
    const doc = compose();
    doc.services.replay.command = ['replay', '--live'];
    doc.services.ingest.healthcheck.test = ['CMD', 'test', '-s', '/var/lib/table-audit/data/events.sqlite'];
    doc.services.analytics.command = ['analytics', 'project', '--follow', '--metrics-port', '9466'];
    const problems = composeProblems(doc, composeFile, envExample).join('\n');
    assert.match(problems, /services\.replay: the replay is not given --metrics-port 9465/);
    assert.match(
      problems,
      /services\.ingest\.healthcheck: does not ask http:\/\/127\.0\.0\.1:9464\/health\/ready/,
    );
    assert.match(problems, /services\.analytics: the analytics is not given --metrics-host 0\.0\.0\.0/);
  });

  it('mounts the generated Grafana provisioning and dashboards, read-only', () => {
    const volumes = (compose().services.grafana.volumes as string[]).join('\n');
    assert.match(volumes, /^\.\.\/grafana\/provisioning:\/etc\/grafana\/provisioning:ro$/m);
    assert.match(volumes, /^\.\.\/grafana\/dashboards:.*:ro$/m);
    assert.ok(grafanaVariables().includes('CLICKHOUSE_HOST'));
  });
});

describe('infra/k8s', () => {
  it('passes the Kubernetes schemas, pins every image, sets resources, probes and scrape annotations', async () => {
    assert.deepEqual(await k8sProblems(k8sDocuments()), []);
  });

  it('fails on a schema error, an unpinned image, a missing probe, a filled Secret and a wrong variable', async () => {
    const docs = structuredClone(k8sDocuments());
    const pipeline = docs.find(
      (d) => (d.doc as { kind: string; metadata: { name: string } }).metadata.name === 'table-audit-pipeline',
    )!.doc as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    pipeline.spec.replicas = 'one';
    const containers = pipeline.spec.template.spec.containers as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const api = containers.find((c) => c.args?.includes('serve'));
    delete api.readinessProbe;
    api.env.push({ name: 'CLICKHOUSE_URI', value: 'http://x' });
    containers[0].image = 'table-audit';
    containers[0].env.push({
      name: 'LOG_LEVEL',
      valueFrom: { configMapKeyRef: { name: 'table-audit-config', key: 'LOG_LEVL' } },
    });
    pipeline.spec.template.spec.volumes.push({ name: 'x', secret: { secretName: 'nobody-makes-this' } });
    docs.push({
      file: 'infra/k8s/extra.yaml',
      doc: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { TOKEN: 'x' } },
    });
    const problems = (await k8sProblems(docs)).join('\n');
    assert.match(problems, /StatefulSet\/table-audit-pipeline: .*spec\/replicas must be integer/);
    assert.match(problems, /the readiness probe is not an HTTP GET of \/health\/ready/);
    assert.match(problems, /CLICKHOUSE_URI is given but no code reads it/);
    assert.match(problems, /"table-audit" has no tag/);
    assert.match(problems, /Secret\/s: a Secret with its values in the file/);
    assert.match(problems, /ConfigMap table-audit-config has no key LOG_LEVL/);
    assert.match(
      problems,
      /Secret nobody-makes-this is used but neither defined in infra\/k8s nor made in docs\/deployment\.md/,
    );
  });
});

describe('infra/k8s observability', () => {
  it('fails on a process without probes on its metrics port, or whose metrics no annotated Service scrapes', async () => {
    const docs = structuredClone(k8sDocuments()).filter(
      (d) => (d.doc as { metadata: { name: string } }).metadata.name !== 'table-audit-replay-metrics',
    );
    const pipeline = docs.find(
      (d) => (d.doc as { kind: string; metadata: { name: string } }).metadata.name === 'table-audit-pipeline',
    )!.doc as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const containers = pipeline.spec.template.spec.containers as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    delete containers.find((c) => c.name === 'ingest').livenessProbe;
    containers.find((c) => c.name === 'analytics').args = ['analytics', 'project', '--follow'];
    const problems = (await k8sProblems(docs)).join('\n');
    assert.match(problems, /container ingest: the liveness probe is not an HTTP GET of \/health\/live/);
    assert.match(problems, /container replay: no Service annotated for Prometheus .* "9465"/);
    assert.match(problems, /container analytics: the analytics is not given --metrics-port 9466/);
  });
});
