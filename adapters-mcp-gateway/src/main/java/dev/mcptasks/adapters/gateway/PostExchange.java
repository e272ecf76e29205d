package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.GenericFutureListener;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One POSTed JSON-RPC request waiting for the dispatcher's answer. It answers {@code application/json} when the
 * answer comes quickly, and turns into an SSE stream (priming event, keep-alive comments, related notifications, then
 * the response) when the answer takes longer than {@code sseAfter} or a notification for it arrives first, provided
 * the client accepts {@code text/event-stream}. All state changes run on the channel's event loop, so the answer, the
 * timers and a closing connection cannot race one another into two responses.
 */
final class PostExchange {
    private static final String RELATED_TASK = "io.modelcontextprotocol/related-task";

    private enum State { PENDING, STREAMING, DONE }

    /** How the JSON answer is framed: its HTTP status and extra headers (e.g. a new session's id). */
    interface JsonFraming {
        HttpResponseStatus status(ObjectNode answer);

        Map<String, String> headers(ObjectNode answer);
    }

    private final Channel channel;
    private final boolean keepAlive;
    private final HttpReplies replies;
    private final ObjectNode request;
    private final HttpSession session;
    private final boolean cancelOnClose;
    private final boolean acceptsSse;
    private final SseStreams streams;
    private final JsonFraming framing;
    private final GenericFutureListener<ChannelFuture> onClose;
    private CompletableFuture<Optional<ObjectNode>> pending;
    private State state = State.PENDING;
    private boolean abandoned;
    /** Read by the idle sweep from another thread; written on the event loop. */
    private volatile EventStream stream;
    private SseConnection connection;
    private ScheduledFuture<?> sseTimer;
    private ScheduledFuture<?> pollTimer;

    /**
     * @param session the request's 2025 session (its streams are resumable and take related notifications), or null
     *     (a stateless 2026 request, or an {@code initialize} whose session does not exist yet)
     * @param cancelOnClose whether the client closing the connection cancels the request even once its answer
     *     streams (2026, where that is the definition of cancelling a request); a 2025 answer stream outlives its
     *     connection for a resuming GET, so there only a request still waiting for a JSON answer is cancelled
     */
    PostExchange(Channel channel, boolean keepAlive, HttpReplies replies, ObjectNode request, HttpSession session,
            boolean cancelOnClose, boolean acceptsSse, SseStreams streams, JsonFraming framing) {
        this.channel = channel;
        this.keepAlive = keepAlive;
        this.replies = replies;
        this.request = request;
        this.session = session;
        this.cancelOnClose = cancelOnClose;
        this.acceptsSse = acceptsSse;
        this.streams = streams;
        this.framing = framing;
        this.onClose = closed -> connectionClosed();
        channel.closeFuture().addListener(onClose);
        if (session != null) {
            session.started(this);
        }
    }

    /** On the event loop: the dispatcher has taken the request; start the clock for an SSE answer. */
    void dispatched(CompletableFuture<Optional<ObjectNode>> future) {
        pending = future;
        if (abandoned) {
            future.cancel(false);
            return;
        }
        if (state != State.PENDING || future.isDone() || !acceptsSse) {
            return;
        }
        long after = streams.settings().sseAfter().toMillis();
        if (after == 0) {
            stream();
        } else {
            sseTimer = channel.eventLoop().schedule(() -> {
                if (state == State.PENDING) {
                    stream();
                }
            }, after, TimeUnit.MILLISECONDS);
        }
    }

    /** On the event loop: the dispatcher answered (or failed). */
    void answered(Optional<ObjectNode> answer, Throwable failure) {
        if (state == State.DONE) {
            return;
        }
        ObjectNode response = JsonRpc.responseTo(request, answer, failure);
        if (state == State.PENDING) {
            replies.json(channel, keepAlive, framing.status(response), response, framing.headers(response));
        } else {
            stream.finish(replies.text(response));
        }
        done();
    }

    /** True when {@code notification} belongs to this request: its progress token, or its task's blocked result. */
    boolean relatesTo(ObjectNode notification) {
        JsonNode params = notification.path("params");
        JsonNode token = request.path("params").path("_meta").get("progressToken");
        if (token != null && !token.isNull() && token.equals(params.get("progressToken"))) {
            return true;
        }
        if (!"tasks/result".equals(request.path("method").asText())) {
            return false;
        }
        JsonNode taskId = request.path("params").get("taskId");
        return taskId != null && taskId.equals(params.path("_meta").path(RELATED_TASK).get("taskId"));
    }

    /** Any thread: a notification about this request goes on its stream, which it opens if need be. */
    void notifyRelated(ObjectNode notification) {
        OnLoop.run(channel, () -> {
            if (state == State.DONE || !acceptsSse || session == null) {
                if (session != null) {
                    session.toListeningStream(notification);
                }
                return;
            }
            if (state == State.PENDING) {
                stream();
            }
            stream.send(replies.text(notification));
        });
    }

    /**
     * The request's own stream for messages ahead of its answer (2026 {@code subscriptions/listen}): available when
     * the client accepts {@code text/event-stream}; the first message turns the answer into an SSE stream.
     */
    RequestStream requestStream() {
        return new RequestStream() {
            @Override
            public boolean available() {
                return acceptsSse;
            }

            @Override
            public void send(ObjectNode message) {
                push(message);
            }
        };
    }

    /** Any thread: {@code message} goes on this request's stream, which it opens if need be; kept in call order. */
    private void push(ObjectNode message) {
        OnLoop.run(channel, () -> {
            if (state == State.DONE || !acceptsSse) {
                return;
            }
            if (state == State.PENDING) {
                stream();
            }
            stream.send(replies.text(message));
        });
    }

    private void stream() {
        state = State.STREAMING;
        cancel(sseTimer);
        stream = session == null ? EventStream.ephemeral() : session.newStream().orElseGet(EventStream::ephemeral);
        connection = streams.open(channel);
        stream.attach(connection, -1);
        long pollAfter = streams.settings().pollAfter().toMillis();
        if (session != null && pollAfter > 0) {
            // SEP-1699 polling: the connection goes, the stream stays; the client comes back with Last-Event-ID.
            pollTimer = channel.eventLoop().schedule(() -> {
                if (state == State.STREAMING) {
                    stream.disconnect();
                }
            }, pollAfter, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * On the event loop: the client's connection closed. Nobody can receive the answer any more, so the dispatcher's
     * future is cancelled (its waits stop), unless the answer streams on a 2025 stream: that keeps collecting events
     * for a GET with {@code Last-Event-ID} until the answer comes or the session ends.
     */
    private void connectionClosed() {
        if (state == State.DONE) {
            return;
        }
        if (cancelOnClose || state == State.PENDING) {
            abandon();
        } else {
            stream.detach(connection);
            if (session != null) {
                session.touch();
            }
        }
    }

    /** Any thread: the session ended (DELETE, idle, the gateway stops); nobody will collect the answer. */
    void sessionEnded() {
        OnLoop.run(channel, () -> {
            if (state != State.DONE) {
                abandon();
            }
        });
    }

    /** Any thread: whether a client is still there to take the answer (its connection, or a resumed stream's). */
    boolean live() {
        EventStream current = stream;
        return channel.isActive() || current != null && current.connected();
    }

    private void abandon() {
        abandoned = true;
        if (pending != null) {
            pending.cancel(false);
        }
        done();
    }

    private void done() {
        state = State.DONE;
        cancel(sseTimer);
        cancel(pollTimer);
        channel.closeFuture().removeListener(onClose);
        if (session != null) {
            session.ended(this);
        }
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
