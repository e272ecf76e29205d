package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.config.DatabaseConfig;
import dev.mcptasks.ports.repository.RepositoryException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class StoreUnavailableExceptionTest {
    private static RepositoryException failure(String message) {
        return new RepositoryException("cannot connect", new UnknownHostException(message));
    }

    @Test
    void thePasswordIsMaskedOutOfTheCause() {
        DatabaseConfig database = new DatabaseConfig("jdbc:postgresql://db/tasks", "app", "s3cret-password");
        assertThat(new StoreUnavailableException(database, failure("refused for s3cret-password")).getMessage())
                .contains("refused for ***").doesNotContain("s3cret-password");
    }

    @Test
    void aPasswordTooShortToTellFromTextDoesNotGarbleTheMessage() {
        DatabaseConfig database = new DatabaseConfig("jdbc:postgresql://db.example.internal/tasks", "app", "x");
        assertThat(new StoreUnavailableException(database, failure("db.example.internal")).getMessage())
                .endsWith(": db.example.internal");
    }
}
