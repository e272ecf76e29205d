package dev.mcptasks.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * sqlite-jdbc traces every {@code sqlite3_prepare} and every direct {@code sqlite3_exec} (logger
 * {@code org.sqlite.core.NativeDB}, TRACE, "DriverManager [thread] [SQLite EXEC] sql"): while attached, this appender
 * counts them by statement text, in every connection of the process, leaving out the bench's own monitor threads.
 * A prepared statement executed again without being prepared again is not seen: the count is of preparations.
 */
final class SqliteStatementTrace extends AppenderBase<ILoggingEvent> implements AutoCloseable {
    static final String LOGGER = "org.sqlite.core.NativeDB";
    private static final String MARK = "[SQLite EXEC] ";

    private final StatementTally tally = new StatementTally();
    private final Set<String> ignoredThreads;
    private final String ignoredThreadPrefix;
    private final Logger logger;
    private final Level levelBefore;
    private final boolean additiveBefore;

    /** Starts counting; statements made on {@code ignoredThreads} or threads named {@code ignoredThreadPrefix...} are not. */
    SqliteStatementTrace(Set<String> ignoredThreads, String ignoredThreadPrefix) {
        this.ignoredThreads = ignoredThreads;
        this.ignoredThreadPrefix = ignoredThreadPrefix;
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        this.logger = context.getLogger(LOGGER);
        this.levelBefore = logger.getLevel();
        this.additiveBefore = logger.isAdditive();
        setContext(context);
        setName("bench-sqlite-statements");
        start();
        logger.addAppender(this);
        logger.setAdditive(false);
        logger.setLevel(Level.TRACE);
    }

    StatementTally tally() {
        return tally;
    }

    @Override
    protected void append(ILoggingEvent event) {
        String thread = event.getThreadName();
        if (ignoredThreads.contains(thread) || thread.startsWith(ignoredThreadPrefix)) {
            return;
        }
        String message = event.getFormattedMessage();
        int at = message.indexOf(MARK);
        tally.add(at < 0 ? message : message.substring(at + MARK.length()), 1);
    }

    /** Stops counting; the tally keeps what was counted. */
    @Override
    public void close() {
        logger.setLevel(levelBefore);
        logger.setAdditive(additiveBefore);
        logger.detachAppender(this);
        stop();
    }
}
