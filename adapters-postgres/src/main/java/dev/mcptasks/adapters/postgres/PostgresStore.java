package dev.mcptasks.adapters.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.LocalCacheScope;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;

/**
 * The connection pool of one repository: runs mapper work on a pooled connection, in auto-commit mode or in one
 * transaction, and turns every failure into a typed repository exception.
 */
final class PostgresStore implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final String location;
    private final ThreadLocal<BoundTransaction> bound = new ThreadLocal<>();

    /** The pool, by its name (for the operator's metrics). */
    java.util.Map<String, javax.sql.DataSource> pools() {
        return java.util.Map.of(dataSource.getPoolName(), dataSource);
    }

    private PostgresStore(HikariDataSource dataSource, String location) {
        this.dataSource = dataSource;
        this.location = location;
    }

    /** Opens the pool (failing fast when the server cannot be reached) and migrates the schema. */
    static PostgresStore open(PostgresSettings settings) {
        return open(settings, newOrigin());
    }

    /**
     * {@link #open(PostgresSettings)}, with {@code origin} set as {@code mcp_tasks.origin} on every connection of the
     * pool: the change notifications of its transactions name it (V14), so this process's listener can tell them
     * from other processes' ({@link WorkArrivalListener}).
     */
    static PostgresStore open(PostgresSettings settings, String origin) {
        if (!origin.matches("[A-Za-z0-9-]+")) {
            throw new IllegalArgumentException("an origin is letters, digits and dashes, was '" + origin + "'");
        }
        String location = settings.location();
        HikariDataSource dataSource;
        try {
            HikariConfig config = poolConfig(settings);
            config.setConnectionInitSql("SET mcp_tasks.origin = '" + origin + "'");
            dataSource = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new RepositoryUnavailableException("cannot connect to PostgreSQL at " + location + " as user "
                    + settings.user() + " within " + settings.connectTimeout().toMillis() + " ms: "
                    + rootMessage(e), e);
        }
        try {
            SchemaMigrator.migrate(dataSource);
        } catch (SQLException | RuntimeException e) {
            dataSource.close();
            throw SqlErrors.translate("schema migration", e, location);
        }
        return new PostgresStore(dataSource, location);
    }

    /** A fresh origin for a store's connections: unique to the process and the store. */
    static String newOrigin() {
        return UUID.randomUUID().toString();
    }

    private static HikariConfig poolConfig(PostgresSettings settings) {
        long timeoutMs = settings.connectTimeout().toMillis();
        HikariConfig config = new HikariConfig();
        config.setPoolName("mcp-tasks-postgres");
        config.setDriverClassName("org.postgresql.Driver");
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(Math.min(1, settings.poolSize()));
        config.setAutoCommit(true);
        config.setConnectionTimeout(timeoutMs);
        // Fail the start-up (instead of retrying in the background) when no connection opens in time.
        config.setInitializationFailTimeout(timeoutMs);
        config.addDataSourceProperty("connectTimeout", Math.max(1, (timeoutMs + 999) / 1000));
        config.addDataSourceProperty("ApplicationName", "mcp-tasks");
        config.addDataSourceProperty("tcpKeepAlive", true);
        return config;
    }

    /**
     * Runs {@code work} in an auto-commit session: each statement is its own transaction. Inside
     * {@link #inOneTransaction} on this thread it joins that transaction instead.
     */
    <T> T autoCommit(String operation, Function<TaskMapper, T> work) {
        return autoCommit(operation, TaskMapper.class, work);
    }

    /** {@link #autoCommit(String, Function)} with the mapper of type {@code mapper} (the credential store's). */
    <M, T> T autoCommit(String operation, Class<M> mapper, Function<M, T> work) {
        BoundTransaction joined = bound.get();
        if (joined != null) {
            return joined.run(operation, mapper, work);
        }
        try (Connection connection = dataSource.getConnection();
                SqlSession session = Mappers.FACTORY.openSession(connection)) {
            return work.apply(session.getMapper(mapper));
        } catch (SQLException | RuntimeException e) {
            throw SqlErrors.translate(operation, e, location);
        }
    }

    /**
     * Runs {@code work} in one transaction, committed when it returns and rolled back when it throws. Inside
     * {@link #inOneTransaction} on this thread it joins that transaction (the outer one commits or rolls back).
     */
    <T> T transaction(String operation, Function<TaskMapper, T> work) {
        BoundTransaction joined = bound.get();
        if (joined != null) {
            return joined.run(operation, TaskMapper.class, work);
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            // the session closes the connection when it closes (the pool then restores auto-commit)
            try (SqlSession session = Mappers.FACTORY.openSession(connection)) {
                try {
                    T result = work.apply(session.getMapper(TaskMapper.class));
                    connection.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(connection, e);
                    throw e;
                }
            }
        } catch (SQLException | RuntimeException e) {
            throw SqlErrors.translate(operation, e, location);
        }
    }

    /**
     * Group commit: binds one connection with auto-commit off to the calling thread for the whole of {@code work},
     * so every {@link #autoCommit} and {@link #transaction} call made on this thread meanwhile runs in it; commits
     * when {@code work} returns and rolls back when it throws. A nested call joins the outer transaction.
     *
     * <p>A statement that failed inside poisons the transaction (PostgreSQL aborts it, and a caller may have caught
     * the failure): the transaction is then rolled back even when {@code work} returns, and the first failure is
     * thrown, so a write is never reported as kept when it was not.
     */
    <T> T inOneTransaction(Supplier<T> work) {
        if (bound.get() != null) {
            return work.get();
        }
        try (Connection connection = borrowForTransaction();
                SqlSession session = Mappers.FACTORY.openSession(connection)) {
            BoundTransaction transaction = new BoundTransaction(session);
            bound.set(transaction);
            T result;
            try {
                result = work.get();
            } catch (RuntimeException | Error e) {
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                bound.remove();
            }
            if (transaction.failure != null) {
                rollbackQuietly(connection, transaction.failure);
                throw transaction.failure;
            }
            commit(connection);
            return result;
        } catch (SQLException e) {
            // only the borrow and the close of the connection get here: every statement failure is translated
            throw SqlErrors.translate("group commit", e, location);
        }
    }

    private Connection borrowForTransaction() {
        try {
            Connection connection = dataSource.getConnection();
            try {
                connection.setAutoCommit(false);
                return connection;
            } catch (SQLException e) {
                closeQuietly(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("group commit", e, location);
        }
    }

    private void commit(Connection connection) {
        try {
            connection.commit();
        } catch (SQLException e) {
            // the outcome of a failed COMMIT is unknown to us; the server keeps all or nothing
            throw SqlErrors.translate("group commit", e, location);
        }
    }

    private static void closeQuietly(Connection connection, Exception failure) {
        try {
            connection.close();
        } catch (SQLException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }

    /** The transaction {@link #inOneTransaction} bound to a thread; only that thread touches it. */
    private final class BoundTransaction {
        private final SqlSession session;
        private final TaskMapper tasks;
        private RuntimeException failure;

        BoundTransaction(SqlSession session) {
            this.session = session;
            this.tasks = session.getMapper(TaskMapper.class); // the hot path's: made once, not per write
        }

        <M, T> T run(String operation, Class<M> mapper, Function<M, T> work) {
            if (failure != null) {
                // PostgreSQL would refuse it anyway ("current transaction is aborted"): name the first cause instead
                throw failure;
            }
            try {
                return work.apply(mapper == TaskMapper.class ? mapper.cast(tasks) : session.getMapper(mapper));
            } catch (RuntimeException e) {
                failure = SqlErrors.translate(operation, e, location);
                throw failure;
            }
        }
    }

    private static void rollbackQuietly(Connection connection, Throwable failure) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    /** The shared MyBatis configuration (tests use it to EXPLAIN the real statements). */
    static Configuration mybatis() {
        return Mappers.FACTORY.getConfiguration();
    }

    String location() {
        return location;
    }

    @Override
    public void close() {
        dataSource.close();
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }

    /**
     * The MyBatis configuration, parsed once per class loader (parsing the mapper XML costs far more than opening a
     * pool). It has no environment: sessions run on connections this store borrows and commits itself.
     */
    private static final class Mappers {
        static final SqlSessionFactory FACTORY = build();

        private static SqlSessionFactory build() {
            Configuration configuration = new Configuration();
            configuration.setDatabaseId("postgresql");
            configuration.setMapUnderscoreToCamelCase(true);
            configuration.setCacheEnabled(false);
            configuration.setLocalCacheScope(LocalCacheScope.STATEMENT);
            configuration.getTypeHandlerRegistry().register(Instant.class, new InstantTypeHandler());
            // whole rows are read by hand (see TaskRowReader), never auto-mapped
            configuration.getTypeHandlerRegistry().register(TaskRow.class, new TaskRowReader());
            configuration.addMapper(TaskMapper.class);
            configuration.addMapper(CredentialMapper.class);
            configuration.addMapper(RetentionMapper.class);
            configuration.addMapper(AuditMapper.class);
            configuration.addMapper(HistoryMapper.class);
            configuration.addMapper(FrontSessionMapper.class);
            return new SqlSessionFactoryBuilder().build(configuration);
        }
    }
}
