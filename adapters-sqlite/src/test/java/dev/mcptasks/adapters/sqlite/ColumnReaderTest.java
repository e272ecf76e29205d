package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Columns are found by name once per statement and read by position on every later row. */
class ColumnReaderTest {
    @Test
    void readsEachRowOfItsStatementByColumnName() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite::memory:");
                PreparedStatement select = connection.prepareStatement(
                        "SELECT ? + 1 AS counted, 'row ' || ? AS Label, NULL AS missing_at")) {
            ColumnReader reader = null;
            for (int i = 1; i <= 2; i++) {
                select.setInt(1, i);
                select.setInt(2, i);
                try (ResultSet rows = select.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    reader = reader == null ? ColumnReader.of(rows.getMetaData()) : reader;
                    ColumnReader row = reader.at(rows);
                    assertThat(row.string("label")).isEqualTo("row " + i);
                    assertThat(row.number("counted")).isEqualTo(i + 1L);
                    assertThat(row.integer("counted")).isEqualTo(i + 1);
                    assertThat(row.nullableNumber("missing_at")).isNull();
                    assertThat(row.nullableNumber("counted")).isEqualTo(i + 1L);
                    assertThatThrownBy(() -> row.string("status"))
                            .isInstanceOf(SQLException.class)
                            .hasMessage("the statement has no column status");
                }
            }
        }
    }
}
