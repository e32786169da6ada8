/*
 * mock-broker: a Kafka-protocol broker for tests, built on librdkafka's mock cluster (librdkafka-dev).
 *
 *   mock-broker [BROKERS]          (default 3, 1..32)
 *
 * On start it prints one JSON line on stdout:
 *   {"bootstrap":"127.0.0.1:PORT,127.0.0.1:PORT,...","brokers":N,"librdkafka":"2.0.2","pid":PID}
 * then reads commands on stdin, one per line, words separated by blanks, and answers each with exactly one
 * JSON line: {"ok":true,"cmd":"..."} or {"ok":false,"cmd":"...","error":"..."}.
 *
 *   ping
 *   create_topic TOPIC PARTITIONS REPLICATION
 *   broker_down BROKER_ID                 (-1 = all; disconnects clients, refuses connections, no leader change)
 *   broker_up BROKER_ID
 *   set_rtt BROKER_ID MS                  (-1 = all; delays every response)
 *   push_errors API_KEY ERR [ERR...]      (the next requests with that ApiKey, cluster-wide, fail in order)
 *   push_broker_errors BROKER_ID API_KEY ERR [ERR...]
 *   clear_errors API_KEY
 *   set_leader TOPIC PARTITION BROKER_ID  (-1 = leaderless)
 *   set_coordinator group|transaction KEY BROKER_ID
 *   topic_error TOPIC ERR                 (returned in Metadata for that topic; 0 clears)
 *   set_apiversion API_KEY MIN MAX        (-1 -1 disables the API)
 *   quit
 *
 * Error codes are Kafka protocol codes (e.g. 6 NOT_LEADER_OR_FOLLOWER) or librdkafka's negative ones
 * (-195 = _TRANSPORT, which makes the mock broker drop the connection).
 *
 * It exits cleanly (cluster destroyed, exit status 0) on `quit`, on end of stdin (the parent went away),
 * on SIGTERM/SIGINT/SIGHUP, and, on Linux, when its parent process dies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#define MAX_LINE 16384
#define MAX_ERRS 1000
#define MAX_WORDS (MAX_ERRS + 4)

static rd_kafka_mock_cluster_t *mcluster;

/* Writes s as a JSON string literal (with quotes). */
static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c < 0x20 || c == 0x7f)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void reply_ok(const char *cmd) {
  fputs("{\"ok\":true,\"cmd\":", stdout);
  json_str(stdout, cmd);
  fputs("}\n", stdout);
  fflush(stdout);
}

static void reply_err(const char *cmd, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fputs("{\"ok\":false,\"cmd\":", stdout);
  json_str(stdout, cmd);
  fputs(",\"error\":", stdout);
  json_str(stdout, msg);
  fputs("}\n", stdout);
  fflush(stdout);
}

static void reply_kafka(const char *cmd, rd_kafka_resp_err_t err) {
  if (err)
    reply_err(cmd, "%s: %s", rd_kafka_err2name(err), rd_kafka_err2str(err));
  else
    reply_ok(cmd);
}

/* Parses a whole decimal integer in [min, max]. */
static int parse_int(const char *s, long min, long max, long *out) {
  char *end;
  long v;
  if (!s || !*s) return 0;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno || *end || v < min || v > max) return 0;
  *out = v;
  return 1;
}

/* Kafka topic names: 1-249 characters of [a-zA-Z0-9._-]. */
static int valid_topic(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > 249) return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ||
          *s == '_' || *s == '-'))
      return 0;
  return 1;
}

#define ARGC(n, usage)                                                                                         \
  do {                                                                                                         \
    if (argc != (n)) {                                                                                         \
      reply_err(cmd, "usage: %s", usage);                                                                      \
      return 1;                                                                                                \
    }                                                                                                          \
  } while (0)
#define INT_ARG(i, min, max, var, what)                                                                        \
  do {                                                                                                         \
    if (!parse_int(argv[i], (min), (max), &(var))) {                                                           \
      reply_err(cmd, "%s must be an integer in [%ld, %ld], got '%s'", what, (long)(min), (long)(max), argv[i]); \
      return 1;                                                                                                \
    }                                                                                                          \
  } while (0)
