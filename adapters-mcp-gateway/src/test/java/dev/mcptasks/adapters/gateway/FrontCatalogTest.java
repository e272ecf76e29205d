package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.catalog.ListedTool;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Front names, collisions, allow-lists, the short cache and unreachable upstreams. */
class FrontCatalogTest {
    private final ManualClock clock = new ManualClock();
    private final FakeToolCatalog upstream = new FakeToolCatalog();

    private FrontCatalog catalog(FrontSettings.ExposedServer... servers) {
        return new FrontCatalog(upstream, clock, new FrontSettings(List.of(servers), Duration.ofSeconds(1),
                Duration.ofSeconds(30), "gw", "1", 1000, Quotas.NONE, false, null));
    }

    private static FrontError failure(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        Throwable cause = future.handle((ignored, error) -> error).join();
        return (FrontError) (cause instanceof CompletionException ? cause.getCause() : cause);
    }

    @Test
    void toolsAreServedAsServerDoubleUnderscoreToolAndResolveBack() {
        upstream.set("files", FakeToolCatalog.tool("read", null)).set("web", FakeToolCatalog.tool("read", null));
        FrontCatalog catalog = catalog(FrontSettings.ExposedServer.allTools("files"),
                FrontSettings.ExposedServer.allTools("web"));

        assertThat(catalog.all().join()).extracting(FrontCatalog.FrontTool::frontName)
                .containsExactly("files__read", "web__read");
        FrontCatalog.FrontTool web = catalog.resolve("web__read").join();
        assertThat(web.server()).isEqualTo("web");
        assertThat(web.tool()).isEqualTo("read");
        assertThat(web.json().path("name").asText()).isEqualTo("web__read");
        assertThat(failure(catalog.resolve("mail__read")).getMessage()).isEqualTo("Unknown tool: mail__read");
        assertThat(failure(catalog.resolve("read")).code()).isEqualTo(-32602);
    }

    @Test
    void withPlainNamesTheOneServersToolsAreServedUnderTheirOwnNames() {
        upstream.set("files", FakeToolCatalog.tool("read", null), FakeToolCatalog.tool("files__odd", null));
        FrontCatalog catalog = new FrontCatalog(upstream, clock, FrontSettings.of(
                List.of(FrontSettings.ExposedServer.allTools("files")), "1").withPlainToolNames());

        assertThat(catalog.all().join()).extracting(FrontCatalog.FrontTool::frontName)
                .containsExactly("read", "files__odd");
        assertThat(catalog.resolve("read").join().tool()).isEqualTo("read");
        assertThat(catalog.resolve("files__odd").join().tool()).isEqualTo("files__odd");
        assertThat(catalog.resolve("read").join().json().path("name").asText()).isEqualTo("read");
        assertThat(failure(catalog.resolve("files__read")).getMessage()).isEqualTo("Unknown tool: files__read");
        assertThatThrownBy(() -> FrontSettings.of(List.of(FrontSettings.ExposedServer.allTools("a"),
                FrontSettings.ExposedServer.allTools("b")), "1").withPlainToolNames())
                .hasMessageContaining("exactly one exposed server");
    }

    @Test
    void aSecondToolWithTheSameFrontNameIsLeftOutAndTheFirstServed() {
        upstream.set("files", FakeToolCatalog.tool("read", null), FakeToolCatalog.tool("read", "optional"),
                FakeToolCatalog.tool("write", null));

        assertThat(catalog(FrontSettings.ExposedServer.allTools("files")).all().join())
                .extracting(FrontCatalog.FrontTool::frontName).containsExactly("files__read", "files__write");
    }

