package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.adapters.httpsupport.HttpTarget;
import java.net.URI;

/** Test-only classes in an adapter's package, for {@code ArchitectureTest} to show its rules are not vacuous. */
public final class ArchitectureFixtures {
    private ArchitectureFixtures() {}

    /** What the rule forbids: an adapter building on another adapter. */
    public static final class ImportsAnotherAdapter {
        public String kind() {
            return new HttpTransportFactory().kind();
        }
    }

    /** What the rule allows: an adapter building on the support module. */
    public static final class ImportsTheSupportModule {
        public boolean http(URI url) {
            return HttpTarget.isHttp(url);
        }
    }
}