#define TOPIC_ARG(i)                                                                                           \
  do {                                                                                                         \
    if (!valid_topic(argv[i])) {                                                                               \
      reply_err(cmd, "invalid topic name '%s' (1-249 characters of [a-zA-Z0-9._-])", argv[i]);                 \
      return 1;                                                                                                \
    }                                                                                                          \
  } while (0)

/* Parses error codes argv[from..argc) into errs; replies and returns 0 on a bad one. */
static int parse_errs(const char *cmd, int argc, char **argv, int from, rd_kafka_resp_err_t *errs, size_t *cnt) {
  int i;
  if (argc - from < 1 || argc - from > MAX_ERRS) {
    reply_err(cmd, "expected 1 to %d error codes", MAX_ERRS);
    return 0;
  }
  for (i = from; i < argc; i++) {
    long v;
    if (!parse_int(argv[i], -200, 32767, &v)) {
      reply_err(cmd, "error code must be an integer, got '%s'", argv[i]);
      return 0;
    }
    errs[i - from] = (rd_kafka_resp_err_t)v;
  }
  *cnt = (size_t)(argc - from);
  return 1;
}

/* Runs one command; returns 0 when the program should quit. */
static int run_command(int argc, char **argv) {
  const char *cmd = argv[0];
  long a, b, c;

  if (!strcmp(cmd, "ping")) {
    ARGC(1, "ping");
    reply_ok(cmd);
  } else if (!strcmp(cmd, "quit")) {
    ARGC(1, "quit");
    reply_ok(cmd);
    return 0;
  } else if (!strcmp(cmd, "create_topic")) {
    ARGC(4, "create_topic TOPIC PARTITIONS REPLICATION");
    TOPIC_ARG(1);
    INT_ARG(2, 1, 100000, a, "PARTITIONS");
    INT_ARG(3, 1, 32, b, "REPLICATION");
    reply_kafka(cmd, rd_kafka_mock_topic_create(mcluster, argv[1], (int)a, (int)b));
  } else if (!strcmp(cmd, "broker_down") || !strcmp(cmd, "broker_up")) {
    int down = !strcmp(cmd, "broker_down");
    ARGC(2, down ? "broker_down BROKER_ID" : "broker_up BROKER_ID");
    INT_ARG(1, -1, INT32_MAX, a, "BROKER_ID");
    reply_kafka(cmd, down ? rd_kafka_mock_broker_set_down(mcluster, (int32_t)a)
                          : rd_kafka_mock_broker_set_up(mcluster, (int32_t)a));
  } else if (!strcmp(cmd, "set_rtt")) {
    ARGC(3, "set_rtt BROKER_ID MS");
    INT_ARG(1, -1, INT32_MAX, a, "BROKER_ID");
    INT_ARG(2, 0, 3600000, b, "MS");
    reply_kafka(cmd, rd_kafka_mock_broker_set_rtt(mcluster, (int32_t)a, (int)b));
  } else if (!strcmp(cmd, "push_errors")) {
    rd_kafka_resp_err_t errs[MAX_ERRS];
    size_t cnt;
    if (argc < 3) {
      reply_err(cmd, "usage: push_errors API_KEY ERR [ERR...]");
      return 1;
    }
    INT_ARG(1, 0, 32767, a, "API_KEY");
    if (!parse_errs(cmd, argc, argv, 2, errs, &cnt)) return 1;
    rd_kafka_mock_push_request_errors_array(mcluster, (int16_t)a, cnt, errs);
    reply_ok(cmd);
  } else if (!strcmp(cmd, "push_broker_errors")) {
    rd_kafka_resp_err_t errs[MAX_ERRS];
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    size_t cnt, i;
    if (argc < 4) {
      reply_err(cmd, "usage: push_broker_errors BROKER_ID API_KEY ERR [ERR...]");
      return 1;
    }
    INT_ARG(1, 0, INT32_MAX, a, "BROKER_ID");
    INT_ARG(2, 0, 32767, b, "API_KEY");
    if (!parse_errs(cmd, argc, argv, 3, errs, &cnt)) return 1;
    /* The broker-level stack has only the variadic (err, rtt) form: push one at a time, in order. */
    for (i = 0; i < cnt && !err; i++)
      err = rd_kafka_mock_broker_push_request_error_rtts(mcluster, (int32_t)a, (int16_t)b, 1, errs[i], 0);
    reply_kafka(cmd, err);
  } else if (!strcmp(cmd, "clear_errors")) {
    ARGC(2, "clear_errors API_KEY");
    INT_ARG(1, 0, 32767, a, "API_KEY");
    rd_kafka_mock_clear_request_errors(mcluster, (int16_t)a);
    reply_ok(cmd);
  } else if (!strcmp(cmd, "set_leader")) {
    ARGC(4, "set_leader TOPIC PARTITION BROKER_ID");
    TOPIC_ARG(1);
    INT_ARG(2, 0, INT32_MAX, a, "PARTITION");
    INT_ARG(3, -1, INT32_MAX, b, "BROKER_ID");
    reply_kafka(cmd, rd_kafka_mock_partition_set_leader(mcluster, argv[1], (int32_t)a, (int32_t)b));
  } else if (!strcmp(cmd, "set_coordinator")) {
    ARGC(4, "set_coordinator group|transaction KEY BROKER_ID");
    if (strcmp(argv[1], "group") && strcmp(argv[1], "transaction")) {
      reply_err(cmd, "key type must be 'group' or 'transaction', got '%s'", argv[1]);
      return 1;
    }
    INT_ARG(3, 0, INT32_MAX, a, "BROKER_ID");
    reply_kafka(cmd, rd_kafka_mock_coordinator_set(mcluster, argv[1], argv[2], (int32_t)a));
  } else if (!strcmp(cmd, "topic_error")) {
    ARGC(3, "topic_error TOPIC ERR");
    TOPIC_ARG(1);
    INT_ARG(2, -200, 32767, a, "ERR");
    rd_kafka_mock_topic_set_error(mcluster, argv[1], (rd_kafka_resp_err_t)a);
    reply_ok(cmd);
  } else if (!strcmp(cmd, "set_apiversion")) {
    ARGC(4, "set_apiversion API_KEY MIN MAX");
    INT_ARG(1, 0, 32767, a, "API_KEY");
    INT_ARG(2, -1, 32767, b, "MIN");
    INT_ARG(3, -1, 32767, c, "MAX");
    reply_kafka(cmd, rd_kafka_mock_set_apiversion(mcluster, (int16_t)a, (int16_t)b, (int16_t)c));
  } else {
    reply_err(cmd, "unknown command (ping, create_topic, broker_down, broker_up, set_rtt, push_errors, "
                   "push_broker_errors, clear_errors, set_leader, set_coordinator, topic_error, "
                   "set_apiversion, quit)");
  }
  return 1;
}

