package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.adapters.sse.SseTransportFactory;

/** Test-only classes in the support module's package, for {@code ArchitectureTest} to show its rule bites. */
public final class ArchitectureFixtures {
    private ArchitectureFixtures() {}

    /** What the rule forbids: the support module building on an adapter. */
    public static final class ImportsAnAdapter {
        public String kind() {
            return new SseTransportFactory().kind();
        }
    }
}
