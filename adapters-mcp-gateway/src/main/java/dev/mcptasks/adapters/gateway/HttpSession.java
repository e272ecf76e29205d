package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * A 2025-11-25 session of the HTTP endpoint: its principal, its SSE streams (kept for resumption) and its requests in
 * flight. A notification goes to the stream of the request it belongs to (by progress token, or by related task for a
 * blocked {@code tasks/result}), else to the GET stream, else nowhere: notifications are advisory, clients poll.
 */
final class HttpSession implements FrontSession {
    /** Ended streams kept per session for a late {@code Last-Event-ID}; the oldest go first. */
    static final int KEPT_ENDED_STREAMS = 16;

    private final String id;
    private final String principal;
    private final long retryMillis;
    private final Function<ObjectNode, String> json;
    private final LongSupplier nanoTime;
    private final RetainedAnswers budget;
    private volatile long lastActive;
    /** When its last use was last written to the store, on the monotonic clock. */
    private final AtomicLong storedUse;
    private final Set<PostExchange> inFlight = ConcurrentHashMap.newKeySet();
    private final Map<Integer, EventStream> streams = new LinkedHashMap<>();
    private EventStream listening;
    private int lastStream;
    private boolean closed;

    HttpSession(String id, String principal, long retryMillis, Function<ObjectNode, String> json,
            LongSupplier nanoTime, RetainedAnswers budget) {
        this.budget = budget;
        this.id = id;
        this.principal = principal;
        this.retryMillis = retryMillis;
        this.json = json;
        this.nanoTime = nanoTime;
        this.lastActive = nanoTime.getAsLong();
        this.storedUse = new AtomicLong(lastActive);
    }

    @Override
    public String id() {
        return id;
    }

    String principal() {
        return principal;
    }

    @Override
    public void notify(ObjectNode notification) {
        for (PostExchange exchange : inFlight) {
            if (exchange.relatesTo(notification)) {
                exchange.notifyRelated(notification);
                return;
            }
        }
        toListeningStream(notification);
    }

    /** Sends on the GET stream, or drops when the client has none. */
    void toListeningStream(ObjectNode notification) {
        EventStream stream;
        synchronized (this) {
            stream = listening;
        }
        if (stream != null) {
            stream.send(json.apply(notification));
        }
    }

    void started(PostExchange exchange) {
        inFlight.add(exchange);
        touch();
    }

    void ended(PostExchange exchange) {
        inFlight.remove(exchange);
        touch();
    }

    /** When the client last did something, on the gateway's monotonic clock. */
    long lastActive() {
        return lastActive;
    }

    /** The client did something (a request, a stream it closed): the idle time counts from now. */
    void touch() {
        lastActive = nanoTime.getAsLong();
    }

    /**
     * True when the session has been idle for {@code timeoutNanos}: no request for that long, no client connected to
     * wait for an answer, and no GET stream connected (a connected listener is a live client however quiet). An
     * answer stream whose client left and never resumed does not keep the session alive.
     */
    boolean idleFor(long timeoutNanos) {
        return !clientConnected() && nanoTime.getAsLong() - lastActive >= timeoutNanos;
    }

    /** True while a client waits on the session: a request whose client is still connected, or the GET stream. */
    boolean clientConnected() {
        if (inFlight.stream().anyMatch(PostExchange::live)) {
            return true;
        }
        EventStream stream;
        synchronized (this) {
            stream = listening;
        }
        return stream != null && stream.connected();
    }

    /** The session's last use was written to the store at {@code nanos}. */
    void storedUse(long nanos) {
        storedUse.set(nanos);
    }

    /**
     * True, once per interval, when the last use written to the store is {@code everyNanos} old at {@code now}; the
     * caller then writes it (so concurrent requests write it once).
     */
    boolean storeUseDue(long now, long everyNanos) {
        long last = storedUse.get();
        return now - last >= everyNanos && storedUse.compareAndSet(last, now);
    }

    /** A new answer stream for a POST; empty once the session is closed. */
    synchronized Optional<EventStream> newStream() {
        if (closed) {
            return Optional.empty();
        }
        EventStream stream = EventStream.resumable(++lastStream, retryMillis, budget);
        streams.put(stream.number(), stream);
        forgetOldEndedStreams();
        return Optional.of(stream);
    }

    /** Opens the GET stream on {@code connection}, ending the previous one; empty once the session is closed. */
    synchronized Optional<EventStream> listen(SseConnection connection) {
        Optional<EventStream> stream = newStream();
        stream.ifPresent(opened -> {
            if (listening != null) {
                listening.end();
            }
            listening = opened;
            opened.attach(connection, -1);
        });
        return stream;
    }

    synchronized Optional<EventStream> stream(int number) {
        return Optional.ofNullable(streams.get(number));
    }

    /**
     * Ends every stream (their connections close) and abandons the requests still waiting (the dispatcher's futures
     * are cancelled: nobody can collect their answers); later notifications are dropped.
     */
    void close() {
        List<EventStream> ending;
        synchronized (this) {
            closed = true;
            ending = new ArrayList<>(streams.values());
            streams.clear();
            listening = null;
        }
        ending.forEach(EventStream::end);
        ending.forEach(EventStream::forgotten);
        inFlight.forEach(PostExchange::sessionEnded);
    }

    private void forgetOldEndedStreams() {
        int ended = 0;
        for (EventStream stream : streams.values()) {
            ended += stream.finished() ? 1 : 0;
        }
        Iterator<EventStream> oldestFirst = streams.values().iterator();
        while (ended > KEPT_ENDED_STREAMS && oldestFirst.hasNext()) {
            EventStream stream = oldestFirst.next();
            if (stream.finished()) {
                oldestFirst.remove();
                stream.forgotten();
                ended--;
            }
        }
    }
}
