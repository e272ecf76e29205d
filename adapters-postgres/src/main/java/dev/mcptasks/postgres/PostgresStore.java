package dev.mcptasks.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.Function;
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

    private PostgresStore(HikariDataSource dataSource, String location) {
        this.dataSource = dataSource;
        this.location = location;
    }

    /** Opens the pool (failing fast when the server cannot be reached) and migrates the schema. */
    static PostgresStore open(PostgresSettings settings) {
        String location = settings.location();
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(poolConfig(settings));
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

    /** Runs {@code work} in an auto-commit session: each statement is its own transaction. */
    <T> T autoCommit(String operation, Function<TaskMapper, T> work) {
        try (Connection connection = dataSource.getConnection();
                SqlSession session = Mappers.FACTORY.openSession(connection)) {
            return work.apply(session.getMapper(TaskMapper.class));
        } catch (SQLException | RuntimeException e) {
            throw SqlErrors.translate(operation, e, location);
        }
    }

    /** Runs {@code work} in one transaction, committed when it returns and rolled back when it throws. */
    <T> T transaction(String operation, Function<TaskMapper, T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result;
                try (SqlSession session = Mappers.FACTORY.openSession(connection)) {
                    result = work.apply(session.getMapper(TaskMapper.class));
                    connection.commit();
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                if (!connection.isClosed()) {
                    connection.rollback();
                }
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            throw SqlErrors.translate(operation, e, location);
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
            configuration.addMapper(TaskMapper.class);
            return new SqlSessionFactoryBuilder().build(configuration);
        }
    }
}
