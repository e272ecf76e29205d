package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code auth login|logout|status} against a loopback OAuth-protected MCP server: tokens are obtained, stored sealed,
 * listed without ever being printed, and forgotten; the sealing key's absence or malformation stops the command
 * with one line saying how to make one.
 */
class AuthCommandTest {
    private static final String KEY = Base64.getEncoder().encodeToString(
            "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    private static final Pattern AUTHORIZE_URL = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/authorize\\?\\S+)");

    @TempDir
    Path dir;

    private CliHarness cli;
    private FakeOAuthServer server;

    @BeforeEach
    void setUp() throws IOException {
        server = new FakeOAuthServer();
        cli = new CliHarness(dir);
        cli.environment.put("MCP_TASKS_SECRET_KEY", KEY);
        cli.environment.put("ROBOT_SECRET", FakeOAuthServer.CLIENT_SECRET);
        cli.writeConfig("""
                { "mcpServers": {
                    "machine": { "url": "%1$s", "auth": { "type": "oauth", "grant": "client_credentials",
                                 "clientId": "robot", "clientSecret": "${env:ROBOT_SECRET}" } },
                    "person": { "url": "%1$s", "auth": { "clientId": "robot", "clientSecret": "${env:ROBOT_SECRET}",
                                "redirectPort": 0 } },
                    "local": { "command": "node" } } }
                """.formatted(server.mcpUrl()));
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    @Test
    void statusListsEveryOAuthServerWithNothingStoredBeforeALogin() {
        assertThat(cli.run("auth", "status")).as(cli.err()).isZero();

        assertThat(cli.out().lines()).containsExactly(
                "SERVER   PRESENT  EXPIRES  REFRESHABLE  SCOPES",
                "machine  no       -        -            -",
                "person   no       -        -            -");
    }

    @Test
    void aClientCredentialsLoginStoresASealedTokenThatStatusDescribesAndLogoutForgets() {
        assertThat(cli.run("auth", "login", "machine")).as(cli.err()).isZero();
        assertThat(cli.out()).startsWith("logged in to server 'machine': tokens stored, expire ");
        assertThat(server.tokensIssued()).isEqualTo(1);
        assertThat(cli.credentials.keys()).hasSize(1);
        byte[] sealed = cli.credentials.load(cli.credentials.keys().get(0)).orElseThrow().sealed();
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("token-1");

        assertThat(cli.run("auth", "status")).isZero();
        String expiry = cli.clock.now().plusSeconds(3600).toString();
        assertThat(cli.out().lines()).containsExactly(
                "SERVER   PRESENT  EXPIRES" + " ".repeat(expiry.length() - 7) + "  REFRESHABLE  SCOPES",
                "machine  yes      " + expiry + "  no           -",
                "person   no       -" + " ".repeat(expiry.length() - 1) + "  -            -");
        assertThat(cli.out()).doesNotContain("token-1").doesNotContain(FakeOAuthServer.CLIENT_SECRET);

        assertThat(cli.run("auth", "logout", "machine")).isZero();
        assertThat(cli.out()).isEqualTo("logged out of server 'machine': stored tokens removed\n");
        assertThat(cli.credentials.keys()).isEmpty();
        assertThat(cli.run("auth", "logout", "machine")).isZero();
        assertThat(cli.out()).isEqualTo("no tokens were stored for server 'machine'\n");
    }

    @Test
    void anAuthorizationCodeLoginWithoutABrowserPrintsTheUrlAndWaitsForTheRedirect() throws Exception {
        assumeThat(System.getenv("BROWSER")).as("BROWSER is set: the login would open it").isNull();
        CompletableFuture<Integer> login = CompletableFuture.supplyAsync(() -> cli.run("auth", "login", "person"));

        String url = await(() -> match(cli.out()), Duration.ofSeconds(30), "the url to open");
        follow(url);

        assertThat(login.get(30, TimeUnit.SECONDS)).as(cli.err()).isZero();
        assertThat(cli.out()).contains("Authorize server 'person' in the browser: " + url)
                .contains("logged in to server 'person': tokens stored").doesNotContain("token-1");
        assertThat(server.authorizeRequests()).isEqualTo(1);
        assertThat(cli.run("auth", "status")).isZero();
        assertThat(cli.out()).containsPattern("person +yes +\\S+ +yes");
    }

    @Test
    void theBrowserOptionRunsTheGivenCommandWithTheUrl() throws Exception {
        Path opened = dir.resolve("opened-url");
        Path browser = dir.resolve("browser.sh");
        Files.writeString(browser, "#!/bin/sh\nprintf '%s' \"$1\" > " + opened + ".tmp && mv " + opened + ".tmp "
                + opened + "\n");
        Files.setPosixFilePermissions(browser, PosixFilePermissions.fromString("rwx------"));
        CompletableFuture<Integer> login = CompletableFuture.supplyAsync(
                () -> cli.run("auth", "login", "person", "--browser", browser.toString()));

        String url = await(() -> Files.exists(opened) ? Optional.of(read(opened)) : Optional.empty(),
                Duration.ofSeconds(30), "the browser command to run");
        follow(url);

        assertThat(login.get(30, TimeUnit.SECONDS)).as(cli.err()).isZero();
        assertThat(url).startsWith(server.base() + "/authorize?");
        assertThat(cli.out()).contains("logged in to server 'person'");
    }

    @Test
    void aRefusedLoginExitsOneWithTheReasonOnOneLine() {
        server.revoke();

        assertThat(cli.run("auth", "login", "machine")).isEqualTo(ExitCodes.FAILED);
        assertThat(cli.err()).startsWith("mcp-tasks: login to server 'machine' failed: ");
        assertThat(cli.err().lines()).hasSize(1);
        assertThat(cli.err()).doesNotContain(FakeOAuthServer.CLIENT_SECRET);
        assertThat(cli.credentials.keys()).isEmpty();
    }

    @Test
    void loginNamesAServerWithAuth() {
        assertThat(cli.run("auth", "login", "nowhere")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).isEqualTo("mcp-tasks: no server 'nowhere' in " + dir.resolve("mcp-tasks.json") + "\n");

        assertThat(cli.run("auth", "login", "local")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).isEqualTo("mcp-tasks: server 'local' has no 'auth' in " + dir.resolve("mcp-tasks.json")
                + "\n");

        assertThat(cli.run("auth", "login")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("Missing required parameter: 'SERVER'");
    }

    @Test
    void withoutAnyOAuthServerStatusAndLogoutSaySo() {
        cli.writeConfig("{\"mcpServers\": {\"local\": {\"command\": \"node\"}}}");

        assertThat(cli.run("auth", "status")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).isEqualTo("mcp-tasks: no server in " + dir.resolve("mcp-tasks.json") + " has 'auth'\n");
        assertThat(cli.run("auth", "logout", "local")).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aMissingSealingKeyStopsTheAuthCommandsAndWorkersButNotTheOtherCommands() {
        cli.environment.remove("MCP_TASKS_SECRET_KEY");

        assertThat(cli.run("auth", "status")).isEqualTo(ExitCodes.FAILED);
        assertThat(cli.err()).isEqualTo("mcp-tasks: cannot start: MCP_TASKS_SECRET_KEY is not set: server(s)"
                + " machine, person use OAuth, whose tokens are stored encrypted with it; make one with"
                + " 'openssl rand -base64 32' and give every worker and CLI of this deployment the same value\n");
        assertThat(cli.run("serve", "--worker-id", "w")).isEqualTo(ExitCodes.FAILED);
        assertThat(cli.err()).startsWith("mcp-tasks: cannot start: MCP_TASKS_SECRET_KEY is not set");

        assertThat(cli.run("list")).as(cli.err()).isZero();
    }

    @Test
    void aMalformedSealingKeyIsNamedButNeverPrinted() {
        cli.environment.put("MCP_TASKS_SECRET_KEY", "not*base64*at*all");
        assertThat(cli.run("auth", "status")).isEqualTo(ExitCodes.FAILED);
        assertThat(cli.err()).isEqualTo("mcp-tasks: cannot start: MCP_TASKS_SECRET_KEY is not base64; make one with"
                + " 'openssl rand -base64 32' and give every worker and CLI of this deployment the same value\n");

        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        cli.environment.put("MCP_TASKS_SECRET_KEY", shortKey);
        assertThat(cli.run("auth", "status")).isEqualTo(ExitCodes.FAILED);
        assertThat(cli.err()).startsWith("mcp-tasks: cannot start: MCP_TASKS_SECRET_KEY must be the base64 of 32"
                + " bytes, it decodes to 16; make one with 'openssl rand -base64 32'").doesNotContain(shortKey);
        assertThat(cli.err().lines()).hasSize(1);
    }

    private static Optional<String> match(String text) {
        Matcher matcher = AUTHORIZE_URL.matcher(text);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** What a browser does with the url: follows the authorization server's redirect to the loopback listener. */
    private static void follow(String url) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.discarding());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Polls until {@code value} yields, failing after {@code wait} with what was awaited. */
    private static <T> T await(Supplier<Optional<T>> value, Duration wait, String what) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Optional<T> seen = value.get();
        while (seen.isEmpty()) {
            assertThat(System.nanoTime() < deadline).as("waiting for %s", what).isTrue();
            Thread.sleep(20);
            seen = value.get();
        }
        return seen.get();
    }
}
