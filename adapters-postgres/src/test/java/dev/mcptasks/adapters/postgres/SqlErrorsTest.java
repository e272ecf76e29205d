package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import java.sql.SQLTransientConnectionException;
import org.apache.ibatis.exceptions.PersistenceException;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** Failures map to typed exceptions by SQLSTATE and, for unique violations, by constraint name. */
class SqlErrorsTest {
    private static final String LOCATION = "db:5432/tasks";

    private static RepositoryException translate(String state, String constraint) {
        String fields = "SERROR\u0000C" + state + "\u0000Mserver says no\u0000"
                + (constraint == null ? "" : "n" + constraint + "\u0000");
        PSQLException server = new PSQLException(new ServerErrorMessage(fields));
        // MyBatis wraps driver exceptions; the translation looks through the cause chain
        return SqlErrors.translate("op", new PersistenceException("wrapped", server), LOCATION);
    }

    @Test
    void serializationFailuresAndDeadlocksAreTransient() {
        assertThat(translate("40001", null)).isInstanceOf(TransientRepositoryException.class)
                .hasMessageContaining("40001").hasMessageContaining(LOCATION);
        assertThat(translate("40P01", null)).isInstanceOf(TransientRepositoryException.class);
    }

    @Test
    void uniqueViolationsOfTaskIdOrRemoteIdAreDuplicates() {
        assertThat(translate("23505", SqlErrors.TASK_ID_CONSTRAINT)).isInstanceOf(DuplicateTaskException.class);
        assertThat(translate("23505", SqlErrors.REMOTE_ID_CONSTRAINT)).isInstanceOf(DuplicateTaskException.class);
    }

    @Test
    void otherIntegrityErrorsArePlainRepositoryExceptions() {
        assertThat(translate("23505", "workers_pkey")).isExactlyInstanceOf(RepositoryException.class);
        assertThat(translate("23514", "tasks_status_check")).isExactlyInstanceOf(RepositoryException.class);
        assertThat(translate("23502", null)).isExactlyInstanceOf(RepositoryException.class);
    }

    @Test
    void lostConnectionsAndPoolTimeoutsMeanUnavailable() {
        assertThat(translate("08006", null)).isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining(LOCATION);
        assertThat(translate("57P01", null)).isInstanceOf(RepositoryUnavailableException.class);
        assertThat(SqlErrors.translate("op", new SQLTransientConnectionException("pool timed out"), LOCATION))
                .isInstanceOf(RepositoryUnavailableException.class);
    }
}
