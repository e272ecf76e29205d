package dev.mcptasks.adapters.sqlite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.apache.ibatis.builder.xml.XMLMapperBuilder;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.AutoMappingUnknownColumnBehavior;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.apache.ibatis.type.JdbcType;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The two connection pools of one database file and their MyBatis session factories. All writes go through a pool
 * of exactly one connection, in transactions begun with {@code BEGIN IMMEDIATE}, so a read-then-write transaction
 * holds the database write lock from its first read (SQLite ignores {@code SELECT ... FOR UPDATE}); reads use a
 * separate read-only pool that WAL lets run beside the writer. The writer's connection is borrowed once and kept in a
 * {@link WriterSession} that in-process writers take turns on (the writer lock), so its prepared statements outlive
 * each transaction; it goes back to the pool only when closed, or is evicted when a rollback failed.
 */
final class SqliteDatabase implements AutoCloseable {
    static final String DATABASE_ID = "sqlite";
    /** The task repository's statements and the credential store's, in one configuration per pool. */
    private static final List<String> MAPPER_XMLS = List.of("dev/mcptasks/adapters/sqlite/TaskMapper.xml",
            "dev/mcptasks/adapters/sqlite/CredentialMapper.xml", "dev/mcptasks/adapters/sqlite/RetentionMapper.xml",
            "dev/mcptasks/adapters/sqlite/AuditMapper.xml", "dev/mcptasks/adapters/sqlite/FrontSessionMapper.xml",
            "dev/mcptasks/adapters/sqlite/HistoryMapper.xml");

    private final SqliteSettings settings;
    private final String path;
    private final HikariDataSource writerPool;
    private final HikariDataSource readerPool;
    private final SqlSessionFactory writer;
    private final SqlSessionFactory reader;
    private final ReaderStatements readerStatements = new ReaderStatements();
    private volatile ColumnReader readerTaskColumns; // the positions of readTask's columns, resolved on its first row
    /** Held by the thread using the writer session; fair, so in-process writers take turns in arrival order. */
    private final ReentrantLock writerLock = new ReentrantLock(true);
    /**
     * Beginnings and ends of this process's write transactions (see {@link #writeActivity}): counted before BEGIN,
     * before anything reaches the files, and again after the transaction ended, before the writer is released.
     */
    private final AtomicLong writeActivity = new AtomicLong();
    /** The writer connection's data version at its last transaction; -1 before one (guarded by the writer lock). */
    private long writerVersion = -1;
    /**
     * Set when the baseline was lost after a first one existed (a failed pragma, a discarded connection): the next
     * write cannot rule out another connection's commit and tells of one (guarded by the writer lock). The work-arrival
     * watcher relies on every write after its first one to tell of commits made before it began.
     */
    private boolean baselineLost;
    private volatile Runnable foreignCommits = () -> { };
    private final Duration writerWait;
    private final String selectTaskSql;
    private WriterSession writerSession; // guarded by writerLock
    /** The group transaction open on this thread, if any ({@link #inOneTransaction}). */
    private final ThreadLocal<GroupTransaction> current = new ThreadLocal<>();

    private SqliteDatabase(SqliteSettings settings, HikariDataSource writerPool, HikariDataSource readerPool) {
        this.settings = settings;
        this.path = settings.path();
        this.writerPool = writerPool;
        this.readerPool = readerPool;
        this.writer = sessionFactory("writer", writerPool);
        this.reader = sessionFactory("reader", readerPool);
        this.writerWait = writerWait(settings);
        this.selectTaskSql = writer.getConfiguration().getMappedStatement(TaskMapper.class.getName() + ".selectTask")
                .getBoundSql(null).getSql();
    }

