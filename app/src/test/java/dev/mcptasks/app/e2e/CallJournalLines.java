package dev.mcptasks.app.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The reference server's {@code --call-log} as read after the fact: which calls were made on a remote task, under
 * which protocol generation (2026 lines carry {@code "generation": "2026-07-28"}, 2025 lines none), in which
 * session, and what each answered. The server writes and flushes every line before the answer it describes leaves,
 * so a call whose outcome a worker has stored is already in the file.
 */
final class CallJournalLines {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One control call on a task: its begin line, whether its end line is written yet, and the status that end
     * carried (null: an error, or no end yet).
     */
    record Call(long number, String method, String generation, String session, boolean ended, String endStatus) {}

    private final List<JsonNode> lines;

    private CallJournalLines(List<JsonNode> lines) {
        this.lines = lines;
    }

    static CallJournalLines read(Path file) {
        try {
            // read while the server writes: a line is complete once its newline is there
            String text = Files.readString(file);
            List<JsonNode> lines = new ArrayList<>();
            for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(JSON.readTree(line));
                }
            }
            return new CallJournalLines(lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read call log " + file, e);
        }
    }

    /** The creation line of the remote task. */
    JsonNode creation(String remoteTaskId) {
        return lines.stream().filter(l -> l.path("e").asText().equals("create"))
                .filter(l -> l.path("task").asText().equals(remoteTaskId)).findFirst()
                .orElseThrow(() -> new AssertionError("no create line for " + remoteTaskId + " in " + lines));
    }

    /** Every call begun on the remote task, in order, with its end status when it has one. */
    List<Call> calls(String remoteTaskId) {
        Map<Long, JsonNode> ends = lines.stream().filter(l -> l.path("e").asText().equals("end"))
                .collect(Collectors.toMap(l -> l.path("call").asLong(), l -> l, (a, b) -> a));
        return lines.stream().filter(l -> l.path("e").asText().equals("begin"))
                .filter(l -> l.path("task").asText().equals(remoteTaskId))
                .map(l -> new Call(l.path("call").asLong(), l.path("method").asText(),
                        l.hasNonNull("generation") ? l.path("generation").asText() : null, l.path("session").asText(),
                        ends.containsKey(l.path("call").asLong()), status(ends.get(l.path("call").asLong()))))
                .toList();
    }

    private static String status(JsonNode end) {
        return end != null && end.hasNonNull("status") ? end.path("status").asText() : null;
    }

    /** The input answers offered for the remote task ({@code e: "answer"} lines). */
    List<JsonNode> answers(String remoteTaskId) {
        return lines.stream().filter(l -> l.path("e").asText().equals("answer"))
                .filter(l -> l.path("task").asText().equals(remoteTaskId)).toList();
    }

    @Override
    public String toString() {
        return lines.stream().map(JsonNode::toString).collect(Collectors.joining("\n"));
    }
}
