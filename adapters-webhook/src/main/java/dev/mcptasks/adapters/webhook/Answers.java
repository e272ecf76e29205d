package dev.mcptasks.adapters.webhook;

import dev.mcptasks.domain.DurationText;
import dev.mcptasks.ports.notification.DeliveryResult;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns one request's end into a {@link DeliveryResult}: 2xx delivered, 409 busy, 404 and 410 gone, anything else
 * (and every failure to get an answer) a counted failure. Details are one line naming the endpoint by its origin,
 * with at most {@link #MAX_BODY_CHARS} characters of the answer's body, and never the secret, even if a receiver
 * echoes it.
 */
final class Answers {
    static final int MAX_BODY_CHARS = 200;

    private final String endpoint;
    private final String url;
    private final WebhookSecret secret;

    Answers(WebhookSettings settings) {
        this.endpoint = settings.endpoint();
        this.url = settings.url().toString();
        this.secret = settings.secret();
    }

    DeliveryResult answered(int status, String body) {
        if (status >= 200 && status < 300) {
            return new DeliveryResult.Delivered();
        }
        String detail = "HTTP " + status + " from " + endpoint + excerpt(body);
        return switch (status) {
            case 409 -> new DeliveryResult.Busy(detail);
            case 404, 410 -> new DeliveryResult.Gone(detail);
            default -> new DeliveryResult.Failed(detail);
        };
    }

    DeliveryResult timedOut(Duration timeout) {
        return new DeliveryResult.Failed("no answer from " + endpoint + " within " + seconds(timeout)
                + " (timed out)");
    }

    DeliveryResult failed(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof HttpConnectTimeoutException) {
            return new DeliveryResult.Failed("connecting to " + endpoint + " timed out");
        }
        if (cause instanceof HttpTimeoutException) {
            return new DeliveryResult.Failed("no answer from " + endpoint + " in time (timed out)");
        }
        String what = cause instanceof ConnectException ? "connecting to " : "the request to ";
        String message = cause.getMessage() == null ? "" : ": " + oneLine(cause.getMessage());
        return new DeliveryResult.Failed(cap(what + endpoint + " failed: " + cause.getClass().getSimpleName()
                + message, 300));
    }

    DeliveryResult unsendable(RuntimeException error) {
        return new DeliveryResult.Failed(cap("the notification cannot be sent to " + endpoint + ": "
                + oneLine(String.valueOf(error.getMessage())), 300));
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private String excerpt(String body) {
        String text = body == null ? "" : oneLine(body);
        return text.isEmpty() ? "" : ": " + cap(text, MAX_BODY_CHARS);
    }

    /** One line, without the full URL (its path may be a token) and without the secret. */
    private String oneLine(String text) {
        return secret.redact(text.replace(url, endpoint)).replaceAll("\\s+", " ").strip();
    }

    private static String cap(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    private static String seconds(Duration timeout) {
        return DurationText.of(timeout);
    }
}
