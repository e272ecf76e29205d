package dev.mcptasks.adapters.sqlite;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.ibatis.type.BaseTypeHandler;
import org.apache.ibatis.type.JdbcType;

/**
 * Reads a whole {@code tasks} row by hand ({@link TaskRow#read}) for the mapper's reads: registered as the type
 * handler of {@link TaskRow}, so MyBatis hands the result set over instead of auto-mapping the ~55 columns. MyBatis
 * resolves its automatic mappings afresh for every statement it runs (property lookups, type handlers and the
 * column types of each column), which for a one-row read cost several times the row itself: a gateway's waiters read
 * their rows this way, and those reads were a third of a gateway's CPU under 16 concurrent callers. Every statement
 * that returns a {@code TaskRow} selects {@code tasks.*}.
 */
final class TaskRowHandler extends BaseTypeHandler<TaskRow> {
    @Override
    public TaskRow getNullableResult(ResultSet rs, String columnName) throws SQLException {
        return read(rs);
    }

    @Override
    public TaskRow getNullableResult(ResultSet rs, int columnIndex) throws SQLException {
        return read(rs);
    }

    @Override
    public TaskRow getNullableResult(CallableStatement cs, int columnIndex) {
        throw new UnsupportedOperationException("a task row is never an OUT parameter");
    }

    @Override
    public void setNonNullParameter(PreparedStatement ps, int i, TaskRow parameter, JdbcType jdbcType) {
        throw new UnsupportedOperationException("a task row is never a parameter");
    }

    /** The row at the cursor; the column positions are resolved for each row (lists are short pages). */
    private static TaskRow read(ResultSet rs) throws SQLException {
        return TaskRow.read(ColumnReader.of(rs.getMetaData()).at(rs));
    }
}
