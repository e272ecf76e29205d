package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.domain.TaskStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code retention}: the defaults when absent, every key mapped, {@code "forever"}, and one line per mistake. */
class RetentionConfigTest {
    private final ConfigLoader loader = new ConfigLoader(Map.<String, String>of()::get, Path.of("."));

    private AppConfig parse(String json) {
        return loader.parse("test.json", json);
    }

    @Test
    void withoutRetentionTheDefaultsApply() {
        assertThat(parse("{}").retention()).isEqualTo(RetentionPolicy.defaults());
        assertThat(AppConfig.defaults().retention()).isEqualTo(RetentionPolicy.defaults());
        assertThat(RetentionPolicy.defaults().byStatus()).isEqualTo(Map.of(TaskStatus.COMPLETED, Duration.ofDays(7),
                TaskStatus.FAILED, Duration.ofDays(30), TaskStatus.CANCELLED, Duration.ofDays(7)));
        assertThat(RetentionPolicy.defaults().audit()).isEqualTo(Duration.ofDays(365));
    }

    @Test
    void everyKeyIsMapped() {
        RetentionPolicy policy = parse("""
                {"retention": {"completed": "12h", "failed": "2w", "cancelled": "forever", "audit": "30d",
                               "batchSize": 100, "pauseMillis": 0, "intervalSeconds": 60}}""").retention();

        assertThat(policy.byStatus()).isEqualTo(Map.of(TaskStatus.COMPLETED, Duration.ofHours(12),
                TaskStatus.FAILED, Duration.ofDays(14)));
        assertThat(policy.retentionOf(TaskStatus.CANCELLED)).isEmpty();
        assertThat(policy.audit()).isEqualTo(Duration.ofDays(30));
        assertThat(policy.batchSize()).isEqualTo(100);
        assertThat(policy.pause()).isZero();
        assertThat(policy.interval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(parse("{\"retention\": {\"audit\": \"forever\"}}").retention().audit()).isNull();
    }

    @Test
    void aMistakeIsOneLineNamingTheKey() {
        assertError("{\"retention\": {\"completed\": \"7 days\"}}", "retention.completed", "'7 days' is not a duration");
        assertError("{\"retention\": {\"failed\": \"0d\"}}", "retention.failed", "is not a duration");
        assertError("{\"retention\": {\"batchSize\": 0}}", "retention.batchSize", "retention.batchSize");
        assertError("{\"retention\": {\"complete\": \"7d\"}}", "retention.complete", "allowed here: audit");
    }

    @Test
    void humanDurationsReadAndPrintTheSameWay() {
        assertThat(HumanDuration.parse("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(HumanDuration.parse("1500ms")).isEqualTo(Duration.ofMillis(1500));
        assertThat(HumanDuration.format(Duration.ofMinutes(60))).isEqualTo("1h");
        assertThat(HumanDuration.format(Duration.ofDays(14))).isEqualTo("2w");
        assertThat(HumanDuration.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThatThrownBy(() -> HumanDuration.parse("-1d")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HumanDuration.parse("7")).isInstanceOf(IllegalArgumentException.class);
    }

    private void assertError(String json, String key, String messagePart) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("test.json: ")
                .hasMessageContaining(messagePart)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"))
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }
}
