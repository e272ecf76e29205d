package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcptasks.adapters.httpsupport.BoundedBody;
import dev.mcptasks.domain.DurationText;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The HTTP requests of the OAuth flows (metadata, registration, token), blocking: they run on the authorizers'
 * executor, never on a transport's thread. Redirects are not followed (a token endpoint that redirects is an error,
 * RFC 6749 section 3.2). Every exchange is bounded in size ({@link #MAX_BODY_BYTES}, enforced while reading) and
 * in time (headers and body within the timeout), so an upstream that streams or trickles cannot exhaust the heap
 * or hold a flow.
 */
final class OAuthHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The most an OAuth answer (metadata, registration, token) may hold; more is refused, not buffered. */
    static final int MAX_BODY_BYTES = 1024 * 1024;

    private final HttpClient client;
    private final Duration timeout;

    OAuthHttp(HttpClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    record Reply(int status, String body, java.net.http.HttpHeaders headers) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The body as a JSON object, or a failure naming {@code what} and the cause. */
        JsonNode json(String what) {
            try {
                JsonNode node = JSON.readTree(body);
                if (node == null || !node.isObject()) {
                    throw new OAuthFailure(what + " is not a JSON object (HTTP " + status + ")");
                }
                return node;
            } catch (IOException e) {
                throw new OAuthFailure(what + " is not valid JSON (HTTP " + status + ")");
            }
        }
    }

    Reply get(URI uri) {
        return send(HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET().build());
    }

    Reply postForm(URI uri, Map<String, String> form, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(formEncode(form)));
        headers.forEach(request::header);
        return send(request.build());
    }

    Reply postJson(URI uri, String json, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        headers.forEach(request::header);
        return send(request.build());
    }

    /**
     * Posts a JSON-RPC message and keeps only the status and headers: the body may be an event stream that stays
     * open, so it is closed unread.
     */
    Reply probe(URI uri, String json, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        headers.forEach(request::header);
        HttpResponse<java.io.InputStream> response = exchange(request.build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try {
            response.body().close();
        } catch (IOException e) {
            // closing an unread body only gives the connection up
        }
        return new Reply(response.statusCode(), "", response.headers());
    }

    private Reply send(HttpRequest request) {
        HttpResponse<String> response = exchange(request, BoundedBody.failingPast(MAX_BODY_BYTES));
        return new Reply(response.statusCode(), response.body() == null ? "" : response.body(), response.headers());
    }

    /**
     * One exchange, headers and body, within {@link #timeout}: the client's request timeout stops at the headers,
     * so a body that trickles would hold the flow (and every challenge of its server waiting on it) for as long as
     * the upstream likes. Past the deadline the exchange is cancelled, which aborts its connection.
     */
    private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        String what = request.method() + " " + strip(request.uri());
        CompletableFuture<HttpResponse<T>> exchange = client.sendAsync(request, handler);
        try {
            return exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new OAuthFailure(what + " did not answer within " + describe(timeout) + " (headers and body)");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new OAuthFailure(what + " was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof BoundedBody.TooLarge) {
                throw new OAuthFailure(what + " answered more than " + MAX_BODY_BYTES
                        + " bytes; stopped reading at that cap");
            }
            if (cause instanceof java.net.http.HttpTimeoutException) {
                throw new OAuthFailure(what + " did not answer within " + describe(timeout), cause);
            }
            throw new OAuthFailure(what + " failed: "
                    + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
        }
    }

    static String describe(Duration duration) {
        return DurationText.of(duration);
    }

    /** The url without its query (authorization urls and the like may carry codes). */
    static String strip(URI uri) {
        String text = uri.toString();
        int query = text.indexOf('?');
        return query < 0 ? text : text.substring(0, query);
    }

    static String formEncode(Map<String, String> form) {
        StringJoiner body = new StringJoiner("&");
        form.forEach((name, value) -> {
            if (value != null) {
                body.add(encode(name) + "=" + encode(value));
            }
        });
        return body.toString();
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
