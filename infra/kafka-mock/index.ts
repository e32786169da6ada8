// A real Kafka-protocol broker for tests: librdkafka's mock cluster (Debian's librdkafka-dev) in a small C
// program (mock-broker.c), driven over its stdin/stdout. See README.md for what it can and cannot do.
import { spawn, execFile, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
export const MOCK_BROKER_BINARY = join(here, 'build', 'mock-broker');
const BUILD_SCRIPT = join(here, 'build.sh');

/** Kafka protocol ApiKeys, for pushRequestErrors / setApiVersion. */
export const ApiKey = {
  Produce: 0,
  Fetch: 1,
  ListOffsets: 2,
  Metadata: 3,
  OffsetCommit: 8,
  OffsetFetch: 9,
  FindCoordinator: 10,
  JoinGroup: 11,
  Heartbeat: 12,
  LeaveGroup: 13,
  SyncGroup: 14,
  DescribeGroups: 15,
  ListGroups: 16,
  SaslHandshake: 17,
  ApiVersions: 18,
  CreateTopics: 19,
  DeleteTopics: 20,
  DeleteRecords: 21,
  InitProducerId: 22,
  OffsetForLeaderEpoch: 23,
  AddPartitionsToTxn: 24,
  AddOffsetsToTxn: 25,
  EndTxn: 26,
  TxnOffsetCommit: 28,
} as const;

/** A few Kafka protocol error codes (and librdkafka's _TRANSPORT, which makes the mock drop the connection). */
export const ErrorCode = {
  /** librdkafka-internal: the mock broker closes the client's connection instead of answering. */
  TRANSPORT: -195,
  NONE: 0,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  REQUEST_TIMED_OUT: 7,
  NETWORK_EXCEPTION: 13,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  NOT_ENOUGH_REPLICAS: 19,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 20,
  ILLEGAL_GENERATION: 22,
  UNKNOWN_MEMBER_ID: 25,
  REBALANCE_IN_PROGRESS: 27,
  KAFKA_STORAGE_ERROR: 56,
} as const;

/**
 * kafkajs settings that keep tests against the mock fast and steady (plain objects: this module does not import
 * kafkajs). The mock's group coordinator makes the first member of an empty group wait 3 s (fixed in 2.0.2) and
 * any other (re)join wait sessionTimeout - 1 s, so a short session matters; a short fetch wait lets
 * consumer.disconnect() return at once instead of after the pending 5 s long-poll.
 *
 *   new Kafka({ clientId, brokers: mock.bootstrapServers, ...kafkajsTestSettings.client })
 *   kafka.consumer({ groupId, ...kafkajsTestSettings.consumer })
 */
export const kafkajsTestSettings = {
  client: { retry: { initialRetryTime: 100, retries: 8 }, connectionTimeout: 1000 },
  consumer: {
    sessionTimeout: 3000,
    heartbeatInterval: 300,
    maxWaitTimeInMs: 100,
    retry: { initialRetryTime: 100, retries: 8 },
  },
} as const;

export interface MockKafkaOptions {
  /** Number of brokers, ids 1..brokers (default 3). */
  brokers?: number;
  /** How long to wait for the broker to build and start (default 30 s, the first build included). */
  startTimeoutMs?: number;
  /** How long to wait for the answer to one command (default 10 s). */
  commandTimeoutMs?: number;
  /** librdkafka debug contexts for the mock (e.g. 'mock,protocol'), logged on the child's stderr. */
  debug?: string;
  /** Called with every stderr line of the broker process (default: kept, the last lines go into errors). */
  onLog?: (line: string) => void;
}

export interface MockKafka {
  /** host:port of every broker, broker id i at index i - 1. */
  readonly bootstrapServers: string[];
  /** Broker ids, 1..brokers. */
  readonly brokerIds: number[];
  /** Process id of the broker. */
  readonly pid: number;
  /** Creates a topic (the mock has no CreateTopics API; kafkajs admin.createTopics cannot be used). */
  createTopic(name: string, partitions: number, replicationFactor: number): Promise<void>;
  /** Disconnects every client of the broker and refuses new connections; does NOT move partition leaders. */
  brokerDown(brokerId: number): Promise<void>;
  /** Accepts connections again. */
  brokerUp(brokerId: number): Promise<void>;
  /** Delays every response of the broker (-1 = all brokers) by ms. */
  setRtt(brokerId: number, ms: number): Promise<void>;
  /** The next requests with this ApiKey (to any broker) fail with these error codes, in order, one each. */
  pushRequestErrors(apiKey: number, errorCodes: readonly number[]): Promise<void>;
  /** Same, for one broker only (takes precedence over the cluster-wide stack). */
  pushBrokerRequestErrors(brokerId: number, apiKey: number, errorCodes: readonly number[]): Promise<void>;
  /** Drops the cluster-wide errors still queued for this ApiKey. */
  clearRequestErrors(apiKey: number): Promise<void>;
  /** Moves a partition's leadership (-1 = leaderless); clients learn it through NOT_LEADER errors. */
  setPartitionLeader(topic: string, partition: number, brokerId: number): Promise<void>;
  /** Pins the coordinator of a consumer group (or transactional id). */
  setCoordinator(keyType: 'group' | 'transaction', key: string, brokerId: number): Promise<void>;
  /** Error returned for this topic in Metadata responses (0 clears). */
  setTopicError(topic: string, errorCode: number): Promise<void>;
  /** Narrows the ApiVersion range the brokers advertise for an ApiKey (-1, -1 disables it). */
  setApiVersion(apiKey: number, minVersion: number, maxVersion: number): Promise<void>;
  /** Stops the broker process and waits for it to exit. Idempotent. */
  stop(): Promise<void>;
}

interface CommandAnswer {
  ok: boolean;
  cmd: string;
  error?: string;
}

const live = new Set<ChildProcessWithoutNullStreams>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers run synchronously; kill() is synchronous. The child also exits by itself on stdin EOF and,
  // on Linux, when its parent dies (PR_SET_PDEATHSIG), so even a SIGKILLed test runner leaves no broker behind.
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

let building: Promise<void> | undefined;
/** Compiles the broker if the binary is missing or older than its source (build.sh decides). */
export function buildMockBroker(): Promise<void> {
  building ??= new Promise<void>((resolve, reject) => {
    execFile('bash', [BUILD_SCRIPT], { timeout: 120_000 }, (err, _stdout, stderr) => {
      if (err) {
        building = undefined;
        reject(
          new Error(
            `kafka-mock: building the mock broker failed (${BUILD_SCRIPT}):\n${stderr.trim() || err.message}`,
          ),
        );
      } else resolve();
    });
  });
  return building;
}

function checkInt(what: string, value: number, min: number, max = 2 ** 31 - 1): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`kafka-mock: ${what} must be an integer in [${min}, ${max}], got ${value}`);
}

