package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A principal is told an upstream failure's status, never the body the upstream (or a proxy) answered. */
class PrincipalTextTest {
    @Test
    void theUpstreamBodyIsCutAfterTheStatus() {
        assertThat(PrincipalText.summary("server 'up' answered HTTP 502: bad gateway; you sent: Authorization=x"))
                .isEqualTo("server 'up' answered HTTP 502");
        assertThat(PrincipalText.summary("server 'up' no longer knows the session (HTTP 404): {\"error\":1}"))
                .isEqualTo("server 'up' no longer knows the session (HTTP 404)");
    }

    @Test
    void otherMessagesAreKept() {
        assertThat(PrincipalText.summary("the task failed")).isEqualTo("the task failed");
        assertThat(PrincipalText.summary(null)).isNull();
    }
}
