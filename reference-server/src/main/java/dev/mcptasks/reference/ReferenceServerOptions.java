package dev.mcptasks.reference;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link ReferenceServer} behaves.
 *
 * @param sessionScoped tasks and jobs are visible only to the HTTP session that created them (server-everything style);
 *     when false (the default) every session sees every task
 * @param ttlOverrideMs when non-null, every task gets this ttl whatever the client asked (server-everything forces
 *     300000); when null the requested ttl is honoured, capped at {@code maxTtlMs}
 * @param defaultTtlMs ttl of a task whose request carried none
 * @param maxTtlMs upper bound on an honoured ttl
 * @param pollIntervalMs the {@code pollInterval} suggested in every task
 * @param jsonResponses answer POSTed requests with {@code application/json} instead of an SSE stream
 * @param getStream offer the GET SSE stream for notifications; when false GET answers 405
 * @param strictTaskSupport answer task-support misuse with -32601 as the spec says; when false (the default) mimic
 *     SDK 1.32.2: a forbidden tool with a task gets -32602 and a required tool without one gets an isError result
 * @param allowedOrigins Origin header values accepted besides loopback origins ({@code http://localhost[:port]},
 *     {@code http://127.0.0.1[:port]})
 * @param listPageSize tasks per {@code tasks/list} page
 * @param sseRetryMs the {@code retry:} value sent in the SSE priming event
 * @param sseKeepAliveMs period of {@code : keepalive} comments on open SSE streams (the SDK sends one every 15 s);
 *     0 sends none
 * @param callLog when non-null, a file to which every session, task creation, control call (begin and end) and task
 *     end is appended as one JSON line ({@code --call-log}); null records nothing
 * @param generation which protocol generations are served ({@code --generation}): 2025-11-25 only (the default),
 *     the 2026-07-28 tasks extension only, or both on one endpoint
 * @param bareResult leave {@code resultType} out of the {@code result} embedded in a completed 2026 DetailedTask
 *     (the SEP example shape); by default it is included, as ext-tasks requires
 * @param contentQuirk add {@code content: []} to a 2026 CreateTaskResult as TypeScript SDK 2.4.0 servers do
 * @param strictIds route 2025-11-25 HTTP answers by request id within the session, as the TypeScript SDK's server
 *     does ({@code --strict-ids}): a request reusing the id of one still in flight takes over its answer route, so
 *     the later request receives the earlier one's answer and the earlier one none. Every reused (session, id) pair
 *     is logged and journaled ({@code reused_id}), so a harness can assert that a client never reuses an id
 * @param conformanceFixtures also serve the official MCP conformance suite's server fixtures
 *     ({@code --conformance-fixtures}): its {@code test_*} tools, resources, prompts, completion and log level
 */
public record ReferenceServerOptions(
    boolean sessionScoped,
    Long ttlOverrideMs,
    long defaultTtlMs,
    long maxTtlMs,
    long pollIntervalMs,
    boolean jsonResponses,
    boolean getStream,
    boolean strictTaskSupport,
    List<String> allowedOrigins,
    int listPageSize,
    long sseRetryMs,
    long sseKeepAliveMs,
    Path callLog,
    ServedGenerations generation,
    boolean bareResult,
    boolean contentQuirk,
    boolean strictIds,
    boolean conformanceFixtures) {

  public ReferenceServerOptions {
    allowedOrigins = List.copyOf(Objects.requireNonNull(allowedOrigins, "allowedOrigins"));
    Objects.requireNonNull(generation, "generation");
    requirePositive("defaultTtlMs", defaultTtlMs);
    requirePositive("maxTtlMs", maxTtlMs);
    requirePositive("pollIntervalMs", pollIntervalMs);
    requirePositive("listPageSize", listPageSize);
    requirePositive("sseRetryMs", sseRetryMs);
    if (sseKeepAliveMs < 0) {
      throw new IllegalArgumentException("sseKeepAliveMs must not be negative but was " + sseKeepAliveMs);
    }
    if (ttlOverrideMs != null) {
      requirePositive("ttlOverrideMs", ttlOverrideMs);
    }
  }

  /** Shared tasks, ttl honoured (default 300000, cap 3600000), pollInterval 500, SSE, GET stream, SDK quirks. */
  public static ReferenceServerOptions defaults() {
    return new ReferenceServerOptions(false, null, 300_000, 3_600_000, 500, false, true, false, List.of(), 50, 1000,
        15_000, null, ServedGenerations.V2025_11_25, false, true, false, false);
  }

  public ReferenceServerOptions withSessionScoped(boolean value) {
    return new ReferenceServerOptions(value, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs, jsonResponses,
        getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, callLog, generation,
        bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withTtlOverrideMs(Long value) {
    return new ReferenceServerOptions(sessionScoped, value, defaultTtlMs, maxTtlMs, pollIntervalMs, jsonResponses,
        getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, callLog, generation,
        bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withPollIntervalMs(long value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, value, jsonResponses,
        getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, callLog, generation,
        bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withJsonResponses(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs, value,
        getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, callLog, generation,
        bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withGetStream(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, value, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, callLog,
        generation, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withStrictTaskSupport(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, value, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, callLog,
        generation, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withAllowedOrigins(List<String> value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, value, listPageSize, sseRetryMs, sseKeepAliveMs, callLog,
        generation, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withListPageSize(int value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, value, sseRetryMs, sseKeepAliveMs, callLog,
        generation, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withSseKeepAliveMs(long value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, value, callLog,
        generation, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withCallLog(Path value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs, value,
        generation, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withGeneration(ServedGenerations value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs,
        callLog, value, bareResult, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withBareResult(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs,
        callLog, generation, value, contentQuirk, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withContentQuirk(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs,
        callLog, generation, bareResult, value, strictIds, conformanceFixtures);
  }

  public ReferenceServerOptions withStrictIds(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs,
        callLog, generation, bareResult, contentQuirk, value, conformanceFixtures);
  }

  public ReferenceServerOptions withConformanceFixtures(boolean value) {
    return new ReferenceServerOptions(sessionScoped, ttlOverrideMs, defaultTtlMs, maxTtlMs, pollIntervalMs,
        jsonResponses, getStream, strictTaskSupport, allowedOrigins, listPageSize, sseRetryMs, sseKeepAliveMs,
        callLog, generation, bareResult, contentQuirk, strictIds, value);
  }

  /** The ttl a task gets when the client asked for {@code requested} (null when it asked for none). */
  long effectiveTtl(Long requested) {
    if (ttlOverrideMs != null) {
      return ttlOverrideMs;
    }
    if (requested == null || requested <= 0) {
      return defaultTtlMs;
    }
    return Math.min(requested, maxTtlMs);
  }

  private static void requirePositive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive but was " + value);
    }
  }
}
