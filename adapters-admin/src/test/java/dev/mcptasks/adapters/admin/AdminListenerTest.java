package dev.mcptasks.adapters.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The listener alone: routes by exact path, the bearer token, the refusal beyond loopback, probes bounded in time. */
class AdminListenerTest {
    private static final String TOKEN = "0123456789abcdef0123";
    private final HttpClient http = HttpClient.newHttpClient();
    private final CountDownLatch release = new CountDownLatch(1);
    private AdminListener listener;

    @AfterEach
    void close() {
        release.countDown();
        if (listener != null) {
            listener.close();
        }
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + listener.address().getPort() + path)).timeout(Duration.ofSeconds(20));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void registeredRoutesAnswerByExactPathAndOthersAre404() throws Exception {
        listener = new AdminListener(new AdminSettings("127.0.0.1", 0, null),
                Map.of("/hello", request -> AdminReply.text(200, "hello " + request.query().get("name") + "\n")));
        listener.start();

        assertThat(get("/hello?name=ops", null).body()).isEqualTo("hello [ops]\n");
        assertThat(get("/hello/x", null).statusCode()).isEqualTo(404);
    }

    @Test
    void aConfiguredTokenIsRequiredOnEveryRouteButTheProbes() throws Exception {
        listener = new AdminListener(new AdminSettings("127.0.0.1", 0, TOKEN),
                Map.of("/metrics", request -> AdminReply.text(200, "m\n"),
                        "/healthz", request -> AdminReply.text(200, "ok\n"),
                        "/readyz", request -> AdminReply.text(503, "not ready\n")));
        listener.start();

        // an orchestrator's probes carry no secret
        assertThat(get("/healthz", null).body()).isEqualTo("ok\n");
        assertThat(get("/readyz", null).statusCode()).isEqualTo(503);

        assertThat(get("/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get("/metrics", "Bearer wrong-token-wrong-token").statusCode()).isEqualTo(401);
        assertThat(get("/nothing", null).statusCode()).as("no route is revealed before authentication")
                .isEqualTo(401);
        assertThat(get("/metrics", "Bearer " + TOKEN).body()).isEqualTo("m\n");
    }

    @Test
    void aNonLoopbackAddressWithoutATokenIsRefusedBeforeBinding() {
        assertThatThrownBy(() -> new AdminListener(new AdminSettings("0.0.0.0", 0, null), Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("refusing to serve the admin listener on the non-loopback address 0.0.0.0 without"
                        + " admin.token: configure a token or bind 127.0.0.1");
    }

    @Test
    void aProbeWhoseCheckHangsAnswers503InTimeNamingTheCheck() throws Exception {
        ProbeRoutes probes = new ProbeRoutes();
        HealthCheck hanging = () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        };
        listener = new AdminListener(new AdminSettings("127.0.0.1", 0, null), Map.of(
                "/readyz", probes.route(Map.of("store", hanging)),
                "/healthz", probes.route(Map.of("threads", Optional::empty)),
                "/bad", probes.route(Map.of("a", () -> Optional.of("first \"line\""),
                        "b", () -> Optional.of("second")))));
        listener.start();

        HttpResponse<String> ready = get("/readyz", null);
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).isEqualTo("{\"ok\":false,\"check\":\"store\",\"reason\":\"no answer within 2s\"}\n");
        assertThat(get("/healthz", null).body()).isEqualTo("{\"ok\":true}\n");
        assertThat(get("/bad", null).body())
                .isEqualTo("{\"ok\":false,\"check\":\"a\",\"reason\":\"first \\\"line\\\"\"}\n");
    }
}
