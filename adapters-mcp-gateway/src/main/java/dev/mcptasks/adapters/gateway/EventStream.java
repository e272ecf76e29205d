package dev.mcptasks.adapters.gateway;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One SSE stream of a session (a POST's answer stream or the GET notification stream) as an ordered log of events,
 * independent of the connection currently carrying it. A resumable stream numbers its events {@code <stream>-<seq>},
 * starts with a priming event (id, {@code retry:}, empty data) and keeps its latest events, so a client whose
 * connection dropped, or was closed by the gateway for polling, resumes with GET and {@code Last-Event-ID} and gets
 * exactly this stream's missed events, never another stream's. A stream outlives its connections; it ends with its
 * final event (a POST's response) or with its session.
 */
final class EventStream {
    /** Events kept per stream for resumption; older ones are dropped first (a very long GET stream's history). */
    static final int RETAINED_EVENTS = 256;

    private record Event(long seq, String text) {}

    private final int number;
    private final boolean resumable;
    private final RetainedAnswers budget;
    private final Deque<Event> retained = new ArrayDeque<>();
    private long lastSeq;
    private SseConnection sink;
    private boolean finished;
    /** The kept events were let go to bound memory ({@link RetainedAnswers}): the stream cannot be resumed. */
    private boolean letGo;

    private EventStream(int number, boolean resumable, RetainedAnswers budget) {
        this.number = number;
        this.resumable = resumable;
        this.budget = budget;
    }

    /**
     * A stream of a 2025 session, primed with its first event id and the reconnection delay; once ended, what it keeps
     * is charged to {@code budget}.
     */
    static EventStream resumable(int number, long retryMillis, RetainedAnswers budget) {
        EventStream stream = new EventStream(number, true, budget);
        stream.retained.add(new Event(0, "id: " + number + "-0\nretry: " + retryMillis + "\ndata: \n\n"));
        return stream;
    }

    /** A 2026 answer stream: no ids, nothing kept, no resumption (the 2026 transport has none). */
    static EventStream ephemeral() {
        return new EventStream(-1, false, null);
    }

    int number() {
        return number;
    }

    /** Appends a message event and writes it to the current connection, if any; dropped after the stream ended. */
    synchronized void send(String json) {
        if (finished) {
            return;
        }
        long seq = ++lastSeq;
        String text = resumable ? "id: " + number + "-" + seq + "\nevent: message\ndata: " + json + "\n\n"
                : "event: message\ndata: " + json + "\n\n";
        if (resumable) {
            retained.add(new Event(seq, text));
            while (retained.size() > RETAINED_EVENTS) {
                retained.removeFirst();
            }
        }
        if (sink != null) {
            sink.write(text);
        }
    }

    /** Sends the final event (the response) and ends the stream and its connection. */
    void finish(String json) {
        long keeping;
        synchronized (this) {
            if (finished) {
                return;
            }
            send(json);
            end();
            keeping = keptChars();
        }
        // charged outside this stream's lock: the budget may make other streams let go
        if (budget != null) {
            budget.ended(this, keeping);
        }
    }

    private long keptChars() {
        long chars = 0;
        for (Event event : retained) {
            chars += event.text().length();
        }
        return chars;
    }

    /**
     * Drops the kept events (memory bound, or the session forgot the stream) and returns how many characters they
     * held; a later resume is refused ({@link #resumable()}). Idempotent: a second call returns 0.
     */
    synchronized long letGo() {
        if (letGo) {
            return 0;
        }
        long chars = keptChars();
        retained.clear();
        letGo = true;
        return chars;
    }

    /** False once the kept events were let go: a {@code Last-Event-ID} for this stream cannot be answered. */
    synchronized boolean resumable() {
        return !letGo;
    }

    /** Forgotten by its session: no longer charged to the budget. */
    void forgotten() {
        if (budget != null) {
            budget.forgotten(this);
        }
    }

    /** Ends the stream without a further event (its session ended, or a newer GET stream replaced it). */
    synchronized void end() {
        finished = true;
        if (sink != null) {
            sink.end();
            sink = null;
        }
    }

    /**
     * Makes {@code connection} carry this stream: replays the kept events after {@code afterSeq} (-1: all, priming
     * included), then either ends it (the stream is over) or keeps writing to it. A connection still attached, which
     * the client has evidently given up on, is ended first.
     */
    synchronized void attach(SseConnection connection, long afterSeq) {
        if (sink != null && sink != connection) {
            sink.end();
        }
        for (Event event : retained) {
            if (event.seq() > afterSeq) {
                connection.write(event.text());
            }
        }
        if (finished) {
            sink = null;
            connection.end();
        } else {
            sink = connection;
        }
    }

    /** The connection went away (the client's doing, or the gateway's for polling); events are kept meanwhile. */
    synchronized void detach(SseConnection connection) {
        if (sink == connection) {
            sink = null;
        }
    }

    /** Closes the current connection mid-stream so the client polls: it resumes with {@code Last-Event-ID}. */
    synchronized void disconnect() {
        if (sink != null && !finished) {
            sink.end();
            sink = null;
        }
    }

    /** True while a connection carries the stream. */
    synchronized boolean connected() {
        return sink != null;
    }

    synchronized boolean finished() {
        return finished;
    }
}
