package dev.mcptasks.adapters.admin;

import dev.mcptasks.core.service.AuditTrail;
import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The admin listener with the dashboard over the testkit's in-memory store and audit log and a manual clock, with
 * the servers {@code ref} and {@code other}; and a small HTTP client that keeps a session cookie and reads CSRF
 * tokens from pages.
 */
final class DashboardFixture implements AutoCloseable {
    static final String ADMIN_TOKEN = "admin-token-0123456789";
    static final String ALICE_TOKEN = "alice-token-0123456789";
    static final String VIEWER_TOKEN = "viewer-token-0123456789";
    static final Duration STALE_AFTER = Duration.ofSeconds(30);
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]*)\"");

    final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T10:00:00Z"));
    final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    final InMemoryAuditLog audit = new InMemoryAuditLog(clock);
    final TaskService tasks = new TaskService(repository, ServerDirectory.of(List.of(
            new ServerProfile("ref", "mcp-tasks", null, SubmitPolicy.AT_MOST_ONCE),
            new ServerProfile("other", "mcp-tasks", null, SubmitPolicy.AT_MOST_ONCE))), new SequentialIdGenerator(),
            new AuditTrail(audit, AuditChannel.CLI, "tester"));
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final AdminListener listener;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** With tokens: {@code admin.token}, alice (admin) and vic (viewer). */
    static DashboardFixture withTokens() {
        return new DashboardFixture(new AdminSettings("127.0.0.1", 0, ADMIN_TOKEN, List.of(
                new AdminUser("alice", ALICE_TOKEN, AdminRole.ADMIN),
                new AdminUser("vic", VIEWER_TOKEN, AdminRole.VIEWER))));
    }

    /** The open loopback listener (no token). */
    static DashboardFixture open() {
        return new DashboardFixture(new AdminSettings("127.0.0.1", 0, null));
    }

    DashboardFixture(AdminSettings settings) {
        listener = new AdminListener(settings, DashboardRoutes.of(tasks, repository, audit,
                repository.history(), clock, registry, STALE_AFTER));
        listener.start();
    }

    TaskRecord submit(String server, String tool, String principal) {
        return tasks.submitFor(principal, server, tool, "{}", null);
    }

    String url(String path) {
        return "http://127.0.0.1:" + listener.address().getPort() + path;
    }

    /** A client: with a bearer token, a cookie, or neither. */
    Client client(String bearer) {
        return new Client(bearer);
    }

    @Override
    public void close() {
        listener.close();
    }

    final class Client {
        private final String bearer;
        String cookie;

        Client(String bearer) {
            this.bearer = bearer;
        }

        HttpResponse<String> get(String path) throws IOException, InterruptedException {
            return send(HttpRequest.newBuilder(URI.create(url(path))).GET());
        }

        HttpResponse<String> post(String path, Map<String, String> form) throws IOException, InterruptedException {
            String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                    + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
            return send(HttpRequest.newBuilder(URI.create(url(path)))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        }

        /** The CSRF token of a page this client reads. */
        String csrf(String path) throws IOException, InterruptedException {
            Matcher matcher = CSRF.matcher(get(path).body());
            if (!matcher.find()) {
                throw new AssertionError("no CSRF token on " + path);
            }
            return matcher.group(1);
        }

        /** Signs in with the login form, keeping the session cookie. */
        HttpResponse<String> login(String token) throws IOException, InterruptedException {
            HttpResponse<String> response = post(LoginPage.PATH, Map.of("token", token));
            response.headers().firstValue("Set-Cookie").ifPresent(value -> cookie = value.split(";")[0]);
            return response;
        }

        private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
            request.timeout(Duration.ofSeconds(20));
            if (bearer != null) {
                request.header("Authorization", "Bearer " + bearer);
            }
            if (cookie != null) {
                request.header("Cookie", cookie);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    static String taskPath(TaskId id) {
        return TaskPage.PATH + "?id=" + id.value();
    }
}
