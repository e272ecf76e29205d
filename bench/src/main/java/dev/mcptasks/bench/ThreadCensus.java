package dev.mcptasks.bench;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which threads the process holds now, by name with its numbers taken out ({@code mcp-tasks-worker-17} counts as
 * {@code mcp-tasks-worker-#}): explains a peak thread count (timers, executor bursts, committers, JDBC) instead of
 * only stating it. Enumerates the thread group tree, without the stack traces {@link Thread#getAllStackTraces} takes.
 */
final class ThreadCensus {
    private ThreadCensus() {}

    /** The {@code limit} names held by the most live threads, most first. */
    static Map<String, Integer> top(int limit) {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 64];
        int count = root.enumerate(threads, true);
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < count; i++) {
            byName.merge(threads[i].getName().replaceAll("\\d+", "#"), 1, Integer::sum);
        }
        Map<String, Integer> top = new LinkedHashMap<>();
        byName.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .forEach(entry -> top.put(entry.getKey(), entry.getValue()));
        return top;
    }
}