/* Splits a line into blank-separated words and runs it; returns 0 to quit. */
static int handle_line(char *line) {
  char *argv[MAX_WORDS];
  int argc = 0;
  char *save = NULL, *w;
  for (w = strtok_r(line, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save)) {
    if (argc == MAX_WORDS) {
      reply_err(argv[0], "too many words (max %d)", MAX_WORDS);
      return 1;
    }
    argv[argc++] = w;
  }
  if (argc == 0) return 1; /* blank line: no answer */
  return run_command(argc, argv);
}

int main(int argc, char **argv) {
  long brokers = 3;
  char errstr[512];
  rd_kafka_conf_t *conf;
  rd_kafka_t *rk;
  sigset_t sigs;
  int sfd;
  pid_t parent = getppid();
  char buf[MAX_LINE];
  size_t len = 0;
  int running = 1, status = 0, discarding = 0;

  if (argc > 2 || (argc == 2 && !parse_int(argv[1], 1, 32, &brokers))) {
    fprintf(stderr, "usage: %s [BROKERS]   (1..32, default 3)\n", argv[0]);
    return 2;
  }

  /* Signals are taken synchronously through a signalfd. They are blocked before librdkafka starts its
   * threads, which inherit the mask, so no thread of ours is ever interrupted by one. */
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGHUP);
  sigaddset(&sigs, SIGPIPE);
  if (pthread_sigmask(SIG_BLOCK, &sigs, NULL) != 0 || (sfd = signalfd(-1, &sigs, SFD_CLOEXEC)) < 0) {
    perror("mock-broker: signalfd");
    return 1;
  }
  /* Die with the parent even if it is killed without closing our stdin. */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) return 0;

  conf = rd_kafka_conf_new();
  /* Quiet by default (e.g. no "No bootstrap.servers configured" notice); MOCK_KAFKA_DEBUG=mock,protocol,...
   * turns on librdkafka's debug contexts, logged on stderr. */
  rd_kafka_conf_set(conf, "log_level", "4", errstr, sizeof errstr);
  if (getenv("MOCK_KAFKA_DEBUG") && *getenv("MOCK_KAFKA_DEBUG") &&
      rd_kafka_conf_set(conf, "debug", getenv("MOCK_KAFKA_DEBUG"), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "mock-broker: MOCK_KAFKA_DEBUG: %s\n", errstr);
    return 1;
  }
  /* The handle only hosts the mock cluster (its thread and bookkeeping); it never connects anywhere. */
  rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    fprintf(stderr, "mock-broker: rd_kafka_new: %s\n", errstr);
    return 1;
  }
  mcluster = rd_kafka_mock_cluster_new(rk, (int)brokers);
  if (!mcluster) {
    fprintf(stderr, "mock-broker: rd_kafka_mock_cluster_new(%ld) failed\n", brokers);
    rd_kafka_destroy(rk);
    return 1;
  }

  fputs("{\"bootstrap\":", stdout);
  json_str(stdout, rd_kafka_mock_cluster_bootstraps(mcluster));
  fprintf(stdout, ",\"brokers\":%ld,\"librdkafka\":", brokers);
  json_str(stdout, rd_kafka_version_str());
  fprintf(stdout, ",\"pid\":%ld}\n", (long)getpid());
  if (fflush(stdout) != 0) running = 0;

  while (running) {
    struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
    ssize_t n;
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      perror("mock-broker: poll");
      status = 1;
      break;
    }
    if (fds[1].revents & POLLIN) {
      struct signalfd_siginfo si;
      if (read(sfd, &si, sizeof si) == (ssize_t)sizeof si && si.ssi_signo == SIGPIPE) continue;
      break; /* SIGTERM, SIGINT, SIGHUP */
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    n = read(0, buf + len, sizeof buf - 1 - len);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      break;
    }
    if (n == 0) break; /* end of stdin: the parent closed it or went away */
    len += (size_t)n;
    for (;;) {
      char *nl = memchr(buf, '\n', len);
      size_t used;
      if (!nl) {
        if (len == sizeof buf - 1) { /* a line longer than the buffer: drop it up to its newline */
          discarding = 1;
          len = 0;
        }
        break;
      }
      *nl = '\0';
      used = (size_t)(nl - buf) + 1;
      if (discarding) { /* the end of an overlong line: one answer for the whole line */
        discarding = 0;
        reply_err("?", "command line longer than %d bytes", MAX_LINE - 1);
      } else if (!handle_line(buf))
        running = 0;
      memmove(buf, buf + used, len - used);
      len -= used;
      if (!running) break;
    }
    /* A write to a closed stdout raises SIGPIPE (blocked, so ignored) and sets the stream's error flag. */
    if (ferror(stdout)) break;
  }

  rd_kafka_mock_cluster_destroy(mcluster);
  rd_kafka_destroy(rk);
  close(sfd);
  return status;
}
