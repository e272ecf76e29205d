package dev.mcptasks.reference;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Command line: {@code --stdio} serves one client on stdin/stdout and exits at end of input; {@code --http PORT}
 * serves Streamable HTTP on 127.0.0.1 until killed and prints the endpoint URI on stdout. Logs go to stderr.
 */
public final class ReferenceServerMain {
  static final String USAGE = String.join("\n",
      "usage: reference-server (--stdio | --http PORT) [options]",
      "  --session-scoped        tasks are visible only to the creating session (default: shared)",
      "  --ttl-ms N              give every task ttl N whatever the client asks",
      "  --poll-interval-ms N    pollInterval suggested in tasks (default 500)",
      "  --json                  answer POSTs with application/json instead of SSE",
      "  --no-get-stream         answer GET with 405",
      "  --strict-task-support   answer taskSupport misuse with -32601 (default: SDK 1.32.2 quirks)",
      "  --allow-origin ORIGIN   accept this Origin header besides loopback origins (repeatable)",
      "  --sse-keepalive-ms N    period of ': keepalive' comments on open SSE streams, 0 for none (default 15000)",
      "  --call-log FILE         append every session, creation, control call and task end to FILE (JSON lines)",
      "  --generation G          protocol generations served: 2025-11-25 (default), 2026-07-28 (server/discover,",
      "                          per-request _meta envelope, tasks extension; no sessions) or dual (both; a request",
      "                          carrying the 2026 envelope is 2026, anything else follows the 2025 rules)",
      "  --bare-result           2026: leave resultType out of the result embedded in a completed tasks/get",
      "  --no-content-quirk      2026: no 'content: []' in a CreateTaskResult (SDK 2.4.0 servers send it)",
      "  --conformance-fixtures  also serve the MCP conformance suite's test_* tools, resources, prompts, completion,",
      "                          logging",
      "  --strict-ids            route answers by request id within a session as the TypeScript SDK does, and log",
      "                          and journal every reused (session, id) pair");

  private ReferenceServerMain() {
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    Invocation invocation;
    try {
      invocation = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("reference-server: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    if (invocation.httpPort() == null) {
      // stdout is the protocol channel: whatever else prints to System.out (a logging backend's default console
      // appender, a stray println) is sent to stderr instead, before anything can log.
      OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
      System.setOut(System.err);
      try (ReferenceServer server = new ReferenceServer(invocation.options())) {
        server.runStdio(System.in, protocol);
      }
      return;
    }
    ReferenceServer server = new ReferenceServer(invocation.options());
    PrintStream out = System.out;
    out.println("mcp-tasks reference server listening on " + server.startHttp(invocation.httpPort()));
    out.flush();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "reference-server-shutdown"));
    stopped.await();
  }

  /** What the command line asked for; {@code httpPort} is null for stdio. */
  record Invocation(Integer httpPort, ReferenceServerOptions options) {}

  static Invocation parse(String[] args) {
    ReferenceServerOptions options = ReferenceServerOptions.defaults();
    Integer httpPort = null;
    boolean stdio = false;
    List<String> origins = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--stdio" -> stdio = true;
        case "--http" -> httpPort = (int) number(args, ++i, arg, 0, 65535);
        case "--session-scoped" -> options = options.withSessionScoped(true);
        case "--ttl-ms" -> options = options.withTtlOverrideMs(number(args, ++i, arg, 1, Long.MAX_VALUE));
        case "--poll-interval-ms" -> options = options.withPollIntervalMs(number(args, ++i, arg, 1, Long.MAX_VALUE));
        case "--json" -> options = options.withJsonResponses(true);
        case "--no-get-stream" -> options = options.withGetStream(false);
        case "--strict-task-support" -> options = options.withStrictTaskSupport(true);
        case "--allow-origin" -> origins.add(value(args, ++i, arg));
        case "--sse-keepalive-ms" -> options = options.withSseKeepAliveMs(number(args, ++i, arg, 0, Long.MAX_VALUE));
        case "--call-log" -> options = options.withCallLog(Path.of(value(args, ++i, arg)));
        case "--generation" -> options = options.withGeneration(ServedGenerations.fromFlag(value(args, ++i, arg)));
        case "--bare-result" -> options = options.withBareResult(true);
        case "--no-content-quirk" -> options = options.withContentQuirk(false);
        case "--strict-ids" -> options = options.withStrictIds(true);
        case "--conformance-fixtures" -> options = options.withConformanceFixtures(true);
        default -> throw new IllegalArgumentException("unknown argument: " + arg);
      }
    }
    if (stdio == (httpPort != null)) {
      throw new IllegalArgumentException("give exactly one of --stdio and --http PORT");
    }
    return new Invocation(httpPort, options.withAllowedOrigins(origins));
  }

  private static String value(String[] args, int index, String flag) {
    if (index >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[index];
  }

  private static long number(String[] args, int index, String flag, long min, long max) {
    String text = value(args, index, flag);
    long parsed;
    try {
      parsed = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs an integer but got " + text);
    }
    if (parsed < min || parsed > max) {
      throw new IllegalArgumentException(flag + " must be between " + min + " and " + max + " but was " + parsed);
    }
    return parsed;
  }
}
