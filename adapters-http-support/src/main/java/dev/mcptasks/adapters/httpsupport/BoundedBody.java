package dev.mcptasks.adapters.httpsupport;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads an answer's body (JDK {@link java.net.http.HttpClient}) as UTF-8 text, holding at most {@code limit} bytes:
 * memory is bounded while reading, never checked after buffering. Past the limit the subscription is cancelled (the
 * client then closes that connection instead of reusing it) and the body either fails with {@link TooLarge}
 * ({@link #failingPast}: an answer that must be whole) or ends as the prefix read ({@link #truncatedAt}: a body that
 * is only reported). A body that fails midway fails the exchange: an answer cut short is no answer.
 */
public final class BoundedBody implements HttpResponse.BodySubscriber<String> {
    private final int limit;
    private final boolean truncate;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int limit, boolean truncate) {
        this.limit = limit;
        this.truncate = truncate;
    }

    /** Bodies of at most {@code limit} bytes; a longer one fails with {@link TooLarge}, nothing past it kept. */
    public static HttpResponse.BodyHandler<String> failingPast(int limit) {
        return info -> new BoundedBody(limit, false);
    }

    /** The first {@code limit} bytes of a body, the rest never held. */
    public static HttpResponse.BodyHandler<String> truncatedAt(int limit) {
        return info -> new BoundedBody(limit, true);
    }

    /** The body went past the limit; nothing past it was kept. */
    public static final class TooLarge extends RuntimeException {
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
            int room = limit - bytes.size();
            if (buffer.remaining() > room) {
                if (truncate) {
                    keep(buffer, room);
                    finish();
                } else {
                    body.completeExceptionally(new TooLarge(limit));
                }
                subscription.cancel();
                return;
            }
            keep(buffer, buffer.remaining());
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        finish();
    }

    @Override
    public CompletionStage<String> getBody() {
        return body;
    }

    private void keep(ByteBuffer buffer, int count) {
        byte[] chunk = new byte[count];
        buffer.get(chunk);
        bytes.write(chunk, 0, count);
    }

    private void finish() {
        // a multi-byte character cut at the limit decodes to a replacement character: a prefix is only a hint
        body.complete(bytes.toString(StandardCharsets.UTF_8));
    }
}
