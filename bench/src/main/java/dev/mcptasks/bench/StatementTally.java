package dev.mcptasks.bench;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Statements counted by text, and their categories: {@code statements} (every one but transaction control and driver),
 * {@code selects}, {@code inserts}, {@code updates}, {@code deletes}, {@code other_statements} (pragmas, SET, SHOW
 * ...), {@code transaction_control} (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE), by the statement's first word,
 * and {@code driver_statements}: sqlite-jdbc's own {@code SELECT last_insert_rowid()} after each insert;
 * a {@code WITH} statement counts as the write it contains, if any, else as a select.
 */
final class StatementTally {
    private final Map<String, LongAdder> byText = new ConcurrentHashMap<>();

    void add(String sql, long count) {
        byText.computeIfAbsent(normalize(sql), k -> new LongAdder()).add(count);
    }

    long total() {
        return byText.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> categories() {
        Map<String, Long> categories = new LinkedHashMap<>();
        for (String category : new String[] {"statements", "selects", "inserts", "updates", "deletes",
                "other_statements", "transaction_control", "driver_statements"}) {
            categories.put(category, 0L);
        }
        byText.forEach((sql, count) -> {
            String category = category(sql);
            categories.merge(category, count.sum(), Long::sum);
            if (!category.equals("transaction_control") && !category.equals("driver_statements")) {
                categories.merge("statements", count.sum(), Long::sum);
            }
        });
        return categories;
    }

    /** The {@code n} statements counted most often, busiest first. */
    Map<String, Long> top(int n) {
        Map<String, Long> top = new LinkedHashMap<>();
        byText.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, LongAdder> e) -> e.getValue().sum()).reversed())
                .limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue().sum()));
        return top;
    }

    static String category(String sql) {
        if (sql.equalsIgnoreCase("select last_insert_rowid();")) {
            return "driver_statements"; // sqlite-jdbc's own, after every insert (for generated keys)
        }
        String first = sql.stripLeading().split("[\\s(;]", 2)[0].toLowerCase(Locale.ROOT);
        return switch (first) {
            case "select" -> "selects";
            case "with" -> withCategory(sql.toLowerCase(Locale.ROOT));
            case "insert" -> "inserts";
            case "update" -> "updates";
            case "delete" -> "deletes";
            case "begin", "commit", "end", "rollback", "savepoint", "release", "start" -> "transaction_control";
            default -> "other_statements";
        };
    }

    private static String withCategory(String sql) {
        if (sql.contains("update ") && sql.contains(" set ")) {
            return "updates";
        }
        if (sql.contains("insert into")) {
            return "inserts";
        }
        return sql.contains("delete from") ? "deletes" : "selects";
    }

    /** One line, whitespace collapsed, at most 160 characters: the key of a statement in the JSON. */
    private static String normalize(String sql) {
        String line = sql.strip().replaceAll("\\s+", " ");
        return line.length() <= 160 ? line : line.substring(0, 157) + "...";
    }
}