    @Test
    void aNameOutsideTheToolNameCharsetIsLeftOutWithoutHidingTheOtherTools() {
        upstream.set("files", FakeToolCatalog.tool("read file", null), FakeToolCatalog.tool("read", null))
                .set("web", FakeToolCatalog.tool("get", null));
        FrontCatalog catalog = catalog(FrontSettings.ExposedServer.allTools("files"),
                FrontSettings.ExposedServer.allTools("web"));

        assertThat(catalog.all().join()).extracting(FrontCatalog.FrontTool::frontName)
                .containsExactly("files__read", "web__get");
        assertThat(failure(catalog.resolve("files__read file")).code()).isEqualTo(-32602);
    }

    @Test
    void anEmptyAllowListExposesNoTool() {
        upstream.set("files", FakeToolCatalog.tool("read", null));
        FrontCatalog catalog = catalog(new FrontSettings.ExposedServer("files", Set.of()));

        assertThat(catalog.all().join()).isEmpty();
        assertThat(failure(catalog.resolve("files__read")).getMessage()).isEqualTo("Unknown tool: files__read");
    }

    @Test
    void serverNamesThatWouldMakeFrontNamesAmbiguousAreRefused() {
        for (String name : new String[] {"a__b", "a_", "_a", "a b", ""}) {
            assertThatThrownBy(() -> FrontSettings.ExposedServer.allTools(name)).as(name)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + name + "'");
        }
        assertThat(FrontSettings.ExposedServer.allTools("my_server.v2-a").name()).isEqualTo("my_server.v2-a");
    }

    @Test
    void theAllowListExposesOnlyTheNamedTools() {
        upstream.set("files", FakeToolCatalog.tool("read", null), FakeToolCatalog.tool("delete", null));
        FrontCatalog catalog = catalog(new FrontSettings.ExposedServer("files", Set.of("read")));

        assertThat(catalog.all().join()).extracting(FrontCatalog.FrontTool::frontName).containsExactly("files__read");
        assertThat(failure(catalog.resolve("files__delete")).getMessage()).isEqualTo("Unknown tool: files__delete");
    }

    @Test
    void aListingIsReusedUntilItsTtlThenAskedAgain() {
        upstream.set("files", FakeToolCatalog.tool("read", null));
        FrontCatalog catalog = catalog(FrontSettings.ExposedServer.allTools("files"));
        catalog.all().join();
        catalog.resolve("files__read").join();
        clock.advance(Duration.ofSeconds(29));
        catalog.all().join();
        assertThat(upstream.asked()).isEqualTo(1);

        upstream.set("files", FakeToolCatalog.tool("read", null), FakeToolCatalog.tool("write", null));
        clock.advance(Duration.ofSeconds(2));
        assertThat(catalog.all().join()).hasSize(2);
        assertThat(upstream.asked()).isEqualTo(2);
    }

    @Test
    void anUnreachableUpstreamIsAnErrorNamingItAndIsNotCached() {
        upstream.set("files", FakeToolCatalog.tool("read", null));
        FrontCatalog catalog = catalog(FrontSettings.ExposedServer.allTools("files"),
                FrontSettings.ExposedServer.allTools("web"));

        FrontError error = failure(catalog.all());
        assertThat(error.code()).isEqualTo(-32603);
        assertThat(error.getMessage()).isEqualTo("upstream server 'web' cannot list its tools: server 'web':"
                + " connection refused");
        assertThat(catalog.resolve("files__read").join().tool()).as("the other server still serves").isEqualTo("read");

        upstream.set("web", new ListedTool("get", "{\"name\":\"get\",\"inputSchema\":{\"type\":\"object\"}}"));
        assertThat(catalog.all().join()).extracting(FrontCatalog.FrontTool::frontName)
                .containsExactly("files__read", "web__get");
    }

    @Test
    void aToolDefinitionThatIsNotAnObjectIsLeftOut() {
        upstream.set("files", new ListedTool("read", "[1]"), FakeToolCatalog.tool("write", null));

        assertThat(catalog(FrontSettings.ExposedServer.allTools("files")).all().join())
                .extracting(FrontCatalog.FrontTool::frontName).containsExactly("files__write");
    }
}
