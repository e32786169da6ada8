/**
 * The one list of the environment variables the code reads (apps/, services/, packages/, outside their tests), with
 * what each is for and which deployed role needs it. infra/test/deployment.test.ts checks this list against the
 * sources (every variable read is listed, every listed variable is read) and the compose file and Kubernetes
 * manifests against this list (every variable given to a table-audit container is one of these, every variable a
 * role requires is given). Everything else the services take is a command-line flag (Kafka brokers, topic, group,
 * port, API keys file): see docs/deployment.md.
 */

/** The long-running table-audit processes of a deployment, each one `table-audit <command>`. */
export type Role = 'ingest' | 'replay' | 'analytics' | 'api';

export interface ConfigVariable {
  readonly name: string;
  /** what it holds, for the guide */
  readonly meaning: string;
  /** the files that read it (relative to the repository root) */
  readonly readIn: readonly string[];
  /** the roles that read it */
  readonly readBy: readonly Role[];
  /** the roles a production deployment must give it to (a default exists, but not one fit for production) */
  readonly requiredBy: readonly Role[];
  /** a path to a secret file (mounted from a Secret, never written in the files) */
  readonly secretFile?: boolean;
}

export const CONFIGURATION: readonly ConfigVariable[] = [
  {
    name: 'TABLE_AUDIT_STORE',
    meaning: 'the SQLite event store file (default data/events.sqlite, relative to the working directory)',
    readIn: ['apps/cli/src/commands/store.ts'],
    readBy: ['ingest', 'replay', 'analytics', 'api'],
    requiredBy: ['ingest', 'replay', 'analytics', 'api'],
  },
  {
    name: 'TABLE_AUDIT_ANCHORS',
    meaning: 'the directory of the signed anchors (anchors.jsonl, append-only, one writer)',
    readIn: ['apps/cli/src/commands/anchors.ts'],
    readBy: ['ingest', 'replay', 'api'],
    requiredBy: ['replay', 'api'],
  },
  {
    name: 'TABLE_AUDIT_SIGNING_KEY',
    meaning: 'the Ed25519 private key (PEM file) that signs the anchors',
    readIn: ['apps/cli/src/commands/anchors.ts'],
    readBy: ['ingest', 'replay'],
    requiredBy: ['replay'],
    secretFile: true,
  },
  {
    name: 'TABLE_AUDIT_TOKEN_KEY',
    meaning: "the Ed25519 private key (PEM file) that signs and verifies the API's tokens (JWT, EdDSA)",
    readIn: ['apps/cli/src/commands/token.ts'],
    readBy: ['api'],
    requiredBy: ['api'],
    secretFile: true,
  },
  {
    name: 'TABLE_AUDIT_ANALYTICS',
    meaning:
      'the chDB data directory read by `findings` and `status`, written by `run` and `analytics project` when CLICKHOUSE_URL is unset (not read by `serve`)',
    readIn: [
      'apps/cli/src/commands/findings.ts',
      'apps/cli/src/commands/status.ts',
      'apps/cli/src/commands/analytics.ts',
    ],
    readBy: ['analytics'],
    requiredBy: [],
  },
  {
    name: 'CLICKHOUSE_URL',
    meaning:
      'a ClickHouse server (http://user:password@host:8123/database); unset, the embedded chDB in data/analytics',
    readIn: ['services/analytics/src/client.ts'],
    readBy: ['analytics', 'api'],
    // the projector following the store writes there; the API reads there (unset, it would keep its own chDB)
    requiredBy: ['analytics'],
  },
  {
    name: 'LOG_LEVEL',
    meaning: 'the pino log level of every long-running process (default info)',
    readIn: ['apps/cli/src/commands/serve.ts', 'packages/observability/src/index.ts'],
    readBy: ['ingest', 'replay', 'analytics', 'api'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_SESSION_TIMEOUT_MS',
    meaning: 'Kafka consumer session timeout',
    readIn: ['services/ingest/src/consumer.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_HEARTBEAT_INTERVAL_MS',
    meaning: 'Kafka consumer heartbeat interval',
    readIn: ['services/ingest/src/consumer.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_MAX_WAIT_MS',
    meaning: 'longest wait of one Kafka fetch',
    readIn: ['services/ingest/src/consumer.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_RETRY_INITIAL_MS',
    meaning: 'first retry delay of the Kafka client and consumer',
    readIn: ['services/ingest/src/consumer.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_CONNECTION_TIMEOUT_MS',
    meaning: 'Kafka client connection timeout',
    readIn: ['services/ingest/src/consumer.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_CONFIG',
    meaning:
      'the configuration file (default table-audit.config.json in the working directory, when there is one)',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['ingest', 'replay', 'api'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_INPUT',
    meaning: '"files" or "kafka": what `table-audit ingest` reads when given neither files nor --kafka',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_BROKERS',
    meaning: 'Kafka brokers for ingest, comma-separated host:port (chooses kafka input)',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_TOPIC',
    meaning: 'the topic ingest reads (default table-events)',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_KAFKA_GROUP',
    meaning: 'the consumer group of ingest (default table-audit-ingest)',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['ingest'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_EVENTSTORE_URL',
    meaning:
      'an EventStoreDB/KurrentDB connection string (esdb://…, kurrentdb://…); chooses it as the event store',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['ingest', 'replay', 'api'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_PORT',
    meaning: 'the port serve and run listen on (default 8080)',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['api'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_HOST',
    meaning: 'the address serve and run listen on (default 127.0.0.1)',
    readIn: ['apps/cli/src/config.ts'],
    readBy: ['api'],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_RUN_DIR',
    meaning: "the main job's session directory (default data/run)",
    readIn: ['apps/cli/src/config.ts'],
    readBy: [],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_RUN_TABLES',
    meaning: "the main job's F3CP tables (default 40)",
    readIn: ['apps/cli/src/config.ts'],
    readBy: [],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_RUN_ROUNDS',
    meaning: "the main job's rounds per table (default 50)",
    readIn: ['apps/cli/src/config.ts'],
    readBy: [],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_RUN_SEED',
    meaning: "the main job's seed (default 2025)",
    readIn: ['apps/cli/src/config.ts'],
    readBy: [],
    requiredBy: [],
  },
  {
    name: 'TABLE_AUDIT_FROM_SOURCES',
    meaning: '1: run the TypeScript sources even when the compiled command (apps/cli/dist) is current',
    readIn: ['apps/cli/bin/table-audit.js'],
    readBy: [],
    requiredBy: [],
  },
];

/** Variables the code sets for itself rather than reads from outside: never given by a deployment. */
export const SET_BY_THE_CODE: readonly string[] = ['SQLITE_USE_URI'];

/** The role of a container from its command line (`… serve …` is the API), or null for one that is not ours. */
export function roleOfCommand(command: readonly string[]): Role | null {
  if (command.includes('serve')) return 'api';
  if (command.includes('analytics')) return 'analytics';
  if (command.includes('replay')) return 'replay';
  if (command.includes('ingest')) return 'ingest';
  return null;
}

/**
 * What is wrong with the environment given to one table-audit container: variables the code does not read (a
 * typo, or configuration nobody reads), variables its role does not read, and required ones missing. `where`
 * names the file and the container in every message.
 */
export function environmentProblems(
  where: string,
  role: Role,
  given: readonly string[],
  list: readonly ConfigVariable[] = CONFIGURATION,
): string[] {
  const problems: string[] = [];
  const byName = new Map(list.map((v) => [v.name, v]));
  for (const name of given) {
    const v = byName.get(name);
    if (SET_BY_THE_CODE.includes(name))
      problems.push(`${where}: ${name} is set by the code itself, not given`);
    else if (!v)
      problems.push(`${where}: ${name} is given but no code reads it (see infra/test/configuration.ts)`);
    else if (!v.readBy.includes(role))
      problems.push(`${where}: ${name} is given but the ${role} (${commandOf(role)}) does not read it`);
  }
  for (const v of list)
    if (v.requiredBy.includes(role) && !given.includes(v.name))
      problems.push(`${where}: ${v.name} is missing; the ${role} needs it (${v.meaning})`);
  return problems;
}

const commandOf = (role: Role): string =>
  role === 'api'
    ? 'table-audit serve'
    : role === 'analytics'
      ? 'table-audit analytics project --follow'
      : `table-audit ${role}`;

/** The port each long-running role serves /health/live, /health/ready and /metrics on, in the deployment files. */
export const METRICS_PORTS: Readonly<Record<Role, number>> = {
  ingest: 9464,
  replay: 9465,
  analytics: 9466,
  api: 8080,
};
