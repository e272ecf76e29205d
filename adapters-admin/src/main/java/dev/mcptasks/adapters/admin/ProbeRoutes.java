package dev.mcptasks.adapters.admin;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code /healthz} and {@code /readyz}: 200 while every check holds, else 503 with {@code {"ok":false,"check":...,
 * "reason":...}} naming the first failing check. A check is given {@link #CHECK_BOUND}: a store that hangs makes the
 * probe answer 503 in time instead of hanging the orchestrator's probe.
 */
final class ProbeRoutes {
    static final Duration CHECK_BOUND = Duration.ofSeconds(2);

    private final ExecutorService checks;

    ProbeRoutes() {
        AtomicInteger threads = new AtomicInteger();
        // unbounded on purpose: a hung check keeps its thread, and the next probe must still get one
        this.checks = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-probe-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    AdminRoute route(Map<String, HealthCheck> conditions) {
        Map<String, HealthCheck> ordered = new java.util.TreeMap<>(conditions);
        return request -> {
            for (Map.Entry<String, HealthCheck> check : ordered.entrySet()) {
                Optional<String> problem = run(check.getValue());
                if (problem.isPresent()) {
                    return AdminReply.json(503, "{\"ok\":false,\"check\":" + quote(check.getKey()) + ",\"reason\":"
                            + quote(problem.get()) + "}\n");
                }
            }
            return AdminReply.json(200, "{\"ok\":true}\n");
        };
    }

    private Optional<String> run(HealthCheck check) {
        Future<Optional<String>> result = checks.submit(check::problem);
        try {
            return result.get(CHECK_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            result.cancel(true);
            return Optional.of("no answer within " + CHECK_BOUND.toSeconds() + "s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return Optional.of(cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** A JSON string on one line: quotes, backslashes and control characters escaped. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