    /** Opens both pools and migrates the schema; closes whatever it opened if any step fails. */
    static SqliteDatabase open(SqliteSettings settings, Clock clock) {
        String path = settings.path();
        HikariDataSource writerPool = null;
        HikariDataSource readerPool = null;
        try {
            // the writer opens (and creates) the file first: a read-only connection cannot create it or switch to WAL
            writerPool = pool(settings, "writer", 1, false);
            new SchemaMigrator(writerPool, path, clock).migrate();
            readerPool = pool(settings, "reader", settings.readerPoolSize(), true);
            return new SqliteDatabase(settings, writerPool, readerPool);
        } catch (RuntimeException e) {
            closeQuietly(readerPool);
            closeQuietly(writerPool);
            // an intact database this build must not touch (a newer schema) says so; anything else is unavailability
            if (e instanceof RepositoryException repositoryException && !repositoryException.isTransient()) {
                throw e;
            }
            throw new RepositoryUnavailableException("cannot open SQLite database '" + path + "': "
                    + SqliteErrors.rootMessage(e), e);
        }
    }

    String path() {
        return path;
    }

    /**
     * Runs {@code work} in one writer transaction: an explicit {@code BEGIN IMMEDIATE} takes the write lock (after any
     * busy wait) before {@code work} reads anything or the clock, and an explicit {@code COMMIT} releases it. The
     * session stays in autocommit mode on purpose: the driver's own commit would immediately begin the next
     * transaction, which could wait for the lock and fail after this one had already committed. Inside
     * {@link #inOneTransaction} on the same thread, {@code work} joins that transaction instead (no BEGIN or COMMIT of
     * its own): a failure is translated and propagates, and the outer transaction rolls everything back.
     */
    <T> T write(String operation, Function<WriterSession, T> work) {
        GroupTransaction joined = current.get();
        if (joined != null) {
            try {
                return work.apply(joined.session());
            } catch (RuntimeException e) {
                throw SqliteErrors.translate(operation, path, e);
            }
        }
        return inWriterTransaction(operation, true, work);
    }

    /**
     * Runs {@code work} as one writer transaction that every {@link #write} made on this thread inside joins (group
     * commit); a nested call joins too. When {@code work} throws, the whole transaction is rolled back and the
     * exception propagates unchanged (the writes inside already translated theirs). Callbacks registered with
     * {@link #afterCommit} inside run once the outermost transaction committed, and never when it rolled back.
     */
    <T> T inOneTransaction(Supplier<T> work) {
        if (current.get() != null) {
            return work.get();
        }
        List<Runnable> committed = new ArrayList<>();
        T result = inWriterTransaction("group commit", false, session -> {
            current.set(new GroupTransaction(session, committed));
            try {
                return work.get();
            } finally {
                current.remove();
            }
        });
        committed.forEach(Runnable::run);
        return result;
    }

    /**
     * Runs {@code callback} once the write that registers it is committed: at once outside {@link #inOneTransaction},
     * else after the outermost group transaction committed (never if it rolled back).
     */
    void afterCommit(Runnable callback) {
        GroupTransaction joined = current.get();
        if (joined == null) {
            callback.run();
        } else {
            joined.afterCommit().add(callback);
        }
    }

