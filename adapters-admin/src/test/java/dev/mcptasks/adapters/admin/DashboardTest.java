package dev.mcptasks.adapters.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard over HTTP on a real listener: rendering, filters, paging, escaping of hostile task data, roles, the
 * login cookie, CSRF, and the audit of every action.
 */
class DashboardTest {
    private DashboardFixture fixture;

    @AfterEach
    void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void theTaskListFiltersByStatusServerToolPrincipalAndAge() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord old = fixture.submit("ref", "work", "p1");
        fixture.clock.advance(Duration.ofHours(2));
        TaskRecord a = fixture.submit("ref", "echo", "p1");
        TaskRecord b = fixture.submit("other", "work", "p2");
        fixture.tasks.requestCancel(b.id());
        DashboardFixture.Client client = fixture.client(null);

        assertThat(ids(client.get("/ui/tasks").body())).containsExactly(b.id(), a.id(), old.id());
        assertThat(ids(client.get("/ui/tasks?server=ref").body())).containsExactly(a.id(), old.id());
        assertThat(ids(client.get("/ui/tasks?tool=work").body())).containsExactly(b.id(), old.id());
        assertThat(ids(client.get("/ui/tasks?principal=p1").body())).containsExactly(a.id(), old.id());
        assertThat(ids(client.get("/ui/tasks?status=cancelled").body())).containsExactly(b.id());
        assertThat(ids(client.get("/ui/tasks?age=%3C1h").body())).containsExactly(b.id(), a.id());
        assertThat(ids(client.get("/ui/tasks?age=%3E1h").body())).containsExactly(old.id());
        assertThat(ids(client.get("/ui/tasks?server=ref&tool=work&age=%3E1h").body())).containsExactly(old.id());