function checkTopic(name: string): void {
  if (!/^[a-zA-Z0-9._-]{1,249}$/.test(name))
    throw new RangeError(`kafka-mock: invalid topic name ${JSON.stringify(name)} (1-249 of [a-zA-Z0-9._-])`);
}

/** Builds (if needed) and starts a mock Kafka cluster; call stop() when done (e.g. in t.after / after()). */
export async function startMockKafka(options: MockKafkaOptions = {}): Promise<MockKafka> {
  const brokers = options.brokers ?? 3;
  checkInt('brokers', brokers, 1, 32);
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const commandTimeoutMs = options.commandTimeoutMs ?? 10_000;
  const started = Date.now();
  await buildMockBroker();

  installExitHook();
  const env = { ...process.env };
  if (options.debug) env.MOCK_KAFKA_DEBUG = options.debug;
  else delete env.MOCK_KAFKA_DEBUG;
  const child = spawn(MOCK_BROKER_BINARY, [String(brokers)], { stdio: ['pipe', 'pipe', 'pipe'], env });
  live.add(child);

  const stderrTail: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    options.onLog?.(line);
    stderrTail.push(line);
    if (stderrTail.length > 50) stderrTail.shift();
  });
  const describeExit = (code: number | null, signal: NodeJS.Signals | null) =>
    `mock broker (pid ${child.pid}) exited (${signal ?? `code ${code}`})` +
    (stderrTail.length ? `; stderr:\n${stderrTail.join('\n')}` : '');

  let exited = false;
  let exitError: Error | undefined;
  type Pending = { resolve: (a: CommandAnswer) => void; reject: (e: Error) => void };
  const pending: Pending[] = [];
  // The child and its pipes keep the event loop alive only while we wait for it, so a test that forgets stop()
  // still ends (and the exit hook kills the broker).
  const updateRef = () => {
    const busy = pending.length > 0 && !exited;
    for (const h of [child, child.stdout, child.stderr, child.stdin] as { ref(): void; unref(): void }[])
      if (busy) h.ref();
      else h.unref();
  };

  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      live.delete(child);
      exitError = new Error(`kafka-mock: ${describeExit(code, signal)}`);
      for (const p of pending.splice(0)) p.reject(exitError);
      updateRef();
      resolve();
    });
  });
  // stdin write errors (EPIPE after the child exited) surface through 'exit' and the pending commands.
  child.stdin.on('error', () => {});

  let onBootstrap: ((line: string) => void) | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (onBootstrap) {
      const f = onBootstrap;
      onBootstrap = undefined;
      f(line);
      return;
    }
    const p = pending.shift();
    updateRef();
    if (!p) return;
    try {
      p.resolve(JSON.parse(line) as CommandAnswer);
    } catch {
      p.reject(new Error(`kafka-mock: unreadable answer from the mock broker: ${line}`));
    }
  });

  // Wait for {"bootstrap": "..."}; a start timeout kills the child.
  pending.push({ resolve: () => {}, reject: () => {} }); // keeps the loop alive during start-up
  updateRef();
  const hello = await new Promise<{ bootstrap: string; pid: number }>((resolve, reject) => {
    const remaining = Math.max(1000, startTimeoutMs - (Date.now() - started));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `kafka-mock: the mock broker did not print its bootstrap servers within ${startTimeoutMs} ms` +
            (stderrTail.length ? `; stderr:\n${stderrTail.join('\n')}` : ''),
        ),
      );
    }, remaining);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`kafka-mock: cannot start ${MOCK_BROKER_BINARY}: ${err.message}`));
    });
    void exitedPromise.then(() => {
      clearTimeout(timer);
      reject(exitError ?? new Error('kafka-mock: mock broker exited'));
    });
    onBootstrap = (line) => {
      clearTimeout(timer);
      try {
        const msg = JSON.parse(line) as { bootstrap?: unknown; pid?: unknown };
        if (typeof msg.bootstrap !== 'string' || !msg.bootstrap) throw new Error('no bootstrap');
        resolve({ bootstrap: msg.bootstrap, pid: Number(msg.pid) });
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`kafka-mock: unexpected first line from the mock broker: ${line}`));
      }
    };
  }).finally(() => {
    pending.shift();
    updateRef();
  });

  const command = (line: string): Promise<void> => {
    if (exited) return Promise.reject(exitError ?? new Error('kafka-mock: mock broker has stopped'));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Answers are matched in order; after a lost answer the stream cannot be trusted: stop the broker.
        child.kill('SIGKILL');
        reject(new Error(`kafka-mock: no answer to '${line}' within ${commandTimeoutMs} ms`));
      }, commandTimeoutMs);
      pending.push({
        resolve: (a) => {
          clearTimeout(timer);
          if (a.ok) resolve();
          else reject(new Error(`kafka-mock: '${line}' failed: ${a.error ?? 'unknown error'}`));
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      updateRef();
      child.stdin.write(line + '\n');
    });
  };

  const checkErrs = (codes: readonly number[]) => {
    if (codes.length === 0 || codes.length > 1000)
      throw new RangeError('kafka-mock: expected 1 to 1000 error codes');
    codes.forEach((c) => checkInt('error code', c, -200, 32767));
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exited) return;
      pending.push({ resolve: () => {}, reject: () => {} });
      updateRef();
      child.stdin.end('quit\n');
      const t1 = setTimeout(() => child.kill('SIGTERM'), 3000);
      const t2 = setTimeout(() => child.kill('SIGKILL'), 6000);
      await exitedPromise;
      clearTimeout(t1);
      clearTimeout(t2);
    })();
    return stopping;
  };

  const bootstrapServers = hello.bootstrap.split(',');
  return {
    bootstrapServers,
    brokerIds: bootstrapServers.map((_, i) => i + 1),
    pid: hello.pid || (child.pid ?? 0),
    async createTopic(name, partitions, replicationFactor) {
      checkTopic(name);
      checkInt('partitions', partitions, 1, 100_000);
      checkInt('replicationFactor', replicationFactor, 1, brokers);
      await command(`create_topic ${name} ${partitions} ${replicationFactor}`);
    },
    async brokerDown(id) {
      checkInt('brokerId', id, -1);
      await command(`broker_down ${id}`);
    },
    async brokerUp(id) {
      checkInt('brokerId', id, -1);
      await command(`broker_up ${id}`);
    },
    async setRtt(id, ms) {
      checkInt('brokerId', id, -1);
      checkInt('ms', ms, 0, 3_600_000);
      await command(`set_rtt ${id} ${ms}`);
    },
    async pushRequestErrors(apiKey, errorCodes) {
      checkInt('apiKey', apiKey, 0, 32767);
      checkErrs(errorCodes);
      await command(`push_errors ${apiKey} ${errorCodes.join(' ')}`);
    },
    async pushBrokerRequestErrors(brokerId, apiKey, errorCodes) {
      checkInt('brokerId', brokerId, 0);
      checkInt('apiKey', apiKey, 0, 32767);
      checkErrs(errorCodes);
      await command(`push_broker_errors ${brokerId} ${apiKey} ${errorCodes.join(' ')}`);
    },
    async clearRequestErrors(apiKey) {
      checkInt('apiKey', apiKey, 0, 32767);
      await command(`clear_errors ${apiKey}`);
    },
    async setPartitionLeader(topic, partition, brokerId) {
      checkTopic(topic);
      checkInt('partition', partition, 0);
      checkInt('brokerId', brokerId, -1);
      await command(`set_leader ${topic} ${partition} ${brokerId}`);
    },
    async setCoordinator(keyType, key, brokerId) {
      if (keyType !== 'group' && keyType !== 'transaction')
        throw new RangeError(`kafka-mock: keyType must be 'group' or 'transaction', got ${String(keyType)}`);
      if (!/^\S+$/.test(key) || key.length > 1000)
        throw new RangeError(
          `kafka-mock: coordinator key must be non-empty without blanks, got ${JSON.stringify(key)}`,
        );
      checkInt('brokerId', brokerId, 0);
      await command(`set_coordinator ${keyType} ${key} ${brokerId}`);
    },
    async setTopicError(topic, errorCode) {
      checkTopic(topic);
      checkInt('error code', errorCode, -200, 32767);
      await command(`topic_error ${topic} ${errorCode}`);
    },
    async setApiVersion(apiKey, minVersion, maxVersion) {
      checkInt('apiKey', apiKey, 0, 32767);
      checkInt('minVersion', minVersion, -1, 32767);
      checkInt('maxVersion', maxVersion, -1, 32767);
      await command(`set_apiversion ${apiKey} ${minVersion} ${maxVersion}`);
    },
    stop,
  };
}