    /**
     * One BEGIN IMMEDIATE ... COMMIT on the writer session, holding the writer lock throughout. Failures of the lock
     * wait, the connection, BEGIN and COMMIT are translated; a failure of {@code work} is translated only when
     * {@code translateWork} (a group's work may throw anything, and it propagates as thrown). Whatever failed, the
     * transaction is rolled back first.
     */
    private <T> T inWriterTransaction(String operation, boolean translateWork, Function<WriterSession, T> work) {
        boolean inWork = false;
        boolean foreign = false;
        lockWriter(operation);
        try {
            WriterSession session = writerSession();
            try {
                writeActivity.incrementAndGet(); // odd while the write is in flight
                // a write that began tells of other connections' commits before it, or, failing to look, tells
                // spuriously: the work-arrival watcher counts on every write begun after a change it saw to settle it
                foreign = true;
                session.execute("BEGIN IMMEDIATE");
                foreign = foreignCommitSince(session);
                inWork = true;
                T result = work.apply(session);
                inWork = false;
                session.execute("COMMIT");
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                if (!rollbackQuietly(session, e)) {
                    // a connection that may still hold the write lock must never be used again
                    discardWriterSession(true);
                }
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            if (inWork && !translateWork) {
                throw (RuntimeException) e; // work is a Function: it cannot throw a checked SQLException
            }
            throw SqliteErrors.translate(operation, path, e);
        } finally {
            writeActivity.incrementAndGet(); // even again: no write of this process in flight
            writerLock.unlock();
            if (foreign) {
                foreignCommits.run();
            }
        }
    }

    /**
     * Whether another connection committed since this writer's last transaction began (read under the write lock,
     * so up to this transaction). The work-arrival watcher takes file changes within a moment of this process's own
     * writes for their echo and looks at them only at its next periodic look; a busy writer's transactions see such
     * a commit here at once instead (one pragma per transaction, about 10 us).
     */
    private boolean foreignCommitSince(WriterSession session) {
        try {
            long version = session.dataVersion();
            boolean changed = writerVersion == -1 ? baselineLost : version != writerVersion;
            writerVersion = version;
            baselineLost = false;
            return changed;
        } catch (SQLException e) {
            writerVersion = -1;
            baselineLost = true;
            return true; // nothing can be ruled out: told, spuriously
        }
    }

    /**
     * Between writes: whether another connection committed since the writer last looked, told as a write would tell
     * it. Returns false, having looked at nothing, while a write holds the writer (that write looked at its start, but
     * a commit made after its own needs a look once it ends); before the first write there is no baseline, and the
     * listener is told (spuriously). The work-arrival watcher calls it when a change it saw may be this process's own.
     */
    boolean checkForeignCommits() {
        if (!writerLock.tryLock()) {
            return false;
        }
        boolean foreign;
        try {
            if (writerSession == null) {
                foreign = true;
            } else {
                boolean known = writerVersion != -1;
                // without a baseline (no write yet) nothing can be ruled out
                foreign = foreignCommitSince(writerSession) || !known;
            }
        } finally {
            writerLock.unlock();
        }
        if (foreign) {
            foreignCommits.run();
        }
        return true;
    }

    /** Runs {@code listener} after a write of this process found another connection's commit since its last one. */
    void onForeignCommit(Runnable listener) {
        this.foreignCommits = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Waits for the writer as long as a caller used to wait for the pool's one connection: in-process callers queue
     * here for the single writer, which may itself be in SQLite's busy wait.
     */
    private void lockWriter(String operation) {
        try {
            if (writerLock.tryLock(writerWait.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new TransientRepositoryException(operation + ": no connection to SQLite database '" + path
                + "' became free in time", null);
    }

    /** The open writer session, opened on the pool's one connection when there is none (under the writer lock). */
    private WriterSession writerSession() throws SQLException {
        if (writerSession == null) {
            Connection connection = writerPool.getConnection();
            try {
                writerSession = new WriterSession(writer.openSession(ExecutorType.REUSE, connection), selectTaskSql);
            } catch (SQLException | RuntimeException e) {
                writerPool.evictConnection(connection);
                throw e;
            }
        }
        return writerSession;
    }

    /** Drops the writer session; its connection is evicted from the pool, or returned to it (close). */
    private void discardWriterSession(boolean evict) {
        WriterSession session = writerSession;
        writerSession = null;
        if (writerVersion != -1) {
            baselineLost = true;
        }
        writerVersion = -1; // the next connection's version is its own
        if (session != null) {
            if (evict) {
                writerPool.evictConnection(session.connection());
            }
            session.close();
        }
    }

    /** The writer's and the readers' pools, by pool name (for the operator's metrics). */
    Map<String, DataSource> namedPools() {
        return Map.of(writerPool.getPoolName(), writerPool, readerPool.getPoolName(), readerPool);
    }

    /**
     * Counts the beginnings and ends of this process's write transactions: odd while one is in flight. A file change
     * or a new data version while it stayed the same and even was made by another process (the work-arrival
     * watcher's test).
     */
    long writeActivity() {
        return writeActivity.get();
    }

    /** Runs {@code work} on a read-only connection in autocommit mode. */
    <T> T read(String operation, Function<TaskMapper, T> work) {
        return read(operation, TaskMapper.class, work);
    }

    /** Runs {@code work} with the mapper of type {@code mapper} on a read-only connection in autocommit mode. */
    <M, T> T read(String operation, Class<M> mapper, Function<M, T> work) {
        try (SqlSession session = reader.openSession(true)) {
            return work.apply(session.getMapper(mapper));
        } catch (RuntimeException e) {
            throw SqliteErrors.translate(operation, path, e);
        }
    }

    /**
     * Runs {@code work} on the statement of {@code sql} on a connection of the reader pool, prepared once per
     * connection ({@link ReaderStatements}): for hot reads of static SQL that map their rows by hand. The work closes
     * the rows it opens.
     */
    <T> T readPrepared(String operation, String sql, StatementWork<T> work) {
        try (Connection connection = readerPool.getConnection()) {
            try {
                return work.apply(readerStatements.prepared(connection, sql));
            } catch (SQLException | RuntimeException e) {
                readerStatements.forget(connection);
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            throw SqliteErrors.translate(operation, path, e);
        }
    }

    /** The task row with this id read on a reader connection (see {@link #readPrepared}), or null. */
    TaskRow readTask(String id) {
        return readPrepared("find task " + id, selectTaskSql, statement -> readTask(statement, id));
    }

    /** The task rows of these ids that exist, read on one reader connection with one prepared statement. */
    List<TaskRow> readTasks(Collection<String> ids) {
        return readPrepared("find " + ids.size() + " tasks", selectTaskSql, statement -> {
            List<TaskRow> found = new ArrayList<>(ids.size());
            for (String id : ids) {
                TaskRow row = readTask(statement, id);
                if (row != null) {
                    found.add(row);
                }
            }
            return found;
        });
    }

    private TaskRow readTask(PreparedStatement statement, String id) throws SQLException {
        statement.setString(1, id);
        try (ResultSet rows = statement.executeQuery()) {
            if (!rows.next()) {
                return null;
            }
            ColumnReader columns = readerTaskColumns;
            if (columns == null) {
                // the statement's positions, resolved once: SELECT * of tasks, whose columns only grow at the end
                columns = ColumnReader.of(rows.getMetaData());
                readerTaskColumns = columns;
            }
            return TaskRow.read(columns.reading(rows));
        }
    }

    /** Work on a prepared statement. */
    @FunctionalInterface
    interface StatementWork<T> {
        T apply(PreparedStatement statement) throws SQLException;
    }

    /** The writer's MyBatis configuration (tests inspect the mapped statements). */
    Configuration configuration() {
        return writer.getConfiguration();
    }

    @Override
    public void close() {
        // a write still running when the repository closes fails on its closed connection, as before
        boolean locked = false;
        try {
            locked = writerLock.tryLock(writerWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            discardWriterSession(false);
        } finally {
            if (locked) {
                writerLock.unlock();
            }
        }
        closeQuietly(readerPool);
        closeQuietly(writerPool);
    }

    /** A read-only connection outside both pools, configured like theirs (the work-arrival watcher's). */
    Connection openReadConnection() throws SQLException {
        return dataSource(settings, true).getConnection();
    }

    /** The writer and reader pools (tests read the pragmas of their connections). */
    List<DataSource> pools() {
        return List.of(writerPool, readerPool);
    }

    private static Duration writerWait(SqliteSettings settings) {
        return Duration.ofMillis(Math.max(250, 3 * settings.busyTimeout().toMillis() + 1_000));
    }

    private static SQLiteDataSource dataSource(SqliteSettings settings, boolean readOnly) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setBusyTimeout((int) settings.busyTimeout().toMillis());
        config.setReadOnly(readOnly);
        // no statement here reads generated keys (ids are the caller's); left on, sqlite-jdbc matches an INSERT
        // pattern against the whole SQL text after every executed update (seen in the renewal profile)
        config.setGetGeneratedKeys(false);
        // freed space is overwritten with zeros: a credential's sealed bytes (and a deleted row's) do not outlive
        // the write that replaced them in the file, e.g. after `auth logout`
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        config.setSynchronous(switch (settings.synchronous()) {
            case FULL -> SQLiteConfig.SynchronousMode.FULL;
            case NORMAL -> SQLiteConfig.SynchronousMode.NORMAL;
        });
        // busy_timeout is set too, but the handler installed on each connection replaces SQLite's sleeping strategy
        SQLiteDataSource dataSource = new BusyWaitDataSource(config, settings.busyTimeout());
        dataSource.setUrl(settings.jdbcUrl());
        return dataSource;
    }

    private static HikariDataSource pool(SqliteSettings settings, String role, int size, boolean readOnly) {
        HikariConfig hikari = new HikariConfig();
        hikari.setDataSource(dataSource(settings, readOnly));
        hikari.setPoolName("sqlite-" + role);
        hikari.setReadOnly(readOnly); // must match the connection: sqlite-jdbc refuses to change it once open
        hikari.setMaximumPoolSize(size);
        hikari.setMinimumIdle(size);
        // in-process callers queue here for the single writer, which may itself be in SQLite's busy wait
        hikari.setConnectionTimeout(writerWait(settings).toMillis());
        hikari.setInitializationFailTimeout(1);
        return new HikariDataSource(hikari);
    }

    private static SqlSessionFactory sessionFactory(String role, DataSource dataSource) {
        Configuration configuration = new Configuration(
                new Environment(role, new JdbcTransactionFactory(), dataSource));
        configuration.setDatabaseId(DATABASE_ID);
        configuration.setMapUnderscoreToCamelCase(true);
        configuration.setJdbcTypeForNull(JdbcType.NULL);
        configuration.setAutoMappingUnknownColumnBehavior(AutoMappingUnknownColumnBehavior.FAILING);
        configuration.setCacheEnabled(false);
        configuration.setLocalCacheScope(org.apache.ibatis.session.LocalCacheScope.STATEMENT);
        // whole task rows are read by hand (see TaskRowHandler), never auto-mapped
        configuration.getTypeHandlerRegistry().register(TaskRow.class, new TaskRowHandler());
        for (String mapperXml : MAPPER_XMLS) {
            try (InputStream xml = SqliteDatabase.class.getClassLoader().getResourceAsStream(mapperXml)) {
                if (xml == null) {
                    throw new IllegalStateException("mapper resource " + mapperXml + " is missing from the classpath");
                }
                new XMLMapperBuilder(xml, configuration, mapperXml, configuration.getSqlFragments()).parse();
            } catch (IOException e) {
                throw new IllegalStateException("cannot read mapper resource " + mapperXml, e);
            }
        }
        return new SqlSessionFactoryBuilder().build(configuration);
    }

    static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * Rolls back whatever the failed transaction wrote; the failure itself is what the caller reports. Returns false
     * when a transaction may still be open on the connection.
     */
    static boolean rollbackQuietly(Connection connection, Throwable failure) {
        try {
            execute(connection, "ROLLBACK");
            return true;
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
            // BEGIN itself failed (busy): no transaction was ever opened, nothing to undo
            return String.valueOf(e.getMessage()).contains("no transaction is active");
        }
    }

    private static boolean rollbackQuietly(WriterSession session, Throwable failure) {
        try {
            session.execute("ROLLBACK");
            return true;
        } catch (SQLException | RuntimeException e) {
            failure.addSuppressed(e);
            // BEGIN itself failed (busy): no transaction was ever opened, nothing to undo
            return String.valueOf(e.getMessage()).contains("no transaction is active");
        }
    }

    /** A group transaction: the mapper its writes join, and the callbacks to run once it committed. */
    private record GroupTransaction(WriterSession session, List<Runnable> afterCommit) {}

    private static void closeQuietly(HikariDataSource pool) {
        if (pool != null) {
            pool.close();
        }
    }
}
