package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Binding;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import com.google.inject.spi.Dependency;
import com.google.inject.spi.HasDependencies;
import dev.mcptasks.adapters.webhook.WebhookModule;
import dev.mcptasks.adapters.webhook.WebhookSink;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.notification.NotificationSink;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's notification sink follows {@code notifications.webhook}: the webhook sink when configured, none bound
 * otherwise (the runtime then logs events); and the runtime is built from exactly that optional binding.
 */
class WebhookWiringTest {
    private static final Key<Optional<NotificationSink>> SINK = Key.get(new TypeLiteral<>() {});

    @TempDir
    Path dir;

    private AppConfig config(String notifications) {
        String json = "{\"database\": {\"url\": \"jdbc:sqlite:" + dir.resolve("tasks.db") + "\"}, \"mcpServers\": {"
                + "\"local\": {\"command\": \"node\"}}" + notifications + "}";
        return new ConfigLoader(Map.<String, String>of()::get, dir).parse("test.json", json);
    }

    private AppConfig withWebhook() {
        return config(", \"notifications\": {\"webhook\": {\"url\": \"http://127.0.0.1:9/hook\", \"secret\":"
                + " \"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\"}}");
    }

    @Test
    void aConfiguredWebhookIsTheWorkersSink() {
        assertThat(NotificationModules.forConfig(withWebhook())).get().isInstanceOf(WebhookModule.class);
        try (Application app = AppRoot.production().openWorker(withWebhook(), WorkerId.of("w1"))) {
            assertThat(app.injector().getInstance(SINK)).get().isInstanceOf(WebhookSink.class)
                    .hasToString("WebhookSink[http://127.0.0.1:9]");
            assertThat(app.get(WorkerRuntime.class).workerId()).isEqualTo(WorkerId.of("w1"));
            assertThat(runtimeDependencies(app)).contains(SINK);
        }
    }

    @Test
    void withoutAWebhookNoSinkIsBoundAndTheRuntimeLogsEvents() {
        assertThat(NotificationModules.forConfig(config(""))).isEmpty();
        try (Application app = AppRoot.production().openWorker(config(""), WorkerId.of("w1"))) {
            assertThat(app.injector().getInstance(SINK)).isEmpty();
            assertThat(app.get(WorkerRuntime.class).workerId()).isEqualTo(WorkerId.of("w1"));
            assertThat(runtimeDependencies(app)).contains(SINK);
        }
    }

    @Test
    void aClientOpensNoSinkEvenWithAWebhookConfigured() {
        try (Application app = AppRoot.production().openClient(withWebhook())) {
            assertThat(app.injector().getExistingBinding(SINK)).isNull();
            assertThat(app.injector().getExistingBinding(Key.get(NotificationSink.class))).isNull();
        }
    }

    /** The keys the runtime's provider is called with. */
    private static Set<Key<?>> runtimeDependencies(Application app) {
        Binding<WorkerRuntime> binding = app.injector().getBinding(WorkerRuntime.class);
        return ((HasDependencies) binding).getDependencies().stream().map(Dependency::getKey)
                .collect(Collectors.toSet());
    }
}
