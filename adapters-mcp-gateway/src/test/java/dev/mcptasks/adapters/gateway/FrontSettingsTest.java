package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FrontSettingsTest {
    private static final List<FrontSettings.ExposedServer> ONE = List.of(FrontSettings.ExposedServer.allTools("a"));

    @Test
    void defaultsPollTheStoreEverySecondAndTellClientsOneSecond() {
        FrontSettings settings = FrontSettings.of(ONE, "1.2.3");

        assertThat(settings.storePollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.catalogTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.serverName()).isEqualTo("mcp-tasks");
        assertThat(settings.serverVersion()).isEqualTo("1.2.3");
        assertThat(settings.clientPollIntervalMs()).isEqualTo(1000);
    }

    @Test
    void invalidSettingsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> FrontSettings.of(List.of(), "1")).hasMessageContaining("exposes no server");
        assertThatThrownBy(() -> FrontSettings.of(List.of(FrontSettings.ExposedServer.allTools("a"),
                new FrontSettings.ExposedServer("a", Set.of("x"))), "1")).hasMessage("server 'a' is exposed twice");
        assertThatThrownBy(() -> new FrontSettings(ONE, Duration.ZERO, Duration.ofSeconds(1), "n", "v", 1, Quotas.NONE, false, null))
                .hasMessageContaining("storePollInterval");
        assertThatThrownBy(() -> new FrontSettings(ONE, Duration.ofSeconds(1), Duration.ofSeconds(1), "n", " ", 1, Quotas.NONE, false, null))
                .hasMessageContaining("serverVersion");
        assertThatThrownBy(() -> new FrontSettings(ONE, Duration.ofSeconds(1), Duration.ofSeconds(1), "n", "v", 0, Quotas.NONE, false, null))
                .hasMessageContaining("clientPollIntervalMs");
    }

    @Test
    void anAllowListIsCopiedAndNullMeansEveryTool() {
        assertThat(FrontSettings.ExposedServer.allTools("a").exposes("anything")).isTrue();
        FrontSettings.ExposedServer some = new FrontSettings.ExposedServer("a", Set.of("x"));
        assertThat(some.exposes("x")).isTrue();
        assertThat(some.exposes("y")).isFalse();
    }
}
