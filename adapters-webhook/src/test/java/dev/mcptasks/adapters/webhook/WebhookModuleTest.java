package dev.mcptasks.adapters.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Stage;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.NotificationSink;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WebhookModuleTest {
    private static final WebhookSettings SETTINGS = WebhookSettings.of("https://hooks.example.com/in",
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    @Test
    void bindsTheSinkUnderAHardenedInjector() {
        Injector injector = Guice.createInjector(Stage.PRODUCTION, new Hardened(), new WebhookModule(SETTINGS));

        NotificationSink sink = injector.getInstance(NotificationSink.class);

        assertThat(sink).isInstanceOf(WebhookSink.class).hasToString("WebhookSink[https://hooks.example.com]");
        assertThat(injector.getInstance(NotificationSink.class)).isSameAs(sink);
    }

    @Test
    void replacesTheDefaultSinkAnApplicationDeclares() {
        AbstractModule application = new AbstractModule() {
            @Override
            protected void configure() {
                OptionalBinder.newOptionalBinder(binder(), NotificationSink.class).setDefault()
                        .toInstance(n -> CompletableFuture.completedFuture(new DeliveryResult.Delivered()));
            }
        };

        Injector injector = Guice.createInjector(Stage.PRODUCTION, new Hardened(), application,
                new WebhookModule(SETTINGS));

        assertThat(injector.getInstance(NotificationSink.class)).isInstanceOf(WebhookSink.class);
    }

    /** What the application's injector enforces. */
    private static final class Hardened extends AbstractModule {
        @Override
        protected void configure() {
            binder().requireExplicitBindings();
            binder().disableCircularProxies();
        }
    }
}
