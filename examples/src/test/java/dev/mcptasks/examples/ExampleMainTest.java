package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.postgres.PostgresTestDatabase;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The example's command line: both tasks run to their results, and bad input ends in one line naming the cause. */
class ExampleMainTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String ARGUMENTS = "{\"durationMs\": 100, \"result\": \"from main\"}";

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
    private ReferenceServer upstream;

    @BeforeEach
    void startUpstream() {
        upstream = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(100));
        upstream.startHttp(0);
    }

    @AfterEach
    void stopUpstream() {
        upstream.close();
    }

    @Test
    void runsTheToolCallAndItsDigestAndPrintsOneLineEach() throws Exception {
        PostgresSettings database = PostgresTestDatabase.freshDatabase();

        int exit = ExampleMain.run(List.of(database.jdbcUrl(), database.user(), upstream.httpUri().toString(), "work",
                ARGUMENTS), database.password(), WAIT, out);

        List<String> lines = printed().lines().toList();
        assertThat(exit).as("%s", printed()).isZero();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains(" upstream/work completed ").contains("from main");
        assertThat(lines.get(1)).contains(" local/sha256 completed ")
                .contains("cd74151e087c466df537bec62a31d4006caebc7ca9d5be8d9a6abe6ba2b1d07b");
    }

    @Test
    void argumentsThatAreNotAJsonObjectEndInOneLineNamingThem() throws Exception {
        PostgresSettings database = PostgresTestDatabase.freshDatabase();

        int exit = ExampleMain.run(List.of(database.jdbcUrl(), database.user(), upstream.httpUri().toString(), "work",
                "[1, 2]"), database.password(), WAIT, out);

        assertThat(exit).isEqualTo(1);
        assertThat(printed().lines().toList()).singleElement().asString()
                .startsWith("example failed: ").contains("arguments must be a JSON object");
    }

    @Test
    void aDatabaseUrlOfAnotherKindEndsInOneLine() throws Exception {
        int exit = ExampleMain.run(List.of("jdbc:sqlite:tasks.db", "me", upstream.httpUri().toString(), "work", "{}"),
                null, WAIT, out);

        assertThat(exit).isEqualTo(1);
        assertThat(printed().lines().toList()).singleElement().asString()
                .isEqualTo("example failed: a PostgreSQL url must start with jdbc:postgresql://, was"
                        + " jdbc:sqlite:tasks.db");
    }

    @Test
    void anUnreachableDatabaseEndsInOneLineNamingWhere() throws Exception {
        int exit = ExampleMain.run(List.of("jdbc:postgresql://127.0.0.1:1/tasks", "me", upstream.httpUri().toString(),
                "work", "{}"), null, WAIT, out);

        assertThat(exit).isEqualTo(1);
        assertThat(printed().lines().toList()).singleElement().asString()
                .startsWith("example failed: ").contains("127.0.0.1:1/tasks");
    }

    @Test
    void missingArgumentsPrintTheUsage() throws Exception {
        assertThat(ExampleMain.run(List.of("jdbc:postgresql://localhost/db"), null, WAIT, out)).isEqualTo(2);
        assertThat(printed()).isEqualTo(ExampleMain.USAGE + System.lineSeparator());
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }
}
