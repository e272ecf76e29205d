package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the reference server saw, read from its {@code --call-log}: sessions with the client tag of the serve process
 * that opened them, task creations with their chaos key, control calls with their intervals and answers, and task
 * ends with results.
 *
 * <p>Both protocol generations: a 2026-07-28 line carries {@code "generation":"2026-07-28"} (2025-11-25 lines leave
 * it implicit), and 2026 HTTP calls have no session, so the server journals them under {@code "2026"}, or
 * {@code "2026:<X-Client-Tag>"} when the request names its client, without a {@code session} line.
 */
public record ServerJournal(Map<String, String> clientBySession, Map<Long, String> clientByCall,
        List<Creation> creations, List<Call> calls, Map<String, Terminal> terminals, List<ReusedId> reusedIds) {

    /** The protocol version a line is on when it does not say (2025-11-25 lines leave it implicit). */
    public static final String GENERATION_2025 = "2025-11-25";
    public static final String GENERATION_2026 = "2026-07-28";

    /** The session a 2026-07-28 HTTP call is journaled under, before {@code :<X-Client-Tag>}. */
    static final String SESSION_2026 = "2026";

    /** The argument of {@code work} that names a chaos task, so creations can be matched to store rows. */
    public static final String KEY_ARGUMENT = "chaosKey";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public ServerJournal {
        clientBySession = Map.copyOf(clientBySession);
        clientByCall = Map.copyOf(clientByCall);
        creations = List.copyOf(creations);
        calls = List.copyOf(calls);
        terminals = Map.copyOf(terminals);
        reusedIds = List.copyOf(reusedIds);
    }

    /** A journal of a server that was not run with {@code --strict-ids} (no id reuse recorded). */
    public ServerJournal(Map<String, String> clientBySession, Map<Long, String> clientByCall,
            List<Creation> creations, List<Call> calls, Map<String, Terminal> terminals) {
        this(clientBySession, clientByCall, creations, calls, terminals, List.of());
    }

    /**
     * A request id a client used twice in one session ({@code --strict-ids}); {@code inFlight} when the earlier
     * request was still unanswered, so the server handed its answer to the later one.
     */
    public record ReusedId(String session, String id, boolean inFlight, long atMs) {}

    /** A remote task the server created, on protocol {@code generation} (2025-11-25 or 2026-07-28). */
    public record Creation(String taskId, String session, String key, long atMs, String generation) {
        public Creation(String taskId, String session, String key, long atMs) {
            this(taskId, session, key, atMs, GENERATION_2025);
        }
    }

    /**
     * One request about a task: {@code endMs} is null when it was never answered; {@code status} the task status the
     * answer carried, {@code error} the error it was; {@code abandonedMs} when the server saw the client close the
     * request's connection before the answer was written, else null (the server may still have worked on it);
     * {@code beginLine} and {@code abandonedLine} the places of those lines in the journal, which the server writes in
     * the order of its events, so they order a close and a begin within the same millisecond.
     */
    public record Call(long id, String taskId, String method, String session, long beginMs, Long endMs, String status,
            String error, Long abandonedMs, long beginLine, long abandonedLine) {
        public Call(long id, String taskId, String method, String session, long beginMs, Long endMs, String status,
                String error) {
            this(id, taskId, method, session, beginMs, endMs, status, error, null, id, -1);
        }

        /** Whether the client had closed this call's connection, unanswered, before {@code other} began. */
        public boolean abandonedBefore(Call other) {
            return abandonedMs != null && abandonedLine < other.beginLine && abandonedMs <= other.beginMs;
        }

        /** Whether this call and {@code other} were both in flight at some moment (an unanswered call never ends). */
        public boolean overlaps(Call other) {
            long thisEnd = endMs == null ? Long.MAX_VALUE : endMs;
            long otherEnd = other.endMs == null ? Long.MAX_VALUE : other.endMs;
            return beginMs < otherEnd && other.beginMs < thisEnd;
        }
    }

    /** How a remote task ended on the server, with its CallToolResult (null when cancelled). */
    public record Terminal(String taskId, String status, JsonNode result, long atMs) {}

    /**
     * The client tag of the session, or {@code "?"} when the session sent none: a 2025 session's from its
     * {@code session} line, a 2026 call's from its pseudo-session {@code 2026:<tag>}.
     */
    public String client(String session) {
        String tag = clientBySession.get(session);
        if (tag != null) {
            return tag;
        }
        String prefix2026 = SESSION_2026 + ":";
        if (session != null && session.startsWith(prefix2026) && session.length() > prefix2026.length()) {
            return session.substring(prefix2026.length());
        }
        return "?";
    }

    /**
     * The client tag of the request that made the call (a client may speak in a session another client created, to
     * reach a task bound to it), else its session's ({@link #client(String)}).
     */
    public String client(Call call) {
        String own = clientByCall.get(call.id());
        return own != null ? own : client(call.session());
    }

    public static ServerJournal read(Path file) {
        try {
            return parse(Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the server's call log " + file, e);
        }
    }

    /** Parses journal lines; a torn last line (the server killed mid-write) is ignored. */
    public static ServerJournal parse(List<String> lines) {
        Map<String, String> clients = new HashMap<>();
        Map<Long, String> callClients = new HashMap<>();
        List<Creation> creations = new ArrayList<>();
        Map<Long, Call> calls = new LinkedHashMap<>();
        Map<String, Terminal> terminals = new HashMap<>();
        List<ReusedId> reused = new ArrayList<>();
        long index = -1;
        for (String text : lines) {
            index++;
            long lineNo = index;
            JsonNode line;
            try {
                line = MAPPER.readTree(text);
            } catch (IOException e) {
                continue;
            }
            if (line == null) {
                continue;
            }
            long at = line.path("t").asLong();
            switch (line.path("e").asText()) {
                case "session" -> clients.put(line.path("session").asText(), line.path("client").asText("?"));
                case "create" -> creations.add(new Creation(line.path("task").asText(), line.path("session").asText(),
                        line.path("arguments").path(KEY_ARGUMENT).asText(null), at,
                        line.path("generation").asText(GENERATION_2025)));
                case "begin" -> {
                    if (line.hasNonNull("client")) {
                        callClients.put(line.path("call").asLong(), line.path("client").asText());
                    }
                    calls.put(line.path("call").asLong(), new Call(line.path("call").asLong(),
                            line.path("task").asText(), line.path("method").asText(), line.path("session").asText(),
                            at, null, null, null, null, lineNo, -1));
                }
                case "end" -> calls.computeIfPresent(line.path("call").asLong(), (id, begun) -> new Call(id,
                        begun.taskId(), begun.method(), begun.session(), begun.beginMs(), at,
                        line.path("status").asText(null), line.path("error").asText(null), begun.abandonedMs(),
                        begun.beginLine(), begun.abandonedLine()));
                // the server writes an abandon line only for a call it has not answered yet
                case "abandon" -> calls.computeIfPresent(line.path("call").asLong(), (id, begun) ->
                        begun.abandonedMs() != null || begun.endMs() != null ? begun : new Call(id, begun.taskId(),
                                begun.method(), begun.session(), begun.beginMs(), null, null, null, at,
                                begun.beginLine(), lineNo));
                case "terminal" -> terminals.put(line.path("task").asText(), new Terminal(line.path("task").asText(),
                        line.path("status").asText(), line.path("result").isObject() ? line.get("result") : null,
                        at));
                case "reused_id" -> reused.add(new ReusedId(line.path("session").asText(), line.path("id").asText(),
                        line.path("in_flight").asBoolean(), at));
                default -> { }
            }
        }
        return new ServerJournal(clients, callClients, creations, new ArrayList<>(calls.values()), terminals,
                reused);
    }
}
