package dev.mcptasks.oauth;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads an OAuth answer's body as UTF-8 text, holding at most {@code limit} bytes: one byte more cancels the
 * subscription (the client then closes the connection) and fails the body with {@link TooLarge}. The same
 * subscriber shape as the webhook sink's body: memory is bounded while reading, never checked after buffering.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {
    private final int limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int limit) {
        this.limit = limit;
    }

    static HttpResponse.BodyHandler<String> handler(int limit) {
        return info -> new BoundedBody(limit);
    }

    /** The body went past the limit; nothing past it was kept. */
    static final class TooLarge extends RuntimeException {
        TooLarge(int limit) {
            super("more than " + limit + " bytes", null, false, false);
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if (buffer.remaining() > limit - bytes.size()) {
                body.completeExceptionally(new TooLarge(limit));
                subscription.cancel();
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toString(StandardCharsets.UTF_8));
    }

    @Override
    public CompletionStage<String> getBody() {
        return body;
    }
}