        HttpResponse<String> bad = client.get("/ui/tasks?status=done");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("unknown status &#39;done&#39;");
    }

    @Test
    void theTaskListPagesWithTheStoresCursorAndRefreshesAsAFragment() throws Exception {
        fixture = DashboardFixture.open();
        for (int i = 0; i < 30; i++) {
            fixture.submit("ref", i % 2 == 0 ? "even" : "odd", null);
        }
        DashboardFixture.Client client = fixture.client(null);

        String first = client.get("/ui/tasks?tool=even").body();
        assertThat(ids(first)).hasSize(15);
        assertThat(first).doesNotContain("id=\"next-page\"").contains("hx-trigger=\"every 3s\"");
        String all = client.get("/ui/tasks").body();
        assertThat(ids(all)).hasSize(25).startsWith(TaskId.of("task-000030"));
        assertThat(all).contains("href=\"/ui/tasks?before=task-000006\"");
        List<TaskId> second = ids(client.get("/ui/tasks?before=task-000006").body());
        assertThat(second).containsExactly(TaskId.of("task-000005"), TaskId.of("task-000004"),
                TaskId.of("task-000003"), TaskId.of("task-000002"), TaskId.of("task-000001"));

        String fragment = client.get("/ui/tasks?fragment=1").body();
        assertThat(fragment).startsWith("<table id=\"tasks\">").doesNotContain("<html");
    }

    @Test
    void hostileTaskDataIsEscapedOnEveryPage() throws Exception {
        fixture = DashboardFixture.open();
        String script = "<script>alert('x')</script>";
        TaskRecord task = fixture.tasks.submitFor(script, "ref", "work", "{\"q\":\"" + "</pre>" + script + "\"}",
                null);
        complete(task.id(), "{\"content\":[{\"type\":\"text\",\"text\":\"" + script + "\"}]}");
        DashboardFixture.Client client = fixture.client(null);

        for (String page : List.of("/ui/tasks", "/ui/tasks?principal=" + java.net.URLEncoder.encode(script,
                java.nio.charset.StandardCharsets.UTF_8), DashboardFixture.taskPath(task.id()), "/ui/workers",
                "/ui/servers")) {
            String body = client.get(page).body();
            assertThat(body).as(page).doesNotContain("<script>alert").doesNotContain("</pre><script");
        }
        String detail = client.get(DashboardFixture.taskPath(task.id())).body();
        assertThat(detail).contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
                .contains("id=\"result\"");
    }

    @Test
    void theResultPreviewIsBounded() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord task = fixture.submit("ref", "work", null);
        complete(task.id(), "{\"content\":[{\"type\":\"text\",\"text\":\"" + "x".repeat(10_000) + "\"}]}");

        String body = fixture.client(null).get(DashboardFixture.taskPath(task.id())).body();
        assertThat(body).contains("more characters)").doesNotContain("x".repeat(TaskPage.PREVIEW_CHARS + 1));
    }

    @Test
    void theTaskPageShowsTheTimelineLeaseAndAuditOfTheTask() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord task = fixture.submit("ref", "work", "p1");
        fixture.clock.advance(Duration.ofSeconds(5));
        ClaimedTask claimed = claim(ClaimPhase.SUBMIT, "w1");
        fixture.repository.recordSubmitAttempt(claimed.claim());
        fixture.repository.applySubmitted(claimed.claim(), new SubmitWrite("remote-7",
                new StoredSnapshot(TaskStatus.WORKING, "step 1 of 3", null, false, null, null, null), null,
                "2025-11-25", null, fixture.clock.now(), null));
        claim(ClaimPhase.POLL, "w1");
        // w1 stalls: its poll lease expires and w2 takes the task over
        fixture.clock.advance(Duration.ofSeconds(31));
        claim(ClaimPhase.POLL, "w2");

        String body = fixture.client(null).get(DashboardFixture.taskPath(task.id())).body();
        assertThat(body).contains("remote-7", "step 1 of 3", "poll claim by w2 until", "submit 1, poll 2",
                "<strong>created</strong>", "<strong>submit attempted</strong>", "<strong>lease expires</strong>",
                "<strong>submit by p1 (cli)</strong>", "<strong>claimed: submit by w1</strong>",
                "<strong>taken over: poll by w2</strong> · the poll lease of w1 had expired");
        assertThat(body).as("a poll claim of a free lease is not an event").doesNotContain("claimed: poll");
        assertThat(body.indexOf("claimed: submit by w1")).as("in time order")
                .isBetween(body.indexOf("<strong>created</strong>"), body.indexOf("taken over: poll by w2"));
    }

    /**
     * Input rounds and deliveries on the timeline: the request waiting now and its answer (audited), a delivered
     * notification and one waiting for its retry, each at the outbox row's own instant.
     */
    @Test
    void theTimelineShowsTheInputRoundAndTheNotifications() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord asking = waitingForInput();
        DashboardFixture.Client client = fixture.client(null);
        assertThat(client.post(TaskActions.ANSWER, Map.of("id", asking.id().value(), "key", "confirm", "answer",
                "{\"action\":\"accept\"}", "csrf", client.csrf("/ui/tasks"))).statusCode()).isEqualTo(303);

        assertThat(client.get(DashboardFixture.taskPath(asking.id())).body()).contains(
                "<strong>input requested</strong> · confirm (Deploy?); answered, waiting to be sent: confirm",
                "<strong>input answered by loopback (admin)</strong> · confirm: accepted")
                .doesNotContain("status input_required");

        TaskRecord delivered = fixture.submit("ref", "work", null);
        Instant due = fixture.clock.now();
        NotificationClaim first = completedWithANotification(delivered);
        fixture.clock.advance(Duration.ofSeconds(3));
        assertThat(fixture.repository.markDispatched(first)).isTrue();
        assertThat(fixture.repository.finishNotification(first)).isTrue();
        assertThat(client.get(DashboardFixture.taskPath(delivered.id())).body()).contains("<span class=\"when\">"
                + due + "</span><strong>notification delivered</strong> · event 1 (dated when it fell due)");

        TaskRecord failing = fixture.submit("ref", "work", null);
        NotificationClaim attempt = completedWithANotification(failing);
        Instant retryAt = fixture.clock.now().plusSeconds(30);
        assertThat(fixture.repository.retryNotification(attempt, "503 from the receiver", retryAt, true)).isTrue();
        assertThat(client.get(DashboardFixture.taskPath(failing.id())).body()).contains("<span class=\"when\">"
                + retryAt + "</span><strong>notification retry due</strong> · event 1, 1 failed attempts;"
                + " last error: 503 from the receiver");
    }

    @Test
    void aViewerSeesEverythingButMayNotActAndSeesNoActionButtons() throws Exception {
        fixture = DashboardFixture.withTokens();
        TaskRecord task = fixture.submit("ref", "work", null);
        DashboardFixture.Client viewer = fixture.client(DashboardFixture.VIEWER_TOKEN);

        String page = viewer.get(DashboardFixture.taskPath(task.id())).body();
        assertThat(page).contains("vic", "viewer").doesNotContain("id=\"cancel-task\"");
        assertThat(viewer.get("/ui/tasks").body()).doesNotContain("id=\"bulk-cancel\"");
        String csrf = viewer.csrf("/ui/tasks");

        HttpResponse<String> refused = viewer.post(TaskActions.CANCEL, Map.of("id", task.id().value(), "csrf", csrf));
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("vic has the role viewer");
        assertThat(fixture.tasks.find(task.id()).orElseThrow().control().cancelRequestedAt()).isNull();
        assertThat(adminAudit()).isEmpty();
    }

    @Test
    void everyPostNeedsTheSessionsCsrfTokenAndAnActionIsAuditedUnderItsPrincipal() throws Exception {
        fixture = DashboardFixture.withTokens();
        TaskRecord task = fixture.submit("ref", "work", null);
        DashboardFixture.Client alice = fixture.client(DashboardFixture.ALICE_TOKEN);
        DashboardFixture.Client admin = fixture.client(DashboardFixture.ADMIN_TOKEN);

        assertThat(alice.post(TaskActions.CANCEL, Map.of("id", task.id().value())).statusCode()).isEqualTo(403);
        assertThat(alice.post(TaskActions.CANCEL, Map.of("id", task.id().value(), "csrf", admin.csrf("/ui/tasks")))
                .statusCode()).as("another principal's token").isEqualTo(403);
        assertThat(fixture.tasks.find(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);

        HttpResponse<String> done = alice.post(TaskActions.CANCEL, Map.of("id", task.id().value(),
                "csrf", alice.csrf(DashboardFixture.taskPath(task.id()))));
        assertThat(done.statusCode()).isEqualTo(303);
        assertThat(done.headers().firstValue("Location")).contains(TaskPage.PATH + "?id=" + task.id().value()
                + "&done=cancelled_locally");
        assertThat(fixture.tasks.find(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(alice.get(done.headers().firstValue("Location").orElseThrow()).body())
                .contains("Cancelled (it had not been sent).", "cancel_request by alice (admin)");
        assertThat(adminAudit()).extracting(AuditRecord::principal, AuditRecord::action, AuditRecord::taskId,
                AuditRecord::detail).containsExactly(org.assertj.core.groups.Tuple.tuple("alice",
                        AuditAction.CANCEL_REQUEST, task.id(), "cancelled_locally"));
    }

    @Test
    void anActionAnswersOnlyAPostSoNoLinkOrImageCanTriggerIt() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord task = fixture.submit("ref", "work", null);

        HttpResponse<String> get = fixture.client(null).get(TaskActions.CANCEL + "?id=" + task.id().value());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(fixture.tasks.find(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        assertThat(adminAudit()).isEmpty();
    }

    @Test
    void theOpenListenerAnswersOnlyLoopbackHostNames() throws Exception {
        fixture = DashboardFixture.open();

        assertThat(rawGet("/ui/tasks", "rebound.example.com")).startsWith("HTTP/1.1 403");
        assertThat(rawGet("/healthz", "rebound.example.com")).as("the probes carry no data")
                .doesNotStartWith("HTTP/1.1 403");
        assertThat(rawGet("/ui/tasks", "localhost:9465")).startsWith("HTTP/1.1 200");
        assertThat(AdminHandler.loopbackHost("127.0.0.1:9465")).isTrue();
        assertThat(AdminHandler.loopbackHost("[::1]:9465")).isTrue();
        assertThat(AdminHandler.loopbackHost("127.0.0.1.nip.io")).isFalse();
    }

    @Test
    void theLoginFormSetsAStrictHttpOnlyCookieAndTheCookieSignsIn() throws Exception {
        fixture = DashboardFixture.withTokens();
        DashboardFixture.Client browser = fixture.client(null);

        HttpResponse<String> away = browser.get("/ui/tasks");
        assertThat(away.statusCode()).isEqualTo(303);
        assertThat(away.headers().firstValue("Location")).contains(LoginPage.PATH);
        assertThat(browser.get("/metrics").statusCode()).isEqualTo(401);
        assertThat(browser.get(LoginPage.PATH).body()).contains("name=\"token\"");
        assertThat(browser.login("not-a-token-of-anyone").statusCode()).isEqualTo(401);
        assertThat(browser.cookie).isNull();

        HttpResponse<String> in = browser.login(DashboardFixture.ALICE_TOKEN);
        assertThat(in.statusCode()).isEqualTo(303);
        assertThat(in.headers().firstValue("Set-Cookie").orElseThrow())
                .startsWith(AdminAuth.COOKIE + "=").contains("HttpOnly", "SameSite=Strict", "Path=/");
        assertThat(browser.get("/ui/tasks").body()).contains("alice", "<h1>Tasks</h1>");

        HttpResponse<String> out = browser.post(LoginPage.LOGOUT, Map.of("csrf", browser.csrf("/ui/tasks")));
        assertThat(out.statusCode()).isEqualTo(303);
        assertThat(browser.get("/ui/tasks").statusCode()).as("the session ended").isEqualTo(303);
    }

    @Test
    void bulkCancelShowsTheCountFirstAndCancelsOnlyWhatItCounted() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord a = fixture.submit("ref", "work", null);
        TaskRecord b = fixture.submit("ref", "work", null);
        TaskRecord ended = fixture.submit("ref", "work", null);
        fixture.tasks.requestCancel(ended.id());
        TaskRecord otherTool = fixture.submit("ref", "echo", null);
        DashboardFixture.Client client = fixture.client(null);

        String preview = client.get(BulkCancel.PATH + "?tool=work").body();
        assertThat(preview).contains("<strong>2</strong> tasks not yet ended match", "1 matching tasks have already"
                + " ended");
        assertThat(fixture.tasks.find(a.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        String csrf = client.csrf(BulkCancel.PATH + "?tool=work");
        TaskRecord later = fixture.submit("ref", "work", null);

        HttpResponse<String> done = client.post(BulkCancel.PATH, Map.of("tool", "work", "upto", b.id().value(),
                "csrf", csrf));
        assertThat(done.body()).contains("Cancel requested for 2 tasks (cancelled_locally 2)");
        assertThat(fixture.tasks.find(a.id()).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(fixture.tasks.find(b.id()).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(fixture.tasks.find(otherTool.id()).orElseThrow().status()).isEqualTo(TaskStatus.PENDING);
        assertThat(fixture.tasks.find(later.id()).orElseThrow().status()).as("submitted after the count")
                .isEqualTo(TaskStatus.PENDING);
        assertThat(adminAudit()).extracting(AuditRecord::action).containsExactly(AuditAction.OPERATOR,
                AuditAction.CANCEL_REQUEST, AuditAction.CANCEL_REQUEST);
        assertThat(adminAudit().get(0).detail()).isEqualTo("bulk cancel of tool=work up to " + b.id().value()
                + ": 2 tasks (cancelled_locally 2)");
        assertThat(adminAudit()).allSatisfy(record -> assertThat(record.principal()).isEqualTo("loopback"));
    }

    @Test
    void anAnswerToATaskThatDoesNotWaitIsRefusedWithItsReasonAndAudited() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord task = fixture.submit("ref", "work", null);
        DashboardFixture.Client client = fixture.client(null);

        HttpResponse<String> refused = client.post(TaskActions.ANSWER, Map.of("id", task.id().value(), "key", "k1",
                "answer", "{\"action\":\"accept\"}", "csrf", client.csrf("/ui/tasks")));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("The answer was not stored:");
        assertThat(adminAudit()).extracting(AuditRecord::action, AuditRecord::detail)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(AuditAction.ANSWER_INPUT, "k1: rejected"));
    }

    @Test
    void anAnswerToAWaitingInputRequestIsStoredShownAndAudited() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord task = waitingForInput();
        DashboardFixture.Client client = fixture.client(null);

        HttpResponse<String> done = client.post(TaskActions.ANSWER, Map.of("id", task.id().value(), "key",
                "confirm", "answer", "{\"action\":\"accept\",\"content\":{\"ok\":true}}", "csrf",
                client.csrf(DashboardFixture.taskPath(task.id()))));

        assertThat(done.statusCode()).isEqualTo(303);
        assertThat(done.headers().firstValue("Location")).contains(TaskPage.PATH + "?id=" + task.id().value()
                + "&done=accepted");
        assertThat(fixture.tasks.find(task.id()).orElseThrow().state().inputResponsesJson())
                .isEqualTo("{\"confirm\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}");
        assertThat(client.get(done.headers().firstValue("Location").orElseThrow()).body())
                .contains("Answer stored; the worker that serves the task delivers it.");
        assertThat(adminAudit()).extracting(AuditRecord::action, AuditRecord::taskId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(AuditAction.ANSWER_INPUT, task.id()));
    }

    @Test
    void aDeadLetterIsReplayedFromItsPageAndAudited() throws Exception {
        fixture = DashboardFixture.open();
        TaskRecord task = fixture.submit("ref", "work", null);
        NotificationClaim delivery = completedWithANotification(task);
        assertThat(fixture.repository.deadLetterNotification(delivery, "the receiver refused it")).isTrue();
        DashboardFixture.Client client = fixture.client(null);
        assertThat(client.get(DeadLettersPage.PATH).body()).contains(task.id().value(), "the receiver refused it");

        HttpResponse<String> replayed = client.post(DeadLettersPage.REPLAY, Map.of("id", task.id().value(),
                "csrf", client.csrf(DeadLettersPage.PATH)));

        assertThat(replayed.statusCode()).isEqualTo(303);
        assertThat(replayed.headers().firstValue("Location")).contains(DeadLettersPage.PATH + "?done=replayed");
        assertThat(fixture.tasks.find(task.id()).orElseThrow().outbox().status())
                .isEqualTo(NotificationStatus.PENDING);
        assertThat(client.get(replayed.headers().firstValue("Location").orElseThrow()).body())
                .contains("No dead letters.");
        assertThat(adminAudit()).extracting(AuditRecord::taskId).containsExactly(task.id());
    }

    @Test
    void workersAreLiveOrStaleByTheStoresClock() throws Exception {
        fixture = DashboardFixture.open();
        fixture.repository.heartbeat(new WorkerInfo(WorkerId.of("w-one"), "host-a", 42, fixture.clock.now()));
        DashboardFixture.Client client = fixture.client(null);

        assertThat(client.get("/ui/workers").body()).contains("w-one", "host-a", "s-live");
        fixture.clock.advance(DashboardFixture.STALE_AFTER.plusSeconds(1));
        assertThat(client.get("/ui/workers?fragment=1").body()).contains("w-one", "s-stale");
    }

    @Test
    void theServersPageShowsStoreCountsAndTheRegistrysUpstreamFigures() throws Exception {
        fixture = DashboardFixture.open();
        fixture.submit("ref", "work", null);
        io.micrometer.core.instrument.Timer timer = io.micrometer.core.instrument.Timer
                .builder(UpstreamHistory.REQUESTS).tags("server", "ref", "method", "tools/call")
                .register(fixture.registry);
        timer.record(Duration.ofMillis(40));
        timer.record(Duration.ofMillis(60));
        fixture.registry.counter(UpstreamHistory.ERRORS, "server", "ref", "kind", "timeout").increment();
        DashboardFixture.Client client = fixture.client(null);

        String page = client.get("/ui/servers").body();
        assertThat(page).contains("<td>ref</td>", "50.0 ms", "/ui/tasks?server=ref&amp;status=pending");
        assertThat(client.get(ServersPage.DATA).body()).isEqualTo("{\"servers\":{}}");
        timer.record(Duration.ofMillis(100));
        fixture.clock.advance(UpstreamHistory.MIN_INTERVAL);
        assertThat(client.get(ServersPage.DATA).body()).contains("\"ref\":{\"t\":[", "\"latencyMs\":[100.000]",
                "\"errors\":[0.000]");
    }

    @Test
    void staticFilesComeFromTheJarAndPagesLoadThem() throws Exception {
        fixture = DashboardFixture.open();
        DashboardFixture.Client client = fixture.client(null);

        assertThat(client.get(StaticAssets.HTMX).body()).contains("htmx");
        assertThat(client.get(StaticAssets.UPLOT).body()).contains("uPlot");
        assertThat(client.get("/ui/tasks").body()).contains(StaticAssets.HTMX, StaticAssets.UPLOT, StaticAssets.CSS);
        assertThat(client.get("/").headers().firstValue("Location")).contains(Dashboard.HOME);
    }

    /** A GET with the given {@code Host} header (which java.net.http does not let a caller set). */
    private String rawGet(String path, String host) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", fixture.listener.address().getPort())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host
                    + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private List<AuditRecord> adminAudit() {
        return fixture.audit.list(new AuditQuery(null, null, 100)).stream()
                .filter(record -> record.channel() == AuditChannel.ADMIN).toList();
    }

    private ClaimedTask claim(ClaimPhase phase, String worker) {
        List<ClaimedTask> claimed = fixture.repository.claimControl(new ControlClaimRequest(phase, WorkerId.of(worker),
                1, Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of()));
        assertThat(claimed).hasSize(1);
        return claimed.get(0);
    }

    /** A 2026-07-28 task created remotely, asking for {@code confirm} ("Deploy?"). */
    private TaskRecord waitingForInput() {
        TaskRecord task = fixture.submit("ref", "work", null);
        ClaimedTask claimed = claim(ClaimPhase.SUBMIT, "w1");
        assertThat(fixture.repository.applySubmitted(claimed.claim(), new SubmitWrite("remote-1",
                new StoredSnapshot(TaskStatus.INPUT_REQUIRED, null, null, false, null, null,
                        "{\"confirm\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Deploy?\"}}}"),
                null, "2026-07-28", null, fixture.clock.now().plusSeconds(5), null))).isTrue();
        return task;
    }

    /** Completes {@code task} at once with an attention event, and claims its delivery. */
    private NotificationClaim completedWithANotification(TaskRecord task) {
        ClaimedTask created = claim(ClaimPhase.SUBMIT, "w1");
        StoredSnapshot done = new StoredSnapshot(TaskStatus.COMPLETED, null, "{\"content\":[]}", false, null, null,
                null);
        assertThat(fixture.repository.applySubmitted(created.claim(), new SubmitWrite(null, done, null,
                "2025-11-25", null, null, AttentionEvent.forSnapshot(task.id(), "ref", "work", done).orElseThrow(),
                null))).isTrue();
        return fixture.repository.claimNotifications(new NotificationClaimRequest(WorkerId.of("w1"), 1,
                Duration.ofSeconds(30))).get(0);
    }

    private void complete(TaskId id, String resultJson) {
        ClaimedTask claimed = claim(ClaimPhase.SUBMIT, "w1");
        assertThat(claimed.task().id()).isEqualTo(id);
        fixture.repository.applySubmitted(claimed.claim(), new SubmitWrite("remote-1",
                new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null), null, "2025-11-25", null,
                fixture.clock.now(), null));
        fixture.repository.applyOutcome(claim(ClaimPhase.POLL, "w1").claim(), new OutcomeWrite(
                new StoredSnapshot(TaskStatus.COMPLETED, null, resultJson, false, null, null, null), null, null,
                null));
    }

    private static List<TaskId> ids(String html) {
        return java.util.regex.Pattern.compile("<tr data-task=\"([^\"]+)\"").matcher(html).results()
                .map(match -> TaskId.of(match.group(1))).toList();
    }
}
