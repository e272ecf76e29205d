package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReaderStatementsTest {
    private static final String SQL = "SELECT ? + 1";

    @TempDir
    Path dir;

    private final ReaderStatements statements = new ReaderStatements();

    @Test
    void aStatementIsPreparedOncePerConnectionAndAnswersEveryRead() throws SQLException {
        try (Connection one = open(); Connection two = open()) {
            PreparedStatement first = statements.prepared(one, SQL);
            assertThat(read(first, 1)).isEqualTo(2);
            assertThat(statements.prepared(one, SQL)).isSameAs(first);
            assertThat(read(statements.prepared(one, SQL), 41)).isEqualTo(42);
            assertThat(statements.prepared(two, SQL)).isNotSameAs(first);
            assertThat(statements.connections()).isEqualTo(2);
        }
    }

    @Test
    void theStatementsOfARetiredConnectionAreDroppedAndAForgottenOneIsPreparedAgain() throws SQLException {
        Connection retired = open();
        statements.prepared(retired, SQL);
        retired.close();
        try (Connection fresh = open()) {
            PreparedStatement first = statements.prepared(fresh, SQL);
            assertThat(statements.connections()).as("the retired connection's statements are gone").isEqualTo(1);

            statements.forget(fresh);
            assertThat(first.isClosed()).isTrue();
            assertThat(read(statements.prepared(fresh, SQL), 2)).isEqualTo(3);
        }
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("reads.db"));
    }

    private static long read(PreparedStatement statement, long value) throws SQLException {
        statement.setLong(1, value);
        try (ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
