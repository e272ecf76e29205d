package dev.mcptasks.webhook;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads at most {@link #LIMIT} bytes of an answer's body, as text: only a prefix is ever reported, and a receiver
 * that answers with megabytes must not make the sink hold them. Past the limit the subscription is cancelled (the
 * client then closes that connection instead of reusing it). A body that fails midway fails the exchange: it is
 * how an aborted exchange (the sink's deadline) ends, and an answer cut short is no answer, even with a 2xx status.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {
    static final int LIMIT = 1024;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    static HttpResponse.BodyHandler<String> handler() {
        return info -> new BoundedBody();
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
            int take = Math.min(buffer.remaining(), LIMIT - bytes.size());
            byte[] chunk = new byte[take];
            buffer.get(chunk);
            bytes.write(chunk, 0, take);
            if (buffer.hasRemaining()) {
                finish();
                subscription.cancel();
                return;
            }
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

    private void finish() {
        // a multi-byte character cut at the limit decodes to a replacement character: the text is only a hint
        body.complete(bytes.toString(StandardCharsets.UTF_8));
    }
}
