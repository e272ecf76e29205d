package dev.mcptasks.adapters.admin;

import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The task list's filters: status, server and principal are the store's own ({@code TaskQuery}); tool and age are
 * applied to the rows the store returns ({@link TaskFinder}).
 *
 * @param age null, or {@code <D} (created within D) or {@code >D} (created more than D ago), D one of
 *     {@link #AGES}
 */
record TaskFilter(TaskStatus status, String server, String tool, String principal, String age) {
    /** The ages offered, by their wire form. */
    static final Map<String, Duration> AGES = Map.of("15m", Duration.ofMinutes(15), "1h", Duration.ofHours(1),
            "24h", Duration.ofHours(24), "7d", Duration.ofDays(7));

    static final TaskFilter NONE = new TaskFilter(null, null, null, null, null);

    TaskFilter {
        if (age != null && (age.length() < 2 || (age.charAt(0) != '<' && age.charAt(0) != '>')
                || !AGES.containsKey(age.substring(1)))) {
            throw new IllegalArgumentException("age must be <D or >D with D one of 15m, 1h, 24h, 7d, was '" + age
                    + "'");
        }
    }

    /** The filter of a request's parameters; an unknown status or age is an {@link IllegalArgumentException}. */
    static TaskFilter of(AdminRequest request) {
        String status = request.param("status");
        TaskStatus parsed;
        try {
            parsed = status == null ? null : TaskStatus.fromWire(status);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown status '" + status + "'");
        }
        return new TaskFilter(parsed, trim(request.param("server")), trim(request.param("tool")),
                trim(request.param("principal")), trim(request.param("age")));
    }

    /** Whether a row the store returned for status, server and principal also has the tool and the age. */
    boolean matches(TaskRecord task, Instant now) {
        if (tool != null && !tool.equals(task.definition().toolName())) {
            return false;
        }
        if (age == null) {
            return true;
        }
        Instant cutoff = now.minus(AGES.get(age.substring(1)));
        return newer() ? !task.definition().createdAt().isBefore(cutoff) : task.definition().createdAt().isBefore(cutoff);
    }

    /** Whether the filter keeps only tasks created after a cutoff (a scan may stop at the first older row). */
    boolean newer() {
        return age != null && age.charAt(0) == '<';
    }

    Instant cutoff(Instant now) {
        return now.minus(AGES.get(age.substring(1)));
    }

    /** The filter as query parameters ({@code status=...&tool=...}), without a leading separator. */
    String toQuery() {
        List<String> parts = new ArrayList<>();
        add(parts, "status", status == null ? null : status.wireName());
        add(parts, "server", server);
        add(parts, "tool", tool);
        add(parts, "principal", principal);
        add(parts, "age", age);
        return String.join("&", parts);
    }

    /** The filter as hidden form fields (the bulk cancel's confirm form). */
    String toHiddenFields() {
        StringBuilder out = new StringBuilder();
        hidden(out, "status", status == null ? null : status.wireName());
        hidden(out, "server", server);
        hidden(out, "tool", tool);
        hidden(out, "principal", principal);
        hidden(out, "age", age);
        return out.toString();
    }

    /** In words, for the confirm step and the audit record. */
    String describe() {
        String text = toQuery();
        return text.isEmpty() ? "all tasks" : java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static void add(List<String> parts, String name, String value) {
        if (value != null) {
            parts.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    private static void hidden(StringBuilder out, String name, String value) {
        if (value != null) {
            out.append("<input type=\"hidden\" name=\"").append(name).append("\" value=\"")
                    .append(HtmlEscaper.text(value)).append("\">");
        }
    }

    private static String trim(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
