package dev.mcptasks.adapters.sqlite;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.mapping.ParameterMapping;
import org.apache.ibatis.mapping.SqlCommandType;
import org.apache.ibatis.session.Configuration;

/**
 * One of the mapper's static UPDATE or SELECT statements run by plain JDBC: the very SQL text MyBatis runs for it,
 * with its parameters bound in MyBatis's order, read from the same parameter objects the mapper method takes, and
 * bound by value type as MyBatis's default type handlers bind them (null as {@code Types.NULL}, booleans as 0/1). The
 * batched writes execute an update once per element on one reused statement: MyBatis's per-call work (parameter map,
 * reflection per property, statement handler, type-handler lookups) was three quarters of a fenced write's CPU; the
 * claim scans read their candidates the same way (MyBatis's map per row was a third of a scan's CPU).
 *
 * <p>Built when the database opens, so a statement that is not a static UPDATE or SELECT, or that names a parameter
 * the caller does not pass, fails there and not mid-batch.
 */
final class DirectStatement {
    private final String name;
    private final String sql;
    private final SqlCommandType type;
    private final List<Getter> getters;

    private DirectStatement(String name, String sql, SqlCommandType type, List<Getter> getters) {
        this.name = name;
        this.sql = sql;
        this.type = type;
        this.getters = getters;
    }

    /**
     * The mapper statement {@code statement}, whose parameters are {@code params} in the order {@link #execute} is
     * given their values: each a name the SQL uses ({@code #{now}}) or a record whose components it uses
     * ({@code #{f.id}}).
     */
    static DirectStatement of(Configuration configuration, String statement, Param... params) {
        MappedStatement mapped = configuration.getMappedStatement(TaskMapper.class.getName() + "." + statement);
        SqlCommandType type = mapped.getSqlCommandType();
        if (type != SqlCommandType.UPDATE && type != SqlCommandType.SELECT) {
            throw new IllegalStateException("mapper statement " + statement + " is neither an UPDATE nor a SELECT");
        }
        BoundSql bound = mapped.getBoundSql(null);
        List<Getter> getters = new ArrayList<>();
        for (ParameterMapping mapping : bound.getParameterMappings()) {
            getters.add(getter(statement, mapping.getProperty(), params));
        }
        return new DirectStatement(statement, bound.getSql(), type, List.copyOf(getters));
    }

    String sql() {
        return sql;
    }

    /**
     * Binds {@code values} (in the order of the params given to {@link #of}) to the update and returns the
     * affected-row count.
     */
    int execute(PreparedStatement statement, Object... values) throws SQLException {
        bindAll(SqlCommandType.UPDATE, statement, values);
        return statement.executeUpdate();
    }

    /** Binds {@code values} as {@link #execute} does and runs the query: the caller reads and closes its rows. */
    ResultSet query(PreparedStatement statement, Object... values) throws SQLException {
        bindAll(SqlCommandType.SELECT, statement, values);
        return statement.executeQuery();
    }

    private void bindAll(SqlCommandType expected, PreparedStatement statement, Object[] values) throws SQLException {
        if (type != expected) {
            throw new IllegalStateException("mapper statement " + name + " is not a " + expected);
        }
        for (int i = 0; i < getters.size(); i++) {
            bind(statement, i + 1, getters.get(i).get(values));
        }
    }

    private void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NULL);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Boolean flag) {
            statement.setBoolean(index, flag);
        } else {
            throw new IllegalStateException("parameter " + index + " of " + name + " has unsupported type "
                    + value.getClass().getName());
        }
    }

    /** A parameter of the statement: a plain value, or a record of values. */
    record Param(String name, Class<?> type) {
        static Param value(String name) {
            return new Param(name, null);
        }

        static Param record(String name, Class<? extends Record> type) {
            return new Param(name, type);
        }
    }

    @FunctionalInterface
    private interface Getter {
        Object get(Object[] values);
    }

    private static Getter getter(String statement, String property, Param[] params) {
        int dot = property.indexOf('.');
        String root = dot < 0 ? property : property.substring(0, dot);
        int index = indexOf(root, params);
        if (index < 0) {
            throw new IllegalStateException("mapper statement " + statement + " uses #{" + property
                    + "}, which is none of its parameters " + Arrays.stream(params).map(Param::name).toList());
        }
        Param param = params[index];
        if (dot < 0) {
            if (param.type() != null) {
                throw new IllegalStateException("mapper statement " + statement + " binds the record #{" + root
                        + "} itself");
            }
            return values -> values[index];
        }
        Method accessor = accessor(statement, property, param, property.substring(dot + 1));
        return values -> {
            Object owner = values[index];
            try {
                return accessor.invoke(owner);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("reading #{" + property + "} of " + statement + " failed", e);
            }
        };
    }

    private static Method accessor(String statement, String property, Param param, String component) {
        if (param.type() == null || !param.type().isRecord()) {
            throw new IllegalStateException("mapper statement " + statement + " reads #{" + property + "} of "
                    + param.name() + ", which is not a record");
        }
        for (RecordComponent candidate : param.type().getRecordComponents()) {
            if (candidate.getName().equals(component)) {
                return candidate.getAccessor();
            }
        }
        throw new IllegalStateException("mapper statement " + statement + " reads #{" + property + "}, but "
                + param.type().getSimpleName() + " has no component " + component);
    }

    private static int indexOf(String name, Param[] params) {
        for (int i = 0; i < params.length; i++) {
            if (params[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
