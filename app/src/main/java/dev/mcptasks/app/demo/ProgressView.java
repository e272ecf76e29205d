package dev.mcptasks.app.demo;

import dev.mcptasks.core.runtime.RuntimeMetrics;
import dev.mcptasks.domain.TaskStatus;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * The live progress line: counts by status, renewals, fenced writes and recoveries. On a terminal it is redrawn in
 * place; otherwise a plain line is printed every few seconds and whenever something notable happened.
 */
final class ProgressView {
    private static final long PLAIN_EVERY_NANOS = 2_000_000_000L;

    private final PrintWriter out;
    private final boolean terminal;
    private long lastPlainNanos = Long.MIN_VALUE;
    private boolean drawn;

    ProgressView(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    void render(long elapsedNanos, Map<TaskStatus, Long> counts, List<RuntimeMetrics> workers, long recoveries,
            long staleRefused) {
        String line = line(elapsedNanos, counts, workers, recoveries, staleRefused);
        if (terminal) {
            out.print("\r\033[K" + line);
            out.flush();
            drawn = true;
        } else if (lastPlainNanos == Long.MIN_VALUE || elapsedNanos - lastPlainNanos >= PLAIN_EVERY_NANOS) {
            out.println(line);
            lastPlainNanos = elapsedNanos;
        }
    }

    /** A notable event, on its own line (the progress line is redrawn after it). */
    void event(long elapsedNanos, String text) {
        if (terminal && drawn) {
            out.print("\r\033[K");
        }
        out.printf("%6.1fs  %s%n", elapsedNanos / 1e9, text);
        out.flush();
        lastPlainNanos = Long.MIN_VALUE;
    }

    void finish() {
        if (terminal && drawn) {
            out.println();
        }
    }

    static String line(long elapsedNanos, Map<TaskStatus, Long> counts, List<RuntimeMetrics> workers,
            long recoveries, long staleRefused) {
        StringBuilder text = new StringBuilder(String.format("%6.1fs ", elapsedNanos / 1e9));
        for (TaskStatus status : TaskStatus.values()) {
            text.append(' ').append(status.wireName()).append(' ').append(counts.getOrDefault(status, 0L));
        }
        long renewals = workers.stream().mapToLong(RuntimeMetrics::renewals).sum();
        long fenced = workers.stream().mapToLong(RuntimeMetrics::fencedWrites).sum();
        text.append(" | renewals ").append(renewals).append(", fenced writes ").append(fenced)
                .append(", recoveries ").append(recoveries).append(", stale writes refused ").append(staleRefused);
        return text.toString();
    }
}
