package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embeddable MCP server with task support for tests and demos, speaking the 2025-11-25 tasks utility, the
 * 2026-07-28 tasks extension, or both ({@link ReferenceServerOptions#generation()}): serve stdio on given streams with
 * {@link #runStdio} and/or Streamable HTTP on 127.0.0.1 with {@link #startHttp}. All transports share one task store,
 * so a task created over one is visible over another unless {@link ReferenceServerOptions#sessionScoped()}.
 */
public final class ReferenceServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReferenceServer.class);

  private final ReferenceServerOptions options;
  private final ObjectMapper mapper = new ObjectMapper();
  private final ScheduledThreadPoolExecutor scheduler;
  private final ControlCallLog log = new ControlCallLog();
  private final HttpSessions sessions = new HttpSessions();
  private final McpDispatcher dispatcher;
  private final CallJournal journal;
  private final ReceivedCancellations cancellations = new ReceivedCancellations();
  private NettyHttpServer http;

  public ReferenceServer(ReferenceServerOptions options) {
    this(options, Clock.systemUTC());
  }

  public ReferenceServer(ReferenceServerOptions options, Clock clock) {
    this.options = Objects.requireNonNull(options, "options");
    AtomicInteger threads = new AtomicInteger();
    this.scheduler = new ScheduledThreadPoolExecutor(2, runnable -> {
      Thread thread = new Thread(runnable, "reference-server-tasks-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    scheduler.setRemoveOnCancelPolicy(true);
    TaskStore store = new TaskStore(options, Objects.requireNonNull(clock, "clock"), scheduler);
    TaskRunner runner = new TaskRunner(store, scheduler);
    this.journal = options.callLog() == null ? CallJournal.none() : CallJournal.open(options.callLog(), clock);
    ControlCalls controlCalls = new ControlCalls(store, log, scheduler, journal);
    ConformanceFixtures fixtures = options.conformanceFixtures() ? new ConformanceFixtures(scheduler) : null;
    ToolCatalog catalog = new ToolCatalog(fixtures != null);
    JobTools jobs = new JobTools(store, runner, controlCalls);
    ToolCalls toolCalls = new ToolCalls(options, catalog, store, runner, jobs, log, controlCalls,
        new SlowPlainTool(scheduler), fixtures);
    this.dispatcher = new McpDispatcher(options, catalog, cancellations, toolCalls, fixtures,
        new TaskMethods(store, runner, controlCalls),
        new ToolCalls2026(options, catalog, store, runner, toolCalls, controlCalls, journal),
        new TaskMethods2026(options, store, runner, controlCalls, journal));
  }

  public ReferenceServerOptions options() {
    return options;
  }

  /**
   * Starts Streamable HTTP on 127.0.0.1:{@code port} (0 picks a free port) and returns the endpoint URI,
   * {@code http://127.0.0.1:<port>/mcp}.
   *
   * @throws IllegalStateException when HTTP is already started
   */
  public synchronized URI startHttp(int port) {
    if (http != null) {
      throw new IllegalStateException("HTTP is already serving on port " + http.port());
    }
    try {
      http = NettyHttpServer.bind(port, new McpHttpHandler(dispatcher, sessions, options, mapper, journal));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding port " + port, e);
    }
    LOG.info("reference MCP server listening on {}", httpUri());
    return httpUri();
  }

  /** The bound HTTP port; fails when HTTP is not started. */
  public synchronized int httpPort() {
    if (http == null) {
      throw new IllegalStateException("HTTP is not started");
    }
    return http.port();
  }

  public synchronized URI httpUri() {
    return URI.create("http://127.0.0.1:" + httpPort() + McpHttpHandler.PATH);
  }

  /**
   * Serves one stdio client on the calling thread until {@code in} ends; each call is its own session. Only protocol
   * messages are written to {@code out}.
   */
  public void runStdio(InputStream in, OutputStream out) throws IOException {
    new StdioServer(dispatcher, mapper, out).serve(in);
  }

  /** Every control call received for {@code taskId} (a task id or a job id), in arrival order. */
  public List<ControlCall> controlCalls(String taskId) {
    return log.calls(taskId).calls();
  }

  /** Every {@code notifications/cancelled} received so far, over any transport, in arrival order. */
  public List<ReceivedCancellation> receivedCancellations() {
    return cancellations.all();
  }

  /** Stops HTTP (ending every session and stream) and the task scheduler; tasks are lost. */
  @Override
  public synchronized void close() {
    if (http != null) {
      sessions.closeAll();
      http.close();
      http = null;
    }
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    journal.close();
  }

  /** How many requests of HTTP session {@code sessionId} wait for their answer under strict ids (tests). */
  int answersAwaited(String sessionId) {
    return sessions.find(sessionId).map(session -> session.routes().inFlight()).orElse(0);
  }
}
