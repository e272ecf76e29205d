package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.TypeLiteral;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.testkit.auth.FakeAuthorizer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the Guice module of an HTTP transport (from this module's test-jar) must do with the optional
 * {@link HttpAuthorizers}: without a binding every server gets {@link HttpAuthorizer#NONE}; a bound one reaches the
 * factory, one singleton, beside another transport's module declaring the same optional binder.
 */
public abstract class TransportModuleContract {
    private static final TypeLiteral<Map<String, McpTransportFactory>> FACTORIES = new TypeLiteral<>() {};

    /** The transport's module. */
    protected abstract Module module();

    /** The kind it binds its factory under. */
    protected abstract String kind();

    /** A server its factory takes. */
    protected abstract McpServerSpec server();

    /** The authorizers {@code factory} (this transport's) was given. */
    protected abstract HttpAuthorizers authorizersOf(McpTransportFactory factory);

    @Test
    void withoutAnAuthorizersBindingEveryServerGetsNone() {
        McpTransportFactory factory = factory(Guice.createInjector(binder -> binder.requireExplicitBindings(),
                module(), new OtherTransportModule()));

        assertThat(authorizersOf(factory).forServer(server())).isSameAs(HttpAuthorizer.NONE);
    }

    @Test
    void aBoundAuthorizersReachesTheFactoryBesideAnotherModuleDeclaringTheSameOptionalBinder() {
        HttpAuthorizer authorizer = new FakeAuthorizer("Bearer t0");
        HttpAuthorizers bound = server -> authorizer;
        Injector injector = Guice.createInjector(binder -> binder.requireExplicitBindings(),
                new OtherTransportModule(), module(),
                binder -> OptionalBinder.newOptionalBinder(binder, HttpAuthorizers.class).setBinding()
                        .toInstance(bound));

        McpTransportFactory factory = factory(injector);
        assertThat(authorizersOf(factory)).isSameAs(bound);
        assertThat(factory(injector)).as("one factory, a singleton").isSameAs(factory);
    }

    private McpTransportFactory factory(Injector injector) {
        return injector.getInstance(Key.get(FACTORIES)).get(kind());
    }

    /** Stands for another HTTP transport's module (not a dependency): it declares the same optional binding. */
    private static final class OtherTransportModule extends AbstractModule {
        @Override
        protected void configure() {
            OptionalBinder.newOptionalBinder(binder(), HttpAuthorizers.class);
            MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class).addBinding("other")
                    .toInstance(new McpTransportFactory() {
                        @Override
                        public String kind() {
                            return "other";
                        }

                        @Override
                        public boolean supports(McpServerSpec spec) {
                            return false;
                        }

                        @Override
                        public McpTransport create(McpServerSpec spec) {
                            throw new UnsupportedOperationException("other");
                        }
                    });
        }
    }
}
