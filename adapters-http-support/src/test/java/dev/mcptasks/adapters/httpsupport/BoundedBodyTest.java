package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

/** Both ways a body is bounded: whole or failed, and prefix only; past the limit the subscription is cancelled. */
class BoundedBodyTest {
    private boolean cancelled;

    private HttpResponse.BodySubscriber<String> subscribed(HttpResponse.BodyHandler<String> handler) {
        HttpResponse.BodySubscriber<String> subscriber = handler.apply(null);
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {}

            @Override
            public void cancel() {
                cancelled = true;
            }
        });
        return subscriber;
    }

    private static ByteBuffer text(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static CompletableFuture<String> body(HttpResponse.BodySubscriber<String> subscriber) {
        return subscriber.getBody().toCompletableFuture();
    }

    @Test
    void aBodyAtTheLimitIsWholeEitherWay() {
        for (HttpResponse.BodyHandler<String> handler : List.of(BoundedBody.failingPast(10),
                BoundedBody.truncatedAt(10))) {
            HttpResponse.BodySubscriber<String> subscriber = subscribed(handler);
            subscriber.onNext(List.of(text("01234"), text("56789")));
            subscriber.onComplete();

            assertThat(body(subscriber)).isCompletedWithValue("0123456789");
            assertThat(cancelled).isFalse();
        }
    }

    @Test
    void failingPastTheLimitFailsAndCancels() {
        HttpResponse.BodySubscriber<String> subscriber = subscribed(BoundedBody.failingPast(10));
        subscriber.onNext(List.of(text("01234"), text("567890")));

        assertThat(body(subscriber)).isCompletedExceptionally();
        assertThat(body(subscriber).handle((value, error) -> error).join()).isInstanceOf(BoundedBody.TooLarge.class)
                .hasMessageContaining("10 bytes");
        assertThat(cancelled).isTrue();
    }

    @Test
    void truncatedAtTheLimitKeepsThePrefixAndCancels() {
        HttpResponse.BodySubscriber<String> subscriber = subscribed(BoundedBody.truncatedAt(10));
        subscriber.onNext(List.of(text("01234"), text("56789-and-megabytes-more")));
        subscriber.onNext(List.of(text("ignored")));

        assertThat(body(subscriber)).isCompletedWithValue("0123456789");
        assertThat(cancelled).isTrue();
    }

    @Test
    void aBodyThatFailsMidwayFailsTheExchange() {
        HttpResponse.BodySubscriber<String> subscriber = subscribed(BoundedBody.truncatedAt(10));
        subscriber.onNext(List.of(text("012")));
        subscriber.onError(new java.io.IOException("reset"));

        assertThat(body(subscriber)).isCompletedExceptionally();
    }
}
