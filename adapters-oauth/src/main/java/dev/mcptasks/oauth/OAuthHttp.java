package dev.mcptasks.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * The HTTP requests of the OAuth flows (metadata, registration, token), blocking: they run on the authorizers'
 * executor, never on a transport's thread. Redirects are not followed (a token endpoint that redirects is an error,
 * RFC 6749 section 3.2), and bodies are bounded.
 */
final class OAuthHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY_CHARS = 1024 * 1024;

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
        HttpRequest built = request.build();
        try {
            HttpResponse<java.io.InputStream> response = client.send(built, HttpResponse.BodyHandlers.ofInputStream());
            response.body().close();
            return new Reply(response.statusCode(), "", response.headers());
        } catch (IOException e) {
            throw new OAuthFailure("POST " + strip(uri) + " failed: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OAuthFailure("POST " + strip(uri) + " was interrupted", e);
        }
    }

    private Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            String body = response.body() == null ? "" : response.body();
            if (body.length() > MAX_BODY_CHARS) {
                throw new OAuthFailure(request.method() + " " + strip(request.uri()) + " answered more than "
                        + MAX_BODY_CHARS + " characters");
            }
            return new Reply(response.statusCode(), body, response.headers());
        } catch (IOException e) {
            throw new OAuthFailure(request.method() + " " + strip(request.uri()) + " failed: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OAuthFailure(request.method() + " " + strip(request.uri()) + " was interrupted", e);
        }
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
