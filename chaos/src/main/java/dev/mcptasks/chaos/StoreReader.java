package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads the task rows at the end of a run with plain SQL (the same columns on both databases). */
public final class StoreReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private StoreReader() {}

    public static List<StoreRow> read(Connection connection) throws SQLException {
        List<StoreRow> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT id, arguments, status, error_code, remote_task_id,"
                        + " result, cancel_requested_at, protocol_version FROM tasks ORDER BY id")) {
            while (result.next()) {
                rows.add(new StoreRow(result.getString("id"), key(result.getString("arguments")),
                        result.getString("status"), result.getString("error_code"), result.getString("remote_task_id"),
                        result.getString("result"), result.getObject("cancel_requested_at") != null,
                        epochMs(result, "cancel_requested_at"), result.getString("protocol_version")));
            }
        }
        return rows;
    }

    /** A time column as epoch ms: SQLite stores epoch ms as INTEGER, PostgreSQL a timestamptz. */
    private static Long epochMs(ResultSet result, String column) throws SQLException {
        Object value = result.getObject(column);
        if (value == null) {
            return null;
        }
        if (value instanceof Number number) {
            return number.longValue();
        }
        return result.getTimestamp(column).getTime();
    }

    private static String key(String arguments) {
        try {
            return MAPPER.readTree(arguments).path(ServerJournal.KEY_ARGUMENT).asText(null);
        } catch (IOException e) {
            return null;
        }
    }
}
